"""The backup vault: the list and "back up now", a backup's page (manifest, verify report,
download, verify, delete, restore) and the job page, which polls only while its job runs."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from helixsite.errors import ApplicationError
from helixsite.streaming import streamed
from stewardship import answers
from stewardship.access import steward_only
from stewardship.forms import form_refusal
from stewardship.paging import page_after
from stewardship.vault import archives, selectors, services
from stewardship.vault.models import Backup, VaultJob

PAGE_SIZE = 50
BACKUPS = "stewardship/backups.html"
BACKUP_ROWS = "stewardship/partials/backup_rows.html"
BACKUP_CREATE = "stewardship/partials/backup_create.html"
BACKUP = "stewardship/backup.html"
BACKUP_ACTIONS = "stewardship/partials/backup_actions.html"
JOB = "stewardship/vault_job.html"
JOB_STATUS = "stewardship/partials/vault_job_status.html"


class DeleteForm(forms.Form):
    confirm = forms.CharField(max_length=40, required=True)


class RestoreForm(forms.Form):
    phrase = forms.CharField(max_length=60, required=True, strip=False)


def _to_job(request: HttpRequest, job: VaultJob) -> HttpResponse:
    url = reverse("steward:backup-job", args=[job.id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@steward_only
@require_http_methods(["GET", "POST"])
def backups(request: HttpRequest) -> HttpResponse:
    """The catalogue, newest first (for htmx "more": only the rows), or a new backup (POST)."""
    if request.method == "POST":
        try:
            job = services.backup_request(actor=request.user)
        except ApplicationError as error:
            context = _list_context(request)
            return answers.refused(request, error, form="create", page=BACKUPS, fragment=BACKUP_CREATE, context=context)
        return _to_job(request, job)
    return answers.page_or_fragment(request, page=BACKUPS, fragment=BACKUP_ROWS, context=_list_context(request))


def _list_context(request: HttpRequest) -> dict[str, Any]:
    page = page_after(selectors.backups_listed(), cursor=request.GET.get("cursor"), size=PAGE_SIZE, field="created_at")
    return {"page": page, "running": selectors.running_job(), "check": selectors.backup_check(), "errors": {}}


def backup_context(backup: Backup, **extra: Any) -> dict[str, Any]:
    counts = backup.manifest.get("row_counts", {})
    return {
        "backup": backup,
        "row_counts": sorted(counts.items()),
        "total_rows": sum(counts.values()),
        "migration_count": len(backup.manifest.get("migrations", [])),
        "jobs": selectors.jobs_of(backup=backup),
        "running": selectors.running_job(),
        "restore_offered": selectors.restore_offered(),
        "since": selectors.restore_since(backup=backup),
        "errors": {},
        "sent": {},
        **extra,
    }


@steward_only
@require_GET
def backup(request: HttpRequest, backup_id: str) -> HttpResponse:
    found = selectors.backup_get(backup_id=backup_id)
    return render(request, BACKUP, backup_context(found))


@steward_only
@require_GET
def backup_download(request: HttpRequest, backup_id: str) -> FileResponse:
    """The archive, streamed from disk in chunks."""
    found = selectors.backup_get(backup_id=backup_id)
    path = archives.archive_path(found.id)
    if not found.ready or not path.is_file():
        raise Http404
    # Sent with Cache-Control: no-store, as every answer of the room (stewardship.middleware).
    return streamed(request, FileResponse(path.open("rb"), as_attachment=True, filename=f"helixsite-{found.id}.dump"))


@steward_only
@require_POST
def backup_verify(request: HttpRequest, backup_id: str) -> HttpResponse:
    found = selectors.backup_get(backup_id=backup_id)
    try:
        job = services.verify_request(actor=request.user, backup=found)
    except ApplicationError as error:
        return _refused(request, error, found, form="verify")
    return _to_job(request, job)


@steward_only
@require_POST
def backup_delete(request: HttpRequest, backup_id: str) -> HttpResponse:
    found = selectors.backup_get(backup_id=backup_id)
    form = DeleteForm(request.POST)
    try:
        if not form.is_valid():
            raise form_refusal(form)
        services.backup_delete(actor=request.user, backup=found, confirm=form.cleaned_data["confirm"])
    except ApplicationError as error:
        return _refused(request, error, found, form="delete", sent=form.data)
    then = reverse("steward:backups")
    return HttpResponseClientRedirect(then) if request.htmx else redirect(then)


@steward_only
@require_POST
def backup_restore(request: HttpRequest, backup_id: str) -> HttpResponse:
    found = selectors.backup_get(backup_id=backup_id)
    form = RestoreForm(request.POST)
    try:
        if not form.is_valid():
            raise form_refusal(form)
        job = services.restore_request(actor=request.user, backup=found, phrase=form.cleaned_data["phrase"])
    except ApplicationError as error:
        return _refused(request, error, found, form="restore", sent=form.data)
    return _to_job(request, job)


def _refused(
    request: HttpRequest, error: ApplicationError, found: Backup, *, form: str, sent: Any = None
) -> HttpResponse:
    context = backup_context(found, sent={form: sent or {}})
    return answers.refused(request, error, form=form, page=BACKUP, fragment=BACKUP_ACTIONS, context=context)


@steward_only
@require_GET
def backup_job(request: HttpRequest, job_id: uuid.UUID) -> HttpResponse:
    """The job's page; for htmx (its poll) the status part, which polls again only while the job runs."""
    job = selectors.job_get(job_id=job_id)
    backup_row = Backup.objects.filter(pk=job.backup_id).first()
    return answers.page_or_fragment(request, page=JOB, fragment=JOB_STATUS, context={"job": job, "backup": backup_row})
