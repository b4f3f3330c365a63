"""Provider API keys, write-only: encrypted at rest with Fernet under a key that is never in the
database (``HELIX_CREDENTIALS_KEY``, else a key file in ``HELIX_DATA_DIR`` created 0600). A stored
key is decrypted only to hand it to the providers and to show its last four characters (as
providers' own consoles do, so a steward can tell which key is stored); nothing here returns more
of it to a caller."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from helixsite.data_dir import CREDENTIALS_KEY_FILE, write_secret
from helixsite.errors import InvalidInput
from helixsite.runtime.models import Credential

logger = logging.getLogger(__name__)

CREDENTIAL_NAMES = ("HELIX_LLM_API_KEY", "HELIX_EMBEDDING_API_KEY")
SECRET_MAX_CHARS = 1000


@dataclass(frozen=True)
class CredentialStatus:
    name: str
    is_set: bool
    changed_at: datetime | None
    actor_name: str | None
    from_environment: bool
    fingerprint: str | None = None  # the stored key's last four characters
    unused_because: str | None = None  # the setting that keeps any key of this name from being used


FINGERPRINT_CHARS = 4
# Which setting decides whether a key is used at all: (setting, the value that uses none).
_USED_WHEN = {"HELIX_LLM_API_KEY": ("HELIX_LLM", "none"), "HELIX_EMBEDDING_API_KEY": ("HELIX_EMBEDDINGS", "local")}


def _unused_because(name: str) -> str | None:
    setting, unused = _USED_WHEN[name]
    return f"{setting} is {unused}" if getattr(settings, setting) == unused else None


def _fingerprint(secret: str | None) -> str | None:
    """The last characters of a key long enough that they leave most of it unknown."""
    if not secret or len(secret) < 4 * FINGERPRINT_CHARS:
        return None
    return secret[-FINGERPRINT_CHARS:]


def _fernet() -> Fernet:
    explicit = settings.HELIX_CREDENTIALS_KEY
    if explicit:
        return Fernet(explicit.encode())
    path: Path = settings.HELIX_DATA_DIR / CREDENTIALS_KEY_FILE
    if not path.exists():
        with contextlib.suppress(FileExistsError):  # another process wrote it first
            write_secret(path, Fernet.generate_key().decode())
    return Fernet(path.read_text().strip().encode())


def _named(name: str) -> str:
    if name not in CREDENTIAL_NAMES:
        raise InvalidInput(f"{name} is not a credential the room keeps.", code="unknown_key", field="name")
    return name


def credential_set(*, actor: User, name: str, secret: str, from_environment: bool) -> Credential:
    """Store (or replace) ``name``'s key, encrypted. Refused when the environment sets it: that one wins."""
    _named(name)
    if from_environment:
        raise InvalidInput(
            f"{name} is set by the environment, which wins over a stored key; unset it there first.",
            code="set_by_environment",
            field="secret",
        )
    secret = secret.strip()
    if not secret or len(secret) > SECRET_MAX_CHARS or any(ch.isspace() for ch in secret):
        raise InvalidInput(
            f"The key must be one word of 1 to {SECRET_MAX_CHARS} characters.", code="invalid_value", field="secret"
        )
    ciphertext = _fernet().encrypt(secret.encode()).decode()
    return _store(actor=actor, name=name, ciphertext=ciphertext)


def credential_clear(*, actor: User, name: str) -> Credential:
    return _store(actor=actor, name=_named(name), ciphertext="")


def _store(*, actor: User, name: str, ciphertext: str) -> Credential:
    credential, _ = Credential.objects.update_or_create(
        name=name,
        defaults={
            "ciphertext": ciphertext,
            "changed_at": timezone.now(),
            "actor": actor,
            "actor_name": actor.get_username(),
        },
    )
    return credential


def credentials_status(*, environment: dict[str, bool]) -> list[CredentialStatus]:
    stored = {credential.name: credential for credential in Credential.objects.all()}
    clear = credentials_decrypted() if any(row.is_set for row in stored.values()) else {}
    statuses = []
    for name in CREDENTIAL_NAMES:
        row = stored.get(name)
        statuses.append(
            CredentialStatus(
                name=name,
                is_set=bool(row and row.is_set),
                changed_at=row.changed_at if row else None,
                actor_name=row.actor_name if row else None,
                from_environment=environment[name],
                fingerprint=_fingerprint(clear.get(name)) if row and row.is_set else None,
                unused_because=_unused_because(name),
            )
        )
    return statuses


def credentials_decrypted() -> dict[str, str]:
    """The stored keys in clear, for the providers (and the fingerprints). One that the current key cannot
    decrypt (the key file replaced) is left out and logged by name."""
    rows = [row for row in Credential.objects.all() if row.is_set]
    if not rows:
        return {}
    try:
        fernet, clear = _fernet(), {}
    except (OSError, ValueError):
        logger.warning("The credentials key cannot be read; stored provider keys are not used until it can.")
        return {}
    for row in rows:
        try:
            clear[row.name] = fernet.decrypt(row.ciphertext.encode()).decode()
        except InvalidToken:
            logger.warning(
                "The stored %s cannot be decrypted with the current credentials key; set it again.", row.name
            )
    return clear
