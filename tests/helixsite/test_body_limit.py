"""HELIX_MAX_BODY_BYTES on every path, Django's and /mcp: a declared length over the limit is
refused before the body is read, a chunked body is cut off once it passes the limit, and a
chunked body within it is served as the same call with a Content-Length."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import anyio
import httpx2
import pytest
from starlette.types import Message, Receive, Scope, Send

from helixsite.asgi import application
from helixsite.body_limit import BodyLimit
from memory.models import Memory
from tests.helixsite.agents.mcp.conftest import ROOT, World, build_world, free_port, server_env

LIMIT = 65536  # the served limit: small, so a refused upload is quick to send
PATHS = ["/api/v1/add_memory", "/mcp"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}
WAIT = 120  # seconds: every wait is bounded generously, never by how fast things run


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def error(self) -> dict:
        return json.loads(self.body)["error"]


# --- the ASGI door, in process -------------------------------------------------------------------


@dataclass
class Passage:
    """What a request through BodyLimit came to: the answer's messages, the body bytes pulled
    from the client, and what the app behind saw (None: it was never called)."""

    sent: list[Message]
    pulled: int
    app_scope: Scope | None
    app_received: list[Message]

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])

    def error(self) -> dict:
        return json.loads(self.sent[1]["body"])["error"]


async def _through_the_door(headers: dict[str, str], client: Iterator[Message]) -> Passage:
    passage = Passage(sent=[], pulled=0, app_scope=None, app_received=[])

    async def receive() -> Message:
        message = next(client, {"type": "http.disconnect"})
        passage.pulled += len(message.get("body", b""))
        return message

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        passage.app_scope = scope
        passage.app_received += [await receive(), await receive()]  # the body, then the client's end
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def send(message: Message) -> None:
        passage.sent.append(message)

    raw = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
    scope = {"type": "http", "method": "POST", "path": "/api/v1/add_memory", "headers": raw}
    await BodyLimit(app)(scope, receive, send)
    return passage


def _body(*pieces: bytes) -> Iterator[Message]:
    for n, piece in enumerate(pieces, start=1):
        yield {"type": "http.request", "body": piece, "more_body": n < len(pieces)}


@pytest.mark.anyio
async def test_a_declared_length_over_the_limit_is_answered_without_reading_a_byte(settings):
    settings.HELIX_MAX_BODY_BYTES = 4096
    passage = await _through_the_door({"Content-Length": "4097"}, _body(b"x" * 4097))

    assert (passage.status, passage.pulled, passage.app_scope) == (413, 0, None)
    assert passage.headers[b"connection"] == b"close", "the server reads no more of the body"
    assert passage.error() == {
        "code": "payload_too_large",
        "message": "The request body is larger than 4096 bytes.",
        "limit": 4096,
    }


@pytest.mark.anyio
async def test_a_body_without_a_length_is_read_no_further_than_the_limit(settings):
    settings.HELIX_MAX_BODY_BYTES = 4096
    endless = ({"type": "http.request", "body": b"x" * 1000, "more_body": True} for _ in itertools.count())
    passage = await _through_the_door({"Transfer-Encoding": "chunked"}, endless)

    assert (passage.status, passage.app_scope) == (413, None)
    assert passage.pulled == 5000, "the limit, and the piece that passed it"
    assert passage.headers[b"connection"] == b"close"


@pytest.mark.anyio
async def test_a_chunked_body_within_the_limit_reaches_the_app_whole_with_its_length():
    passage = await _through_the_door({"Transfer-Encoding": "chunked"}, _body(b'{"a"', b": 1}", b""))

    assert passage.status == 200 and passage.app_scope is not None
    assert dict(passage.app_scope["headers"]) == {b"content-length": b"8"}
    assert passage.app_received == [
        {"type": "http.request", "body": b'{"a": 1}', "more_body": False},
        {"type": "http.disconnect"},  # from then on, the client's own messages
    ]


@pytest.mark.anyio
async def test_a_body_within_its_declared_length_streams_on_untouched():
    passage = await _through_the_door({"Content-Length": "8"}, _body(b'{"a"', b": 1}"))

    assert passage.status == 200 and passage.app_scope is not None
    assert dict(passage.app_scope["headers"]) == {b"content-length": b"8"}
    assert [m["body"] for m in passage.app_received] == [b'{"a"', b": 1}"]


@pytest.mark.anyio
@pytest.mark.parametrize("length", ["-1", "12abc", "\u00b2"])
async def test_a_content_length_that_is_not_a_number_of_bytes_is_400(length):
    passage = await _through_the_door({"Content-Length": length}, _body(b"{}"))

    assert (passage.status, passage.pulled, passage.app_scope) == (400, 0, None)
    assert passage.error()["code"] == "malformed_request"


@pytest.mark.django_db
@pytest.mark.parametrize("path", PATHS)
def test_an_oversized_call_is_413_on_every_path_and_stores_nothing(settings, path):
    settings.HELIX_MAX_BODY_BYTES = 4096
    body = {"actor_id": "writer", "user_id": "bob", "group_id": "team", "message": "x" * 5000}

    async def call() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=application)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            return await http.post(path, json=body)

    response = anyio.run(call)

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert Memory.objects.count() == 0


# --- a real server ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def port(django_db_setup) -> Iterator[int]:
    """uvicorn serving helixsite.asgi as `make run` does, with a small body limit."""
    port = free_port()
    command = [sys.executable, "-m", "helixsite.web", "--host", "127.0.0.1", "--port", str(port)]
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            [*command, "--log-level", "warning"],
            cwd=ROOT,
            env=server_env(HELIX_MAX_BODY_BYTES=str(LIMIT)),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_until_serving(port, process)
            yield port
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            log.seek(0)
            print(log.read())  # the server's log, shown when a test fails


@pytest.fixture
def world(transactional_db) -> World:
    return build_world()


def _wait_until_serving(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert process.poll() is None, "the web server exited"
        with contextlib.suppress(httpx2.TransportError):
            if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=WAIT).status_code in (200, 503):
                return
        time.sleep(0.3)
    raise AssertionError("the web server did not answer")


def _connect(port: int) -> socket.socket:
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)  # what was sent is near what left
    conn.settimeout(WAIT)
    conn.connect(("127.0.0.1", port))
    return conn


def _head(path: str, port: int, *framing: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json", *framing]
    lines.append("Accept: application/json, text/event-stream")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _read_answer(conn: socket.socket) -> Answer:
    received = b""
    with contextlib.suppress(ConnectionResetError):  # the server may reset after answering
        while b"\r\n\r\n" not in received and (data := conn.recv(65536)):
            received += data
        head, _, body = received.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in header_lines)}
        while len(body) < int(headers.get("content-length", 0)) and (data := conn.recv(65536)):
            body += data
    return Answer(int(status_line.split()[1]), headers, body)


def _send_until_refused(conn: socket.socket, pieces: Iterable[bytes]) -> int:
    """Sends pieces until the server answers or closes the connection: the bytes it took."""
    sent = 0
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        for piece in pieces:
            if select.select([conn], [], [], 0)[0]:  # an answer, or the connection's end
                break
            conn.sendall(piece)
            sent += len(piece)
    return sent


# --- over the limit, against the server -----------------------------------------------------------

CHUNK, MOST = b"x" * 16384, 64 << 20  # a client that would send 64 MiB


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS)
def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(port, path):
    with _connect(port) as conn:
        conn.sendall(_head(path, port, f"Content-Length: {MOST}"))  # and not one byte of the body
        answer = _read_answer(conn)
        taken = _send_until_refused(conn, itertools.repeat(CHUNK, MOST // len(CHUNK)))

    # The server closed the connection: a client sending the body anyway is stopped at once.
    assert taken < 20 * LIMIT, f"{taken} bytes of the body were taken in after the refusal"
    assert answer.status == 413 and answer.headers["connection"] == "close"
    assert answer.error() == {
        "code": "payload_too_large",
        "message": f"The request body is larger than {LIMIT} bytes.",
        "limit": LIMIT,
    }


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS)
def test_a_chunked_upload_over_the_limit_is_cut_off_soon_after_the_limit(port, path):
    piece = b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK)
    with _connect(port) as conn:
        conn.sendall(_head(path, port, "Transfer-Encoding: chunked"))
        sent = _send_until_refused(conn, itertools.repeat(piece, MOST // len(CHUNK)))
        if sent == MOST // len(CHUNK) * len(piece):
            conn.sendall(b"0\r\n\r\n")  # never refused: the end of the body
        answer = _read_answer(conn)

    # What the client managed to send is the limit plus what the sockets' buffers absorbed.
    assert sent < 20 * LIMIT, f"{sent} bytes were taken in before the refusal"
    assert answer.status == 413 and answer.error()["code"] == "payload_too_large"


# --- chunked within the limit, against the server ------------------------------------------------


def _chunked(body: bytes) -> Iterator[bytes]:
    """A body httpx sends without a Content-Length (Transfer-Encoding: chunked), in pieces."""
    for start in range(0, len(body), 7):
        yield body[start : start + 7]


@pytest.mark.slow
def test_a_chunked_rest_call_is_served_as_the_same_call_with_a_length(port, world):
    body = json.dumps({"actor_id": "writer", "user_id": "bob"}).encode()
    headers = {"Authorization": f"Bearer {world.writer_token}", "Content-Type": "application/json"}
    with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=WAIT) as http:
        chunked = http.post("/api/v1/list_memories", content=_chunked(body), headers=headers)
        with_length = http.post("/api/v1/list_memories", content=body, headers=headers)

    assert chunked.request.headers["transfer-encoding"] == "chunked"
    assert chunked.status_code == 200, chunked.text
    assert chunked.json() == with_length.json()


@pytest.mark.slow
def test_a_chunked_mcp_initialize_is_served(port, world):
    headers = {
        "Authorization": f"Bearer {world.writer_token}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=WAIT) as http:
        answer = http.post("/mcp", content=_chunked(json.dumps(INITIALIZE).encode()), headers=headers)

    assert answer.request.headers["transfer-encoding"] == "chunked"
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["serverInfo"]["name"]
