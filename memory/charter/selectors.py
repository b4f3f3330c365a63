"""Reads of the charter: the rules text (memory://rules), who may settle a dispute, which call adopts a rule."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from memory.charter.models import ContradictionReview, LearnedRule, RuleProposal
from memory.models import Memory
from rbac.actors import Actor, recorded_user
from rbac.models import Membership, Role, Workspace
from rbac.policy import Action, WriteDomain, is_active, is_global_admin, readable_workspace_ids, workspaces_for

RULE_USER_ID = "charter"  # the user_id of a proposed rule call: a rule is about the write domain, not a person
RULE_METADATA_KEY = "charter_rule_proposal"


def conflict_kind(memory: Memory) -> str:
    """What a contradiction is about, from what the extractor read: ``fact:residence``, ``preference:negation``."""
    attribute = memory.facets.get("attribute")
    if attribute and len(attribute) > 1:
        return f"{memory.memory_type}:{attribute[1]}"[:120]
    return f"{memory.memory_type}:{'negation' if memory.facets.get('negated') else 'statement'}"


def shared_workspace_ids(*, memory_ids: list[Any]) -> list[int]:
    """Workspaces in which every one of the memories is visible."""
    sets = [set(ws) for ws in Memory.objects.filter(pk__in=set(memory_ids)).values_list("visible_in", flat=True)]
    if len(sets) != len(set(memory_ids)):
        return []
    return sorted(set.intersection(*sets)) if sets else []


def may_settle(*, actor: Actor, workspace_ids: list[int]) -> bool:
    """Settling a dispute changes what is current, as an add in its workspace would: it takes write access there."""
    if not is_active(actor) or not workspace_ids:
        return False
    if is_global_admin(actor):
        return True
    return workspaces_for(actor, Action.WRITE).filter(id__in=workspace_ids).exists()


def review_recipients(*, review: ContradictionReview, writer: Actor) -> list[Any]:
    """The writer, the owner's own principal and the workspace's moderators, if they may settle it."""
    candidates = _moderators(review.workspace) + _owner(review.from_memory.user_id)
    writer_user = recorded_user(writer)
    if writer_user is not None:
        candidates.insert(0, writer_user)
    shared = shared_workspace_ids(memory_ids=[review.from_memory_id, review.to_memory_id])
    return _unique(u for u in candidates if may_settle(actor=u, workspace_ids=shared))


def proposal_recipients(*, proposal: RuleProposal) -> list[Any]:
    """Who gave the verdicts and the workspace's moderators, if they may still write there (and so adopt it)."""
    deciders = list(
        get_user_model()
        .objects.filter(pk__in=proposal.reviews.exclude(resolved_by=None).values("resolved_by"))
        .order_by("username")
    )
    candidates = deciders + _moderators(proposal.workspace)
    return _unique(u for u in candidates if may_settle(actor=u, workspace_ids=[proposal.workspace_id]))


def rule_proposal_matching(*, user_id: str, domain: WriteDomain, message: str, metadata: dict) -> RuleProposal | None:
    """The proposal whose exact add_memory call this is: same user_id, workspace, message and metadata."""
    proposal_id = metadata.get(RULE_METADATA_KEY) if isinstance(metadata, dict) else None
    if user_id != RULE_USER_ID or not isinstance(proposal_id, str) or not _is_uuid(proposal_id):
        return None
    proposal = RuleProposal.objects.filter(pk=proposal_id, workspace=domain.workspace).first()
    if proposal is None or proposal.message != message or proposal.metadata != metadata:
        return None
    return proposal


def learned_rule_for(*, rbac_scope: str, kind: str) -> LearnedRule | None:
    if not settings.HELIX_LEARNED_RULES_AUTO_SETTLE:
        return None
    return LearnedRule.objects.active().filter(rbac_scope=rbac_scope, conflict_kind=kind).first()


def learned_rules_for(*, actor: Actor) -> list[LearnedRule]:
    """Active rules of the workspaces ``actor`` can read: a rule names its workspace and kind of conflict."""
    rules = LearnedRule.objects.active().select_related("workspace", "adopted_by", "proposal")
    if not is_global_admin(actor):
        rules = rules.filter(workspace_id__in=readable_workspace_ids(actor))
    return list(rules.order_by("adopted_at", "id"))


def charter_rules(*, actor: Actor) -> dict[str, Any]:
    """``memory://rules``: the charter as the code enforces it, plus the learned rules ``actor`` may see."""
    rules = _charter()
    learned = [learned_rule_as_dict(rule) for rule in learned_rules_for(actor=actor)]
    return {
        "ok": True,
        "uri": "memory://rules",
        "mime_type": "text/markdown",
        "text": _markdown(rules, learned),
        "rules": rules,
        "learned_rules": learned,
    }


