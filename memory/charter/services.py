"""Writes of the charter: contradiction reviews and their verdicts, rule proposals, learned rules.

A review is opened for every CONTRADICTS edge an agent-level add writes, and a
``contradiction_review`` notice goes to those who may settle it. A verdict retires it.
Enough identical verdicts on one kind of conflict in one write domain make a
``rule_proposal``; adopting it adds a learned rule that settles later conflicts of its kind.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from helixsite.errors import Conflict, Forbidden, InvalidInput, NotFound
from memory.charter.models import ContradictionReview, LearnedRule, Resolution, RuleProposal
from memory.charter.selectors import (
    RULE_METADATA_KEY,
    RULE_USER_ID,
    conflict_kind,
    learned_rule_as_dict,
    learned_rule_for,
    may_settle,
    proposal_recipients,
    review_recipients,
    shared_workspace_ids,
)
from memory.models import Edge, EdgeType, Memory
from memory.outbox.models import Notice, NoticeKind
from memory.revisions import edge_retype, memory_supersede
from memory.selectors import memory_get_for_actor
from rbac.actors import Actor, recorded_user
from rbac.models import Workspace
from rbac.policy import Action, is_global_admin, workspaces_for

RESOLUTIONS = {
    Resolution.CONFIRM: "the contradiction stands as recorded: both statements are kept, linked by CONTRADICTS",
    Resolution.RETRACT: "the newer statement replaces the older one: the older is superseded (history kept)",
    Resolution.PREFERENCE: "both hold, in different contexts: both are kept, the CONTRADICTS link becomes RELATES_TO",
}
_RULE_EFFECT = {
    Resolution.CONFIRM: "keep both statements as a recorded contradiction",
    Resolution.RETRACT: "the newer statement replaces the older one (the older is superseded, history kept)",
    Resolution.PREFERENCE: "keep both statements as context-dependent (linked by RELATES_TO)",
}


def contradiction_reviews_open(
    *, actor: Actor, workspace: Workspace, add_result: dict[str, Any]
) -> list[ContradictionReview]:
    """After an add: a review for each CONTRADICTS edge it wrote, settled at once when a learned rule covers it."""
    pairs = {
        (d["memory_id"], d["target_id"]): d.get("reason", "")
        for d in add_result.get("decisions", [])
        if d.get("op") == "CONTRADICT" and d.get("memory_id") in add_result.get("memory_ids", [])
    }
    if not pairs:
        return []
    linked = {
        (str(s), str(t))
        for s, t in Edge.objects.live()
        .filter(
            edge_type=EdgeType.CONTRADICTS, source_id__in=[n for n, _ in pairs], target_id__in=[o for _, o in pairs]
        )
        .values_list("source_id", "target_id")
    }
    memories = Memory.objects.defer("embedding").in_bulk([i for pair in linked for i in pair])
    return [
        _review_open(actor, workspace, memories[uuid.UUID(new)], memories[uuid.UUID(old)], reason)
        for (new, old), reason in pairs.items()
        if (new, old) in linked
    ]


def contradiction_resolve(*, actor: Actor, from_id: Any, to_id: Any, resolution: str) -> dict[str, Any]:
    """Settle the contradiction from_id (newer) → to_id (older) with confirm, retract or preference.

    Anyone who cannot read both memories gets not_found; reading without write access in
    their workspace is forbidden. Repeating the same verdict changes nothing.
    """
    resolution = _resolution(resolution)
    new, old = _pair_get_for_actor(actor, from_id, to_id)
    shared = shared_workspace_ids(memory_ids=[new.id, old.id])
    if not may_settle(actor=actor, workspace_ids=shared):
        raise Forbidden(
            "Only principals who may write in the workspace of both memories may settle their contradiction.",
            details={"action": "resolve_contradiction"},
        )
    with transaction.atomic():
        review = _review_for_pair(actor, new, old, shared)
        if review.status == ContradictionReview.Status.SETTLED:
            return _already_settled(review, resolution)
        superseded = _settle(review, resolution, actor=actor)
        proposal = _proposal_if_due(review)
    return {
        **_verdict(review),
        "already_settled": False,
        "superseded": superseded,
        "rule_proposal": _proposal_payload(proposal) if proposal else None,
    }


def rule_proposal_adopt(*, actor: Actor, proposal: RuleProposal) -> dict[str, Any]:
    """Turn a proposal into a learned rule, once; adopting it again answers with the same rule."""
    if not may_settle(actor=actor, workspace_ids=[proposal.workspace_id]):
        raise Forbidden("Adopting a rule takes write access in its workspace.", details={"action": "adopt_rule"})
    with transaction.atomic():
        proposal = RuleProposal.objects.select_for_update().select_related("workspace").get(pk=proposal.pk)
        existing = LearnedRule.objects.filter(proposal=proposal).select_related("workspace", "adopted_by").first()
        if existing:
            return {"adopted_rule": learned_rule_as_dict(existing), "already_adopted": True}
        clash = (
            LearnedRule.objects.active()
            .filter(rbac_scope=proposal.rbac_scope, conflict_kind=proposal.conflict_kind)
            .first()
        )
        if clash is not None:
            raise Conflict(
                "A learned rule for this kind of conflict is already in force in this write domain.",
                code="rule_exists",
                details={"rule_id": str(clash.id)},
            )
        rule = LearnedRule.objects.create(
            proposal=proposal,
            rbac_scope=proposal.rbac_scope,
            workspace=proposal.workspace,
            conflict_kind=proposal.conflict_kind,
            resolution=proposal.resolution,
            text=proposal.text,
            adopted_by=recorded_user(actor),
        )
        proposal.status = RuleProposal.Status.ADOPTED
        proposal.save(update_fields=["status"])
        Notice.objects.about(proposal.subject).filter(retired_at__isnull=True).update(retired_at=timezone.now())
    return {"adopted_rule": learned_rule_as_dict(rule), "already_adopted": False}


# --- reviews ---------------------------------------------------------------------------------


def _review_open(actor: Actor, workspace: Workspace, new: Memory, old: Memory, reason: str) -> ContradictionReview:
    with transaction.atomic():
        review, created = ContradictionReview.objects.get_or_create(
            from_memory=new,
            to_memory=old,
            defaults={
                "rbac_scope": new.rbac_scope,
                "workspace": workspace,
                "conflict_kind": conflict_kind(new),
                "reason": reason[:500],
                "raised_by": recorded_user(actor),
            },
        )
        if not created:
            return review
        rule = learned_rule_for(rbac_scope=review.rbac_scope, kind=review.conflict_kind)
        if rule is not None:
            _settle(review, rule.resolution, actor=actor, rule=rule)
        Notice.objects.address(
            kind=NoticeKind.CONTRADICTION_REVIEW,
            subject=review.subject,
            recipients=review_recipients(review=review, writer=actor),
            payload=_review_payload(review),
            resurfaces=review.status == ContradictionReview.Status.OPEN,
        )
    return review


def _review_for_pair(actor: Actor, new: Memory, old: Memory, shared: list[int]) -> ContradictionReview:
    """The pair's review, locked; opened here for a CONTRADICTS edge written outside the agent surface."""
    review = ContradictionReview.objects.select_for_update().filter(from_memory=new, to_memory=old).first()
    if review is not None:
        return review
    edge = Edge.objects.live().filter(source=new, target=old, edge_type=EdgeType.CONTRADICTS).first()
    if edge is None:
        reversed_pair = ContradictionReview.objects.filter(from_memory=old, to_memory=new).exists() or (
            Edge.objects.live().filter(source=old, target=new, edge_type=EdgeType.CONTRADICTS).exists()
        )
        if reversed_pair:
            raise InvalidInput(
                f"from_id must be the newer statement: call with from_id={old.id} and to_id={new.id}.",
                code="reversed_pair",
                field="from_id",
            )
        raise InvalidInput(
            "These memories are not in contradiction: nothing links from_id to to_id as contradicting.",
            code="no_contradiction",
            field="to_id",
        )
    workspace = _writable_workspace(actor, shared)
    ContradictionReview.objects.get_or_create(
        from_memory=new,
        to_memory=old,
        defaults={
            "rbac_scope": new.rbac_scope,
            "workspace": workspace,
            "conflict_kind": conflict_kind(new),
            "reason": edge.reason,
            "raised_by": edge.created_by,
        },
    )
    return ContradictionReview.objects.select_for_update().get(from_memory=new, to_memory=old)


