"""The archive format: a directory (or a gzipped tar of one) holding ``manifest.json`` and one
``<kind>.jsonl`` file per kind of row, one JSON object a line, every file listed in the
manifest with its row count and sha256."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import tarfile
import tempfile
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from django.conf import settings

from helixsite.errors import InvalidInput

FORMAT = "helixsite-memories"
FORMAT_VERSION = 2
MANIFEST = "manifest.json"
TAR_SUFFIX = ".tar.gz"
# In the order an import writes them: a row only names rows of kinds before it.
MEMORY_KINDS = ("memories", "entities", "mentions", "concepts", "filings", "history", "access", "edges")
DOCUMENT_KINDS = ("documents", "document_history", "chunks", "extracted_from")
KINDS = MEMORY_KINDS + DOCUMENT_KINDS
# The kinds each format version holds: version 1 was written before documents were archived.
KINDS_OF_VERSION = {1: MEMORY_KINDS, 2: KINDS}
# A document, and each version it replaced, carries its whole text: they are read and written a
# few at a time, about this many bytes of text at once.
_TEXT_KINDS = ("documents", "document_history")
_TEXT_BUDGET = 64 << 20
_CHUNK = 1 << 20


class ArchiveError(InvalidInput):
    code = "bad_archive"


def file_name(kind: str) -> str:
    return f"{kind}.jsonl"


@dataclass(frozen=True)
class FileEntry:
    name: str
    rows: int
    sha256: str


@dataclass
class Manifest:
    created_at: str
    embedding: dict[str, Any]  # provider, model, dimension of every vector (memories, entities, chunks)
    selection: dict[str, Any]  # workspaces, owner, all
    workspaces: list[str]  # every workspace slug a row names
    authors: list[str]  # every author's username
    files: dict[str, FileEntry] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        files = {kind: asdict(entry) for kind, entry in self.files.items()}
        return {"format": FORMAT, "format_version": FORMAT_VERSION, **asdict(self), "files": files}

    @property
    def total_rows(self) -> int:
        return sum(entry.rows for entry in self.files.values())


class JsonlWriter:
    """Writes rows to one file of the archive, counting them and hashing the bytes written."""

    def __init__(self, folder: Path, kind: str) -> None:
        self.name = file_name(kind)
        self._file: BinaryIO = (folder / self.name).open("wb")
        self._digest = hashlib.sha256()
        self.rows = 0

    def write(self, row: dict[str, Any]) -> None:
        line = json.dumps(row, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        self._file.write(line)
        self._digest.update(line)
        self.rows += 1

    def close(self) -> FileEntry:
        self._file.close()
        return FileEntry(name=self.name, rows=self.rows, sha256=self._digest.hexdigest())


def manifest_write(folder: Path, manifest: Manifest) -> None:
    (folder / MANIFEST).write_text(json.dumps(manifest.as_json(), indent=2, ensure_ascii=False) + "\n")


def manifest_read(folder: Path) -> Manifest:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ArchiveError(f"No {MANIFEST} in the archive: it is not an export of memories.") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArchiveError(f"{MANIFEST} is not valid JSON ({exc}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(f"{MANIFEST} does not describe an export of memories (format {FORMAT!r}).")
    version = data.get("format_version")
    if type(version) is not int or version not in KINDS_OF_VERSION:
        readable = ", ".join(str(v) for v in KINDS_OF_VERSION)
        raise ArchiveError(
            f"The archive is in format version {version!r}; this installation reads versions {readable}."
        )
    try:
        return _manifest(data, KINDS_OF_VERSION[version])
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiveError(f"{MANIFEST} is incomplete or malformed ({exc!r}).") from None


def _manifest(data: dict[str, Any], kinds: tuple[str, ...]) -> Manifest:
    """``files`` lists the kinds its version holds, in the order an import writes them."""
    files = {kind: FileEntry(**data["files"][kind]) for kind in kinds}
    if any(not isinstance(f.rows, int) or f.name != file_name(kind) for kind, f in files.items()):
        raise ValueError("files")
    embedding = data["embedding"]
    if not isinstance(embedding["dimension"], int):
        raise ValueError("embedding.dimension")
    return Manifest(
        created_at=str(data["created_at"]),
        embedding={
            "provider": str(embedding["provider"]),
            "model": str(embedding["model"]),
            "dimension": embedding["dimension"],
        },
        selection=dict(data["selection"]),
        workspaces=[str(slug) for slug in data["workspaces"]],
        authors=[str(name) for name in data["authors"]],
        files=files,
    )


def file_check(folder: Path, entry: FileEntry) -> None:
    """Refuse a file whose bytes or row count differ from what the manifest says."""
    path = folder / entry.name
    if not path.is_file():
        raise ArchiveError(f"{entry.name} is missing from the archive.")
    digest, rows = hashlib.sha256(), 0
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
            rows += chunk.count(b"\n")
    if digest.hexdigest() != entry.sha256 or rows != entry.rows:
        raise ArchiveError(
            f"{entry.name} is corrupt or truncated: it holds {rows} rows with sha256 {digest.hexdigest()[:16]}…, "
            f"the manifest says {entry.rows} rows with sha256 {entry.sha256[:16]}…. Nothing was imported.",
            code="archive_corrupt",
        )


def value_portable(value: Any) -> Any:
    """A column's value as the archive holds it: moments in ISO 8601 with their offset, ids as
    text, vectors as lists of floats, bytes as base64."""
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def moment_read(text: Any) -> datetime:
    if not isinstance(text, str):
        raise ArchiveError(f"a moment is {text!r}, not an ISO 8601 text")
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ArchiveError(f"{text} has no time zone")
    try:
        moment.astimezone(UTC)
    except OverflowError:  # stored, it would be year 10000 or 1 BC: no read of its row would work
        raise ArchiveError(f"{text} is before year 1 or after year 9999 once converted to UTC") from None
    return moment


def moment_or_none(text: Any) -> datetime | None:
    return None if text is None else moment_read(text)


def uuid_read(text: Any) -> uuid.UUID | None:
    return None if text is None else uuid.UUID(text)


def rows_at_once(kind: str, usual: int) -> int:
    """How many rows of ``kind`` an export reads, or an import writes, at a time: ``usual``, and
    fewer of the kinds that carry a document's whole text."""
    if kind not in _TEXT_KINDS:
        return usual
    return max(1, min(usual, _TEXT_BUDGET // settings.HELIX_MAX_DOCUMENT_BYTES))


def line_limit() -> int:
    """The longest line an import reads: a document's text, escaped as JSON, and room for the
    rest of its row. No row this installation writes is longer."""
    return 6 * settings.HELIX_MAX_DOCUMENT_BYTES + _CHUNK


def rows_read(folder: Path, kind: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, row) for every line of a kind's file; a line longer than ``line_limit`` is
    refused before it is read whole."""
    name, limit = file_name(kind), line_limit()
    with (folder / name).open("rb") as file:
        for number, line in enumerate(iter(lambda: file.readline(limit + 1), b""), start=1):
            if len(line) > limit:
                raise ArchiveError(
                    f"{name} line {number} is longer than {limit} bytes: it holds more than a document this "
                    "installation accepts (HELIX_MAX_DOCUMENT_BYTES)."
                )
            try:
                row = json.loads(line.decode())
            except ValueError:  # UnicodeDecodeError too
                row = None
            if not isinstance(row, dict):
                raise ArchiveError(f"{name} line {number}: not a JSON object.")
            yield number, row


# --- the archive on disk ---------------------------------------------------------------------


def staging_begin(out: Path) -> Path:
    """A directory to write an archive into, beside ``out``; the archive appears under its name
    only when complete (``staging_finish``), so a failed export leaves nothing half-written."""
    if out.exists():
        raise ArchiveError(f"{out} already exists; choose a new name.", field="out")
    if not out.parent.is_dir():
        raise ArchiveError(f"{out.parent} is not a directory.", field="out")
    staging = out.parent / f".{out.name}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir()
    except OSError as exc:
        raise ArchiveError(f"Cannot write in {out.parent}: {exc.strerror or exc}.", field="out") from None
    return staging


def staging_finish(staging: Path, out: Path) -> None:
    if not out.name.endswith(TAR_SUFFIX):
        staging.rename(out)
        return
    partial = out.parent / f".{out.name}.partial.tar.gz"
    with tarfile.open(partial, "w:gz", compresslevel=6) as tar:
        tar.add(staging, arcname=out.name[: -len(TAR_SUFFIX)])
    partial.rename(out)
    shutil.rmtree(staging)


def staging_abandon(staging: Path, out: Path) -> None:
    shutil.rmtree(staging, ignore_errors=True)
    (out.parent / f".{out.name}.partial.tar.gz").unlink(missing_ok=True)


@contextmanager
def archive_opened(path: Path) -> Iterator[Path]:
    """The archive's directory: ``path`` itself, or a gzipped tar unpacked into a temporary one."""
    if path.is_dir():
        yield path
        return
    if not path.is_file() or not path.name.endswith(TAR_SUFFIX):
        raise ArchiveError(f"{path} is neither an export directory nor a {TAR_SUFFIX} file.", field="archive")
    with tempfile.TemporaryDirectory(prefix="helix-import-") as folder:
        _unpack(path, Path(folder))
        yield Path(folder)


def _unpack(path: Path, folder: Path) -> None:
    """Only the archive's own files, flat: a member named anything else, or a link, is refused."""
    allowed = {MANIFEST, *(file_name(kind) for kind in KINDS)}
    try:
        with tarfile.open(path, "r:gz") as tar:
            for member in tar:
                if member.isdir():
                    continue
                name = Path(member.name)
                if not member.isfile() or name.name not in allowed or len(name.parts) > 2 or ".." in name.parts:
                    raise ArchiveError(f"{path.name} holds {member.name!r}, which is no part of an export.")
                source = tar.extractfile(member)
                if source is None:
                    raise ArchiveError(f"{path.name}: {member.name} cannot be read.")
                with source, (folder / name.name).open("wb") as target:
                    shutil.copyfileobj(source, target, _CHUNK)
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise ArchiveError(
            f"{path.name} is not a readable {TAR_SUFFIX} archive ({exc}); nothing was imported.",
            code="archive_corrupt",
        ) from None
