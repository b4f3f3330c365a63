"""Reading a document's text out of what was sent: text (plain or Markdown) as it is, a PDF's
text page by page (pypdf), an HTML page's text with its headings, paragraphs, list items and
preformatted blocks written as Markdown (Python's own ``html.parser``), so that chunking cuts
every format at the same kind of boundary.

The text is what chunk offsets point into, so it is normalized once here: ``\\n`` line ends,
no NUL (which PostgreSQL cannot store), nothing that is not a character.

A PDF's streams are compressed: a small file can inflate to gigabytes (a decompression bomb),
and reading its text costs time in proportion to what it inflates to. So every stream inflates
within ``INFLATE_FACTOR`` × HELIX_MAX_DOCUMENT_BYTES (pypdf stops decompressing there), and so do
all the pages' content streams together: past either, the file is refused as too large while it
inflates, not after.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.conf import settings
from pypdf import PdfReader, apply_configuration
from pypdf.errors import LimitReachedError

from helixsite.errors import InvalidInput

MARKDOWN = "text/markdown"
FILE_TYPES = ("application/pdf", "text/html")


@dataclass(frozen=True)
class Source:
    text: str
    content_type: str
    page_starts: list[int] = field(default_factory=list)


def base64_decode(value: str) -> bytes:
    """Strict base64 (line breaks allowed), within HELIX_MAX_DOCUMENT_BYTES once decoded."""
    compact = re.sub(r"\s+", "", value)
    limit = settings.HELIX_MAX_DOCUMENT_BYTES
    if len(compact) * 3 // 4 > limit + 2:
        raise _too_large("content_base64")
    try:
        data = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInput(
            "content_base64 is not valid base64.", code="invalid_base64", field="content_base64"
        ) from None
    if not data:
        raise InvalidInput("content_base64 is empty.", code="empty_document", field="content_base64")
    if len(data) > limit:
        raise _too_large("content_base64")
    return data


def text_check(value: str) -> str:
    if len(value.encode("utf-8")) > settings.HELIX_MAX_DOCUMENT_BYTES:
        raise _too_large("text")
    return value


def file_check(data: bytes, content_type: str) -> None:
    """What the call checks of a file before accepting it, cheaply (its text is read by the
    worker): a PDF opens, is not encrypted and has a page. A 400 naming content_base64 if not."""
    if content_type != "application/pdf":
        return
    try:
        with apply_configuration(None, **_bounded(inflate_limit())):
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not reader.decrypt(""):
                raise InvalidInput("The PDF is encrypted.", code="encrypted_pdf", field="content_base64")
            if len(reader.pages) == 0:
                raise InvalidInput("The PDF has no page.", code="empty_document", field="content_base64")
    except InvalidInput:
        raise
    except LimitReachedError:
        raise _too_large("content_base64", inflated=inflate_limit()) from None
    except Exception:  # pypdf raises many kinds of error on a malformed file: all mean the same to the caller
        raise InvalidInput(
            "content_base64 is not a readable PDF.", code="unreadable_pdf", field="content_base64"
        ) from None


def document_read(*, text: str | None, data: bytes | None, content_type: str | None) -> Source:
    """The document's text; a file that cannot be read is the caller's 400, naming content_base64."""
    if data is None:
        return Source(_normalized(text or "", field="text"), MARKDOWN)
    if content_type == "application/pdf":
        return _pdf(data)
    return Source(_normalized(_html(data), field="content_base64"), "text/html")


# A page's content stream is its text with the operators that place it: a few times larger.
INFLATE_FACTOR = 8


def inflate_limit() -> int:
    """The most a PDF's streams may inflate to, each and its pages' content all together."""
    return INFLATE_FACTOR * settings.HELIX_MAX_DOCUMENT_BYTES


def _bounded(limit: int) -> dict[str, int]:
    """pypdf's limits on what its streams may inflate to, each at ``limit``."""
    return {
        name: limit
        for name in (
            "maximum_declared_stream_length",
            "array_based_stream_maximum_output_length",
            "zlib_maximum_output_length",
            "lzw_maximum_output_length",
            "run_length_maximum_output_length",
            "brotli_maximum_output_length",
            "jbig2_maximum_output_length",
            "image_maximum_buffer_size",
            "stream_decoding_work_maximum_length",
            "xfa_decoding_work_maximum_length",
        )
    }


def _pdf(data: bytes) -> Source:
    limit = inflate_limit()
    try:
        with apply_configuration(None, **_bounded(limit)):
            return _pdf_read(data, limit)
    except LimitReachedError:
        raise _too_large("content_base64", inflated=limit) from None