def _settle(
    review: ContradictionReview, resolution: str, *, actor: Actor, rule: LearnedRule | None = None
) -> list[str]:
    superseded = _apply_verdict(review, resolution, actor=actor, rule=rule)
    now = timezone.now()
    review.status, review.resolution = ContradictionReview.Status.SETTLED, resolution
    review.resolved_at, review.settled_by_rule = now, rule
    review.resolved_by = recorded_user(actor) if rule is None else None
    review.save(update_fields=["status", "resolution", "resolved_at", "resolved_by", "settled_by_rule"])
    Notice.objects.about(review.subject).filter(retired_at__isnull=True).update(retired_at=now)
    return superseded


def _apply_verdict(
    review: ContradictionReview, resolution: str, *, actor: Actor, rule: LearnedRule | None
) -> list[str]:
    reason = f"resolve_contradiction: {resolution}" if rule is None else f"learned rule {rule.id}: {rule.text}"
    new, old = review.from_memory, review.to_memory
    if resolution == Resolution.RETRACT:
        details = {"review_id": str(review.id), "resolution": resolution}
        done = memory_supersede(actor=actor, memory=old, successor=new, reason=reason, details=details)
        return [str(old.id)] if done else []
    if resolution == Resolution.PREFERENCE:
        edge_retype(
            actor=actor,
            source=new,
            target=old,
            old_type=EdgeType.CONTRADICTS,
            new_type=EdgeType.RELATES_TO,
            reason=reason,
        )
    return []


