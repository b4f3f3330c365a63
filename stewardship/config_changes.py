"""Configuration changes made in the room: a patch or a restored version applied, a provider key
set or cleared. Each calls the runtime layer and writes its audit line in the same transaction.
A key's value never reaches the trail: its line says only "set" or "cleared"."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction

from helixsite.runtime import services as runtime
from helixsite.runtime.models import ConfigVersion, Credential
from helixsite.runtime.services import Proposal
from stewardship.services import audit_record


def _write(*, actor: User, proposal: Proposal, base_version: int, restored_from: int | None = None) -> ConfigVersion:
    version = runtime.config_version_write(
        actor=actor, proposal=proposal, base_version=base_version, restored_from=restored_from
    )
    audit_record(
        actor=actor,
        action="config.restore" if restored_from else "config.patch",
        target=f"config:version {version.number}" + (f" (restores {restored_from})" if restored_from else ""),
        before={change["key"]: change["before"] for change in proposal.diff},
        after={change["key"]: change["after"] for change in proposal.diff},
    )
    return version


def config_apply(*, actor: User, submitted: Mapping[str, str], base_version: int) -> ConfigVersion:
    with transaction.atomic():
        proposal = runtime.config_propose(submitted=submitted)
        return _write(actor=actor, proposal=proposal, base_version=base_version)


def config_restore(*, actor: User, number: int, base_version: int) -> ConfigVersion:
    with transaction.atomic():
        proposal = runtime.config_propose_restore(number=number)
        return _write(actor=actor, proposal=proposal, base_version=base_version, restored_from=number)


def credential_set(*, actor: User, name: str, secret: str) -> Credential:
    with transaction.atomic():
        row = runtime.credential_set(actor=actor, name=name, secret=secret)
        audit_record(actor=actor, action="credential.set", target=f"credential:{name}", after={name: "set"})
    return row


def credential_clear(*, actor: User, name: str) -> Credential:
    with transaction.atomic():
        row = runtime.credential_clear(actor=actor, name=name)
        audit_record(actor=actor, action="credential.clear", target=f"credential:{name}", after={name: "cleared"})
    return row
