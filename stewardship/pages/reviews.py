"""Contradiction reviews and rule proposals, settled from the page with the same services (and
so the same rules, history and notices) as the ``resolve_contradiction`` tool."""

from __future__ import annotations

import uuid

from django import forms
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from helixsite.errors import ApplicationError
from memory.charter.models import ContradictionReview, LearnedRule, Resolution, RuleProposal
from memory.charter.services import contradiction_resolve, rule_proposal_adopt
from stewardship.access import steward_only
from stewardship.paging import page_after, query_without_cursor
from stewardship.services import audit_record

PAGE_SIZE = 25
SHOWN = [("open", "open"), ("settled", "settled"), ("all", "all")]


class ReviewFilter(forms.Form):
    status = forms.ChoiceField(choices=SHOWN, required=False, label="show")

    def narrow(self, reviews: QuerySet[ContradictionReview]) -> QuerySet[ContradictionReview]:
        """Open reviews unless asked otherwise; a status that is not offered is shown as an error."""
        shown = self.cleaned_data["status"] if self.is_valid() else "open"
        return reviews if shown == "all" else reviews.filter(status=shown)


@steward_only
def reviews(request: HttpRequest) -> HttpResponse:
    """Reviews (open ones unless the filter asks for the settled ones or all; newest first, paged),
    open proposals and the rules in force; for htmx (the filter, "more") only the reviews."""
    chosen = request.GET.copy()
    chosen.setdefault("status", "open")
    form = ReviewFilter(chosen)
    found = form.narrow(
        ContradictionReview.objects.select_related(
            "from_memory", "to_memory", "workspace", "raised_by", "resolved_by", "settled_by_rule"
        )
    )
    page = page_after(found, cursor=request.GET.get("cursor"), size=PAGE_SIZE, field="created_at")
    listed = {"form": form, "page": page, "query": query_without_cursor(request), "resolutions": Resolution.choices}
    if request.htmx:
        return render(request, "stewardship/partials/review_rows.html", listed)
    context = {
        **listed,
        "proposals": RuleProposal.objects.filter(status=RuleProposal.Status.OPEN).select_related("workspace")[:100],
        "rules": LearnedRule.objects.active().select_related("workspace", "adopted_by")[:100],
    }
    return render(request, "stewardship/reviews.html", context)


@steward_only
@require_POST
def review_settle(request: HttpRequest, review_id: uuid.UUID) -> HttpResponse:
    review = get_object_or_404(ContradictionReview.objects.select_related("from_memory", "to_memory"), pk=review_id)
    before = {"status": review.status, "resolution": review.resolution}
    resolution = request.POST.get("resolution", "")
    try:
        with transaction.atomic():
            verdict = contradiction_resolve(
                actor=request.user, from_id=review.from_memory_id, to_id=review.to_memory_id, resolution=resolution
            )
            after = {
                "status": verdict["status"],
                "resolution": verdict["resolution"],
                "superseded": verdict["superseded"],
            }
            audit_record(actor=request.user, action="review.settle", target=review.subject, before=before, after=after)
    except ApplicationError as exc:
        return _answer(request, review, error=exc, status=exc.status)
    review.refresh_from_db()
    return _answer(request, review, verdict=verdict)


@steward_only
@require_POST
def proposal_adopt(request: HttpRequest, proposal_id: uuid.UUID) -> HttpResponse:
    proposal = get_object_or_404(RuleProposal, pk=proposal_id)
    try:
        with transaction.atomic():
            adopted = rule_proposal_adopt(actor=request.user, proposal=proposal)
            audit_record(
                actor=request.user,
                action="proposal.adopt",
                target=proposal.subject,
                before={"status": proposal.status},
                after={"status": RuleProposal.Status.ADOPTED, "rule": adopted["adopted_rule"]["text"]},
            )
    except ApplicationError as exc:
        context = {"proposal": proposal, "error": exc}
        return render(request, "stewardship/partials/proposal_row.html", context, status=exc.status)
    proposal.refresh_from_db()
    if not request.htmx:
        return redirect("steward:reviews")
    response = render(request, "stewardship/partials/proposal_row.html", {"proposal": proposal, "adopted": adopted})
    response["HX-Trigger"] = "rule-adopted"
    return response


def _answer(
    request: HttpRequest,
    review: ContradictionReview,
    *,
    verdict: dict | None = None,
    error: ApplicationError | None = None,
    status: int = 200,
) -> HttpResponse:
    if not request.htmx and error is None:
        return redirect("steward:reviews")
    context = {"review": review, "verdict": verdict, "error": error, "resolutions": Resolution.choices}
    response = render(request, "stewardship/partials/review_row.html", context, status=status)
    if verdict is not None:
        response["HX-Trigger"] = "review-settled"
    return response