def _already_settled(review: ContradictionReview, resolution: str) -> dict[str, Any]:
    if review.resolution != resolution:
        raise Conflict(
            f"This contradiction is already settled as {review.resolution}.",
            code="already_settled",
            field="resolution",
            details={"resolution": review.resolution},
        )
    return {**_verdict(review), "already_settled": True, "superseded": [], "rule_proposal": None}


def _verdict(review: ContradictionReview) -> dict[str, Any]:
    rule = review.settled_by_rule
    return {
        "ok": True,
        "review_id": str(review.id),
        "from_id": str(review.from_memory_id),
        "to_id": str(review.to_memory_id),
        "conflict_kind": review.conflict_kind,
        "status": str(review.status),
        "resolution": str(review.resolution),
        "resolved_at": review.resolved_at.isoformat() if review.resolved_at else None,
        "settled_by_rule": str(rule.id) if rule else None,
    }


def _review_payload(review: ContradictionReview) -> dict[str, Any]:
    new, old = review.from_memory, review.to_memory
    payload: dict[str, Any] = {
        "review_id": str(review.id),
        "status": str(review.status),
        "conflict_kind": review.conflict_kind,
        "reason": review.reason,
        "user_id": new.user_id,
        "group_id": review.workspace.slug,
        "from_id": str(new.id),
        "from_content": new.content,
        "to_id": str(old.id),
        "to_content": old.content,
    }
    rule = review.settled_by_rule
    if rule is not None:
        payload["resolution"] = review.resolution
        payload["settled_by_rule"] = {"rule_id": str(rule.id), "text": rule.text}
        payload["message"] = f"Settled automatically as {review.resolution} by a learned rule: {rule.text}"
        return payload
    payload["resolve_with"] = {
        "tool": "resolve_contradiction",
        "arguments": {"from_id": str(new.id), "to_id": str(old.id), "resolution": "confirm | retract | preference"},
        "resolutions": {str(k): v for k, v in RESOLUTIONS.items()},
    }
    payload["message"] = (
        f'"{new.content}" contradicts the stored "{old.content}". Ask the human which holds, then call '
        "resolve_contradiction with these ids; do not guess."
    )
    return payload


