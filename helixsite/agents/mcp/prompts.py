"""The two MCP prompts: ``memory_summary`` and ``tool_selection_guide`` (our cognitive protocol).

Tool names in the texts go through ``_tool``: a name must be in the catalogue, so the guide
never sends an agent to a tool this server does not have.
"""

from __future__ import annotations

import mcp_types as types

from helixsite.agents.catalogue import tools_by_name

PROMPTS = [
    types.Prompt(
        name="memory_summary",
        description="Summarize everything remembered about a person, or about one topic of theirs.",
        arguments=[
            types.PromptArgument(name="user_id", description="whose memories (the subject)", required=True),
            types.PromptArgument(name="topic", description="what about; leave out for everything", required=False),
        ],
    ),
    types.Prompt(
        name="tool_selection_guide",
        description="How to use this memory: which tool for which intent, the session shape, how to "
        "read results, and what never to store.",
        arguments=[],
    ),
]


class UnknownPrompt(LookupError):
    pass


def prompt_names() -> list[str]:
    return [prompt.name for prompt in PROMPTS]


def prompt_get(*, name: str, arguments: dict[str, str], actor_id: str) -> types.GetPromptResult:
    if name == "memory_summary":
        user_id = (arguments.get("user_id") or "").strip()
        if not user_id:
            raise ValueError("memory_summary needs the argument user_id.")
        text = memory_summary(actor_id=actor_id, user_id=user_id, topic=(arguments.get("topic") or "").strip())
    elif name == "tool_selection_guide":
        text = tool_selection_guide(actor_id=actor_id)
    else:
        raise UnknownPrompt(name)
    description = next(prompt.description for prompt in PROMPTS if prompt.name == name)
    message = types.PromptMessage(role="user", content=types.TextContent(text=text))
    return types.GetPromptResult(description=description, messages=[message])


def _tool(name: str) -> str:
    if name not in tools_by_name():
        raise ValueError(f"the prompts mention {name}, which is not a tool of this server")
    return name


def memory_summary(*, actor_id: str, user_id: str, topic: str) -> str:
    t, who = _tool, f'actor_id="{actor_id}", user_id="{user_id}"'
    if topic:
        heading = f"Summarize what Helixsite remembers about {user_id} concerning {topic}."
        gather = f"""1. `{t("search_memory")}({who}, query="{topic}", mode="deep")`
2. `{t("search_by_concept")}({who}, query="{topic}", concept_type="preference")`, then the same with
   concept_type "goal" and "decision": what {user_id} wants and has chosen about it.
3. If the results raise a "why": `{t("search_reasoning_chain")}({who}, query="<the question>", chain_mode="causal")`
4. Too much for your context? `{t("build_context")}({who}, query="{topic}", token_budget=1500)` gives
   the best memories within a budget, with their ids."""
    else:
        heading = f"Summarize everything Helixsite remembers about {user_id}."
        gather = f"""1. `{t("list_memories")}({who}, limit=100)`, then again with cursor=<next_cursor> until
   next_cursor is null: the current memories, newest first.
2. For each theme you find: `{t("search_memory")}({who}, query="<the theme>", mode="deep")` brings the
   related context and the graph around it."""
    return f"""{heading}

Gather first:
{gather}

Then write the summary:
- Group it by theme; give each statement with the id of the memory it rests on.
- Current truth only: a row with superseded=true was replaced; use its successor
  (superseded_by), and mention the change only if it matters.
- Rows with flashback=true lie outside a requested period: present them apart, with their event_date.
- collapsed lists ids folded under the row shown (the same story); they were not deleted.
- Say what is missing or uncertain rather than guessing.
- Do not store the summary with `{t("add_memory")}`: it is derived from memories stored already."""