def _pdf_read(data: bytes, limit: int) -> Source:
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InvalidInput("The PDF is encrypted.", code="encrypted_pdf", field="content_base64")
        pages, starts, offset, size = [], [], 0, 0  # offset in characters, size in bytes
        inflated = 0
        for page in reader.pages:
            contents = page.get_contents()
            inflated += len(contents.get_data()) if contents is not None else 0
            if inflated > limit:
                raise _too_large("content_base64", inflated=limit)
            starts.append(offset)
            page_text = _normalized(page.extract_text() or "", field="content_base64", empty_ok=True)
            pages.append(page_text)
            offset += len(page_text) + 2
            size += len(page_text.encode("utf-8")) + 2
            if size > settings.HELIX_MAX_DOCUMENT_BYTES:
                raise _too_large("content_base64")
    except (InvalidInput, LimitReachedError):
        raise
    except Exception:  # pypdf raises many kinds of error on a malformed file: all mean the same to the caller
        raise InvalidInput(
            "content_base64 is not a readable PDF.", code="unreadable_pdf", field="content_base64"
        ) from None
    text = "\n\n".join(pages)
    if not text.strip():
        raise InvalidInput("The PDF holds no text (a scan?).", code="empty_document", field="content_base64")
    return Source(text, "application/pdf", starts)


def _normalized(text: str, *, field: str, empty_ok: bool = False) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = text.encode("utf-8", errors="replace").decode("utf-8")
    if not empty_ok and not text.strip():
        raise InvalidInput("The document holds no text.", code="empty_document", field=field)
    if len(text.encode("utf-8")) > settings.HELIX_MAX_DOCUMENT_BYTES:
        raise _too_large(field)
    return text


def _too_large(field: str, *, inflated: int | None = None) -> InvalidInput:
    limit = settings.HELIX_MAX_DOCUMENT_BYTES
    if inflated is not None:
        return InvalidInput(
            f"The PDF's streams inflate past {inflated} bytes ({INFLATE_FACTOR} × HELIX_MAX_DOCUMENT_BYTES).",
            code="document_too_large",
            field=field,
            details={"limit": limit, "inflated_limit": inflated},
        )
    return InvalidInput(
        f"The document is larger than {limit} bytes (HELIX_MAX_DOCUMENT_BYTES).",
        code="document_too_large",
        field=field,
        details={"limit": limit},
    )


def _html(data: bytes) -> str:
    try:
        markup = data.decode("utf-8")
    except UnicodeDecodeError:
        markup = data.decode("cp1252", errors="replace")
    reader = _HtmlText()
    reader.feed(markup)
    reader.close()
    return "\n\n".join(reader.blocks)


_BLOCKS = {
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p",
    "pre", "section", "table", "td", "th", "tr", "ul",
}  # fmt: skip
_SKIPPED = {"script", "style", "noscript", "template", "svg", "title", "head"}


class _HtmlText(HTMLParser):
    """Blocks of text, in order: ``# heading``, paragraphs, ``- item``, fenced preformatted text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._words: list[str] = []
        self._skipped = 0
        self._pre = 0
        self._heading = 0
        self._item = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _SKIPPED:
            self._skipped += 1
        elif self._pre and tag == "br":
            self._words.append("\n")
        elif tag in _BLOCKS and not self._pre:
            self._flush()
            self._heading = int(tag[1]) if re.fullmatch(r"h[1-6]", tag) else self._heading
            self._pre += tag == "pre"
            self._item = self._item or tag == "li"

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipped = max(self._skipped - 1, 0)
        elif tag == "pre" and self._pre:
            self._flush()
            self._pre -= 1
        elif tag in _BLOCKS and not self._pre:
            self._flush()
            self._heading = 0 if re.fullmatch(r"h[1-6]", tag) else self._heading
            self._item = False if tag == "li" else self._item

    def handle_data(self, data: str) -> None:
        if not self._skipped:
            self._words.append(data)

    def close(self) -> None:
        super().close()
        self._flush()

    def _flush(self) -> None:
        raw, self._words = "".join(self._words), []
        if self._pre:
            if raw.strip("\n"):
                self.blocks.append("```\n" + raw.strip("\n") + "\n```")
            return
        text = " ".join(raw.split())
        if not text:
            return
        if self._heading:
            text = "#" * self._heading + " " + text
        elif self._item:
            text = "- " + text
        self.blocks.append(text)