# --- rule proposals --------------------------------------------------------------------------


def _proposal_if_due(review: ContradictionReview) -> RuleProposal | None:
    """The proposal the latest verdict completes, if this one made it due; never twice for the same rule."""
    verdicts = ContradictionReview.objects.filter(
        rbac_scope=review.rbac_scope,
        conflict_kind=review.conflict_kind,
        resolution=review.resolution,
        status=ContradictionReview.Status.SETTLED,
        settled_by_rule__isnull=True,
    ).order_by("resolved_at", "id")
    if verdicts.count() < settings.HELIX_RULE_PROPOSAL_VERDICTS:
        return None
    if LearnedRule.objects.active().filter(rbac_scope=review.rbac_scope, conflict_kind=review.conflict_kind).exists():
        return None
    proposal_id = uuid.uuid4()
    text = (
        f'When a new statement contradicts a stored one on "{review.conflict_kind}" in workspace '
        f'"{review.workspace.slug}": {_RULE_EFFECT[Resolution(review.resolution)]}.'
    )
    proposal, created = RuleProposal.objects.get_or_create(
        rbac_scope=review.rbac_scope,
        conflict_kind=review.conflict_kind,
        resolution=review.resolution,
        defaults={
            "id": proposal_id,
            "workspace": review.workspace,
            "text": text,
            "user_id": RULE_USER_ID,
            "message": f"Adopt charter rule: {text}",
            "metadata": {RULE_METADATA_KEY: str(proposal_id)},
        },
    )
    if not created:
        return None
    proposal.reviews.set(verdicts)
    Notice.objects.address(
        kind=NoticeKind.RULE_PROPOSAL,
        subject=proposal.subject,
        recipients=proposal_recipients(proposal=proposal),
        payload=_proposal_payload(proposal),
    )
    return proposal


def _proposal_payload(proposal: RuleProposal) -> dict[str, Any]:
    review_ids = [str(pk) for pk in proposal.reviews.order_by("resolved_at", "id").values_list("id", flat=True)]
    return {
        "proposal_id": str(proposal.id),
        "conflict_kind": proposal.conflict_kind,
        "resolution": proposal.resolution,
        "group_id": proposal.workspace.slug,
        "verdicts": len(review_ids),
        "review_ids": review_ids,
        "rule": proposal.text,
        "adopt_with": {
            "tool": "add_memory",
            "arguments": {
                "user_id": proposal.user_id,
                "group_id": proposal.workspace.slug,
                "message": proposal.message,
                "metadata": proposal.metadata,
            },
        },
        "message": (
            f"{len(review_ids)} identical verdicts ({proposal.resolution}) on {proposal.conflict_kind} conflicts. "
            "Adopt the rule only with exactly this add_memory call, or ask the operator."
        ),
    }


# --- access and input ------------------------------------------------------------------------


def _resolution(value: Any) -> str:
    if value not in Resolution.values:
        raise InvalidInput("resolution must be one of confirm, retract, preference.", field="resolution")
    return str(value)


def _pair_get_for_actor(actor: Actor, from_id: Any, to_id: Any) -> tuple[Memory, Memory]:
    memories = []
    for field, value in (("from_id", from_id), ("to_id", to_id)):
        try:
            memories.append(memory_get_for_actor(actor=actor, memory_id=value))
        except NotFound:
            raise NotFound("Memory not found.", field=field) from None
    if memories[0].pk == memories[1].pk:
        raise InvalidInput("from_id and to_id are the same memory.", code="no_contradiction", field="to_id")
    return memories[0], memories[1]


def _writable_workspace(actor: Actor, shared: list[int]) -> Workspace:
    workspaces = Workspace.objects.filter(id__in=shared)
    if not is_global_admin(actor):
        workspaces = workspaces_for(actor, Action.WRITE).filter(id__in=shared)
    workspace = workspaces.order_by("id").first()
    assert workspace is not None  # the caller checked may_settle: the actor writes in one of them
    return workspace
