"""What outlives a restore: every erasure made since the backup is made again before the restored
database serves, the audit trail keeps every line written since (the erasure's, the restore's
own), a backup's verification is kept in its manifest, and the restore form says beforehand
what a restore to a backup undoes and what it makes again."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from memory.models import Erasure, Memory
from rbac.models import Role
from stewardship import erasure
from stewardship.models import AuditEntry
from stewardship.services import audit_record
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.services import backup_now, restore_request, verify_request
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def api(ada):
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def _add(api, owner: str, message: str) -> list[str]:
    answer = api.post("/api/v1/add_memory", {"actor_id": "writer", "user_id": owner, "message": message}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["memory_ids"]


def _search(api, owner: str, query: str) -> list[str]:
    body = {"actor_id": "writer", "user_id": owner, "query": query}
    answer = api.post("/api/v1/search_memory", body, format="json")
    assert answer.status_code == 200, answer.content
    return [result["content"] for result in answer.json()["results"]]


def _restore(ada, backup: Backup) -> VaultJob:
    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")
    job = VaultJob.objects.get(pk=job.pk)
    assert (job.status, job.error) == ("succeeded", ""), job.error
    return job


def test_an_owner_erased_after_the_backup_is_erased_again_by_the_restore(ada, api):
    _add(api, "bob", "Bob keeps bees behind the old mill.")
    _add(api, "carol", "Carol rows on the river every Sunday.")
    backup = backup_now(actor=ada.user)
    erasure.owner_erase(actor=ada.user, user_id="bob", workspace=None, confirm="bob")
    assert _search(api, "bob", "bees mill") == []

    job = _restore(ada, backup)

    assert not Memory.objects.filter(user_id="bob").exists(), "the restore erased bob again"
    assert _search(api, "bob", "bees mill") == []
    assert _search(api, "carol", "river rowing") == ["Carol rows on the river every Sunday."]
    (again,) = job.result["erasures_reapplied"]
    assert (again["user_id"], again["workspace"]) == ("bob", "")
    assert again["rows_erased_again"] > 0
    ledger = Erasure.objects.get(user_id="bob")
    assert ledger.requested_by == "ada"
    assert [(a["because"], a["passed"]) for a in ledger.reapplied] == [(f"restore of backup {backup.id}", True)]
    actions = list(AuditEntry.objects.order_by("id").values_list("action", "target"))
    assert ("owner.erase", "owner:bob") in actions, "the erasure's line survived the restore"
    assert ("owner.erase.reapply", "owner:bob") in actions
    restored = AuditEntry.objects.get(action="backup.restored")
    assert restored.after["erasures_reapplied"] == job.result["erasures_reapplied"]


def test_an_erasure_in_the_backup_already_is_not_made_again(ada, api):
    _add(api, "bob", "Bob keeps bees behind the old mill.")
    erasure.owner_erase(actor=ada.user, user_id="bob", workspace=None, confirm="bob")
    backup = backup_now(actor=ada.user)
    _add(api, "bob", "Bob now keeps goats.")  # written after the backup: the restore undoes it

    job = _restore(ada, backup)

    assert job.result["erasures_reapplied"] == []
    assert not Memory.objects.filter(user_id="bob").exists()
    assert Erasure.objects.get(user_id="bob").reapplied == []


def test_the_audit_trail_keeps_every_line_written_after_the_backup(ada, api):
    audit_record(actor=ada.user, action="token.issue", target="principal:before", after={})
    backup = backup_now(actor=ada.user)
    late = audit_record(actor=ada.user, action="config.apply", target="config:7", after={"version": 7})
    newcomer = make_agent_with_token("newcomer")[0]
    by_newcomer = audit_record(actor=newcomer.user, action="token.issue", target="principal:newcomer", after={})
    lines_before = list(AuditEntry.objects.order_by("id").values_list("id", "action", "target"))

    _restore(ada, backup)

    lines = list(AuditEntry.objects.order_by("id").values_list("id", "action", "target"))
    assert lines[: len(lines_before)] == lines_before, "no line is lost, none renumbered"
    assert [action for _, action, _ in lines[len(lines_before) :]] == ["backup.restore", "backup.restored"]
    assert AuditEntry.objects.get(pk=late.pk).actor_id == ada.user.pk
    kept = AuditEntry.objects.get(pk=by_newcomer.pk)
    assert (kept.actor_id, kept.actor_name) == (None, "newcomer"), "the newcomer is gone; their name stays"
    audit_record(actor=ada.user, action="token.issue", target="principal:after", after={})  # ids go on


def test_a_backup_verified_before_a_restore_is_still_verified_after_it(ada, api):
    backup = backup_now(actor=ada.user)
    verify_request(actor=ada.user, backup=backup)
    assert Backup.objects.get(pk=backup.id).verify_ok is True

    _restore(ada, backup)

    restored = Backup.objects.get(pk=backup.id)
    assert restored.verify_ok is True and restored.verified_at is not None
    assert restored.verify_report["test_restore"]["ok"]


def test_the_restore_form_says_what_a_restore_undoes_and_what_it_makes_again(ada, api):
    backup = backup_now(actor=ada.user)
    _add(api, "carol", "Carol rows on the river every Sunday.")
    _add(api, "bob", "Bob keeps bees behind the old mill.")
    erasure.owner_erase(actor=ada.user, user_id="bob", workspace=None, confirm="bob")
    room = Client()
    room.force_login(ada.user)

    page = room.get(f"/steward/backups/{backup.id}/").content.decode()

    since = page[page.index('id="restore-since"') :]
    assert "1 memory written" in since
    assert "erases again" in since and "bob" in since


def test_the_ledger_is_honoured_from_a_file_after_a_restore_made_by_hand(ada, api, tmp_path):
    _add(api, "bob", "Bob keeps bees behind the old mill.")
    erasure.owner_erase(actor=ada.user, user_id="bob", workspace=None, confirm="bob")
    exported = tmp_path / "ledger.json"
    call_command("erasure_ledger", export=str(exported), stdout=StringIO())
    Erasure.objects.all().delete()  # as a restore by hand from an older archive would
    _add(api, "bob", "Bob keeps bees behind the old mill.")

    out = StringIO()
    call_command("erasure_ledger", reapply=str(exported), stdout=out)

    assert "1 made again here" in out.getvalue()
    assert not Memory.objects.filter(user_id="bob").exists()
    call_command("erasure_ledger", reapply=str(exported), stdout=(twice := StringIO()))
    assert "0 made again here" in twice.getvalue(), "honouring a ledger twice changes nothing"


def test_a_ledger_file_that_is_not_one_is_refused_before_anything_is_erased(ada, api, tmp_path):
    _add(api, "bob", "Bob keeps bees behind the old mill.")
    bad = tmp_path / "ledger.json"
    good = {"id": "4a3c6a57-2f37-4a8e-9a55-6c1b1f0e0a11", "erased_at": "2026-01-01T00:00:00Z", "user_id": "bob"}
    bad.write_text(json.dumps([good, {**good, "id": "not-a-uuid"}]))

    with pytest.raises(CommandError, match=r"ledger\[1\]\.id"):
        call_command("erasure_ledger", reapply=str(bad), stdout=StringIO())

    assert Memory.objects.filter(user_id="bob").exists()