def learned_rule_as_dict(rule: LearnedRule) -> dict[str, Any]:
    return {
        "rule_id": str(rule.id),
        "text": rule.text,
        "conflict_kind": rule.conflict_kind,
        "resolution": rule.resolution,
        "group_id": rule.workspace.slug,
        "adopted_by": rule.adopted_by.get_username() if rule.adopted_by else None,
        "adopted_at": rule.adopted_at.isoformat(),
        "proposal_id": str(rule.proposal_id),
    }


def _charter() -> list[dict[str, str]]:
    floor = settings.HELIX_REWRITE_MIN_CONFIDENCE
    verdicts = settings.HELIX_RULE_PROPOSAL_VERDICTS
    return [
        {
            "id": "C1",
            "title": "Nothing is destroyed silently",
            "text": (
                "A memory is never deleted by a write. A DELETE proposed by the decision step runs as SUPERSEDE: "
                "the new statement is stored, the old one gets `valid_to`, a SUPERSEDES edge from its successor and "
                "a history row (actor, reason, old text), and stays reachable, marked `superseded`. Corrections "
                "through update_memory keep the old text in history; resolve_contradiction(retract) supersedes the "
                "older statement the same way. forget_memory is a soft delete by the author, a moderator or an "
                "admin: the memory leaves every read, its row and history stay, and a global admin can restore it."
            ),
        },
        {
            "id": "C2",
            "title": "Immutable memories and raw inputs are never rewritten",
            "text": (
                "A memory flagged immutable, or stored with source `raw_input` (messages added with extract=false "
                "and the raw sources of long messages), never has its content replaced: an UPDATE aimed at one is "
                "stored as a new memory linked by RELATES_TO, and update_memory refuses it with `immutable`."
            ),
        },
        {
            "id": "C3",
            "title": "Preferences, goals and opinions are never merged automatically",
            "text": (
                "A preference, goal or opinion is never folded into another memory (UPDATE) nor dropped as a "
                "near-duplicate or paraphrase of one (NOOP, LINK_EXISTING): it is stored on its own and linked by "
                "RELATES_TO. Only the exact same statement in the same write domain counts as already known. A "
                'stated change ("I now prefer coffee") may supersede the earlier one, which keeps it (C1).'
            ),
        },
        {
            "id": "C4",
            "title": "Unsure rewrites wait for a person",
            "text": (
                f"An UPDATE or SUPERSEDE decided with confidence below {floor:.2f} is not applied: both statements "
                "are kept, linked by RELATES_TO, and the add_memory response carries `needs_clarification` with a "
                'ready question ("Does ... replace ...?") for the agent to ask the human.'
            ),
        },
        {
            "id": "C5",
            "title": "Contradictions are settled by a verdict, not by guessing",
            "text": (
                "A CONTRADICT keeps both statements and links them by CONTRADICTS; an agent's add_memory also sends "
                "a `contradiction_review` notice to those who may settle it. resolve_contradiction settles it: "
                "`retract` supersedes the older statement (C1), `confirm` keeps the contradiction as recorded, "
                "`preference` keeps both as "
                f"context-dependent (the CONTRADICTS edge becomes RELATES_TO). {verdicts} identical verdicts on the "
                "same kind of conflict in one write domain produce a `rule_proposal`; adopting it with the exact "
                "proposed add_memory call adds a learned rule below, which settles later conflicts of its kind in "
                "that domain the same way."
            ),
        },
    ]


def _markdown(rules: list[dict[str, str]], learned: list[dict[str, Any]]) -> str:
    lines = ["# Memory charter", ""]
    lines += [f"**{r['id']}. {r['title']}.** {r['text']}\n" for r in rules]
    lines += ["## Learned rules", ""]
    if not learned:
        lines.append("None adopted.")
    for rule in learned:
        lines.append(
            f"- {rule['text']} (`{rule['conflict_kind']}` → `{rule['resolution']}`, workspace `{rule['group_id']}`; "
            f"adopted by {rule['adopted_by'] or 'a removed principal'} on {rule['adopted_at'][:10]})"
        )
    return "\n".join(lines) + "\n"


def _moderators(workspace: Workspace) -> list[Any]:
    memberships = Membership.objects.filter(workspace=workspace, role=Role.MODERATOR).select_related("user")
    return [m.user for m in memberships.order_by("user__username")]


def _owner(user_id: str) -> list[Any]:
    return list(get_user_model().objects.filter(username=user_id)[:1])


def _unique(users: Any) -> list[Any]:
    seen: dict[Any, Any] = {}
    for user in users:
        seen.setdefault(user.pk, user)
    return list(seen.values())


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