def tool_selection_guide(*, actor_id: str) -> str:
    t = _tool
    return f"""# Using Helixsite memory

Helixsite keeps long-term memory for you and the people you work with. Pass
actor_id="{actor_id}" in every call: it must be the principal of your token. user_id says whose
memory it is: the person or the subject the memory is about.

## Which tool, by intent

- Starting a task, what do I know already? `{t("search_memory")}(query=<the task>, mode="recent")`
- What is true about the user today? `{t("search_memory")}(mode="contextual")`
- What happened during a period? `{t("search_memory")}(time_from="YYYY-MM-DD", time_to="YYYY-MM-DD")`
- What does the user prefer, want, know how to do?
  `{t("search_by_concept")}(concept_type="preference")` (or "goal", "skill", "decision")
- Why did we choose X? `{t("search_reasoning_chain")}(chain_mode="causal")`; what follows from X?
  chain_mode="forward"
- How are A and B related? `{t("connect_memories")}(query_a=A, query_b=B)`
- The best memories for a prompt, within a budget: `{t("build_context")}(query=..., token_budget=...)`
- One memory in full, with its edges and history: `{t("get_memory")}(memory_id=...)`
- The relationships around a memory: `{t("get_memory_graph")}(memory_id=...)`
- What others in my workspaces know about Z: `{t("search_memory")}(scope="collective")`
- Which topics are known, and recall within one: `{t("list_categories")}()`, then
  `{t("search_memory")}(query=..., category="work/infrastructure")`
- The user told you a fact, decided something, changed their mind: `{t("add_memory")}(message=...)`
- A stored memory is wrong and you have its id:
  `{t("update_memory")}(memory_id=..., new_content=..., reason=...)`
- The user asks you to forget something: `{t("forget_memory")}(memory_id=..., reason=...)`
- Audit or debugging only: `{t("list_memories")}`
- Reason through something complex: `{t("think_start")}` → `{t("think_add")}` ×N → `{t("think_recall")}` →
  `{t("think_conclude")}` → `{t("think_commit")}` or `{t("think_discard")}`
- Resume reasoning that was cut off: `{t("search_incomplete_thoughts")}` → `{t("think_start")}`
- A write answered status="accepted": `{t("get_add_status")}(pending_id=...)`, only if you need the
  outcome now
- A contradiction_review notice arrived:
  `{t("resolve_contradiction")}(from_id=..., to_id=..., resolution="confirm" | "retract" | "preference")`
- Several agents at work: `{t("agent_heartbeat")}` at the start and at milestones,
  `{t("swarm_status")}` to see the others, `{t("agent_farewell")}` at the end
- First connection of a new client: `{t("enroll_client")}`

## Session shape

1. Start: `{t("search_incomplete_thoughts")}(limit=3)` to resume cut-off reasoning, then
   `{t("search_memory")}(query=<the task>, mode="recent")`. Not enough? mode="deep",
   `{t("search_by_concept")}` for typed lookups, `{t("search_reasoning_chain")}` for "why".
2. Work: for a complex decision, think in FastThink. `{t("think_start")}`, then `{t("think_add")}` for
   each step (reasoning, hypothesis, observation, question), `{t("think_recall")}` to pull memories
   in, `{t("think_status")}` to check the budget, `{t("think_conclude")}` with the supporting steps,
   and `{t("think_commit")}` to keep the conclusion or `{t("think_discard")}` to drop it. Thoughts stay
   out of long-term memory until committed. For a plain observation, `{t("add_memory")}` directly.
3. End: `{t("add_memory")}` for each new decision or outcome not committed through FastThink.

## Reading results

Results are ranked, filtered to what you may see, expanded over the graph and folded. Read the
metadata before you present a row as current truth:
- superseded=true, superseded_by: replaced by a newer memory. Never act on it; follow the successor.
- flashback=true, event_date: linked context from outside the period you asked for. Present it
  apart and dated ("Related, from 2026-05-12: ..."), never as part of that period.
- collapsed=[ids]: members of the same story folded under this row. Nothing was deleted; fetch an
  id with `{t("get_memory")}` only when the exact wording matters.
- standing=true: a rule the user set for your work, or how they like things done ("always pin
  actions to a commit SHA", "no pie charts"). Follow it in what you produce for this request.
- holders=N (scope collective or all): N owners hold this fact. Speak of consensus only within
  what you can see.
- origin, edge, signals: why a row came up (vector, bm25, both, or reached over an edge). Keep the
  path when a conclusion depends on it.

Write results (`{t("add_memory")}`):
- ok=true is success: never retry it. memory_ids are new, updated were changed, deduped were
  known already.
- status="accepted" with pending_id: buffered, not failed.
- needs_clarification: the charter would not resolve a conflict silently. Each entry carries a
  ready question; ask the human, then write the answer.
- pending_outcomes: earlier notices for you. Surface ops_alert to the operator; settle
  contradiction_review with `{t("resolve_contradiction")}` rather than guessing.

The rules Helixsite applies to your writes are in the resource memory://rules.

## What not to do

- Do not store tool output, grep or log dumps, search results, file listings or transient state
  (what you are doing right now, this session's branch name). Store facts, preferences,
  decisions, outcomes and lessons.
- Do not copy search results back into memory: they are stored already.
- Do not use mode="full" by default. Use recent or contextual; full only with a reason.
- Do not use `{t("update_memory")}` to rephrase. Say the new thing with `{t("add_memory")}`: the decision
  engine updates, supersedes or keeps both.
- Do not skip FastThink for complex reasoning: it keeps half-formed thoughts out of memory.
- Do not put another principal's name in actor_id: a token acts only as itself.
"""
