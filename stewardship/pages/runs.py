"""The ingest run log (every add_memory call: stages, timings, debug output) and the inference
ledger (every remote provider call), filtered and paged without loading either table."""

from __future__ import annotations

import uuid

from django import forms
from django.db.models import QuerySet
from django.db.models.functions import Left
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from memory.models import Inference, IngestRun
from stewardship.access import steward_only
from stewardship.paging import page_after, query_without_cursor
from stewardship.run_atoms import run_atom_outcomes, run_memories

PAGE_SIZE = 50
OPENING_CHARS = 160  # of a run's message, for its first words in the list


class RunFilter(forms.Form):
    status = forms.ChoiceField(choices=[("", "any"), *IngestRun.Status.choices], required=False)
    principal = forms.CharField(max_length=150, required=False, help_text="who called add_memory")
    workspace = forms.SlugField(max_length=60, required=False)
    since = forms.DateTimeField(required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    until = forms.DateTimeField(required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def narrow(self, runs: QuerySet[IngestRun]) -> QuerySet[IngestRun]:
        """Apply every valid filter; an invalid one is shown with its error and left out."""
        self.is_valid()
        value = self.cleaned_data
        if value.get("status"):
            runs = runs.filter(status=value["status"])
        if value.get("principal"):
            runs = runs.filter(actor__username=value["principal"])
        if value.get("workspace"):
            runs = runs.filter(workspace__slug=value["workspace"])
        if value.get("since"):
            runs = runs.filter(started_at__gte=value["since"])
        if value.get("until"):
            runs = runs.filter(started_at__lt=value["until"])
        return runs


class LedgerFilter(forms.Form):
    kind = forms.ChoiceField(choices=[("", "any"), *Inference.Kind.choices], required=False)
    outcome = forms.ChoiceField(choices=[("", "any"), ("ok", "ok"), ("failed", "failed")], required=False)
    run = forms.UUIDField(required=False, label="run id")

    def narrow(self, calls: QuerySet[Inference]) -> QuerySet[Inference]:
        self.is_valid()
        value = self.cleaned_data
        if value.get("kind"):
            calls = calls.filter(kind=value["kind"])
        if value.get("outcome"):
            calls = calls.filter(ok=value["outcome"] == "ok")
        if value.get("run"):
            calls = calls.filter(run_id=value["run"])
        return calls


@steward_only
def runs(request: HttpRequest) -> HttpResponse:
    """The run log, newest first, each run with its message's first words and what each of its
    statements became; for htmx (filters, "more") only the rows."""
    form = RunFilter(request.GET)
    listed = IngestRun.objects.select_related("actor", "workspace").defer("message", "result")
    found = form.narrow(listed.annotate(opening=Left("message", OPENING_CHARS)))
    page = page_after(found, cursor=request.GET.get("cursor"), size=PAGE_SIZE, field="started_at")
    outcomes = run_atom_outcomes(run_ids=[run.id for run in page.rows])
    template = "stewardship/partials/run_rows.html" if request.htmx else "stewardship/runs.html"
    context = {"form": form, "page": page, "outcomes": outcomes, "query": query_without_cursor(request)}
    return render(request, template, context)


@steward_only
def run_detail(request: HttpRequest, run_id: uuid.UUID) -> HttpResponse:
    """A run: its message, what each statement became and the memory holding it (or gone, when
    erased since), its stages with their debug output, and its provider calls."""
    run = get_object_or_404(IngestRun.objects.select_related("actor", "workspace"), pk=run_id)
    atoms = run_atom_outcomes(run_ids=[run.id]).get(run.id, [])
    context = {
        "run": run,
        "atoms": atoms,
        "memories": run_memories(outcomes=atoms, result=run.result),
        "stages": run.stages.all(),
        "calls": Inference.objects.filter(run_id=run.id),
    }
    return render(request, "stewardship/run.html", context)


@steward_only
def ledger(request: HttpRequest) -> HttpResponse:
    """Every remote provider call, newest first; for htmx only the rows."""
    form = LedgerFilter(request.GET)
    page = page_after(form.narrow(Inference.objects.all()), cursor=request.GET.get("cursor"), size=PAGE_SIZE)
    template = "stewardship/partials/ledger_rows.html" if request.htmx else "stewardship/ledger.html"
    return render(request, template, {"form": form, "page": page, "query": query_without_cursor(request)})
