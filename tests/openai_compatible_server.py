"""A small OpenAI-compatible HTTP server for tests, answering from a script.

Each test queues the answers it wants (status, JSON body or raw content, delay,
headers); the server records every request it receives. Real HTTP on 127.0.0.1,
so the real ``openai`` SDK talks to it exactly as it would to a remote endpoint.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Answer:
    status: int = 200
    body: Any = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


def chat_answer(content: str, *, prompt_tokens: int = 12, completion_tokens: int = 7) -> Answer:
    return Answer(
        body={
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": "test-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
    )


def embedding_answer(vectors: list[list[float]], *, prompt_tokens: int = 5) -> Answer:
    return Answer(
        body={
            "object": "list",
            "model": "test-embedding",
            "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens},
        }
    )


def error_answer(status: int, message: str = "error", headers: dict[str, str] | None = None) -> Answer:
    return Answer(status=status, body={"error": {"message": message, "type": "test"}}, headers=headers or {})


class OpenAICompatibleServer:
    def __init__(self) -> None:
        self.answers: dict[str, deque[Answer]] = {"/v1/chat/completions": deque(), "/v1/embeddings": deque()}
        self.requests: list[tuple[str, dict]] = []
        self.authorizations: list[str | None] = []  # each request's Authorization header
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def queue(self, path: str, *answers: Answer | Callable[[dict], Answer]) -> None:
        self.answers[path].extend(answers)

    def requests_to(self, path: str) -> list[dict]:
        return [body for request_path, body in self.requests if request_path == path]

    def __enter__(self) -> OpenAICompatibleServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(length)
                if len(raw) < length:  # the client died part way through sending (a kill -9 test)
                    return
                body = json.loads(raw or b"{}")
                outer.requests.append((self.path, body))
                outer.authorizations.append(self.headers.get("authorization"))
                queue = outer.answers.get(self.path)
                answer = queue.popleft() if queue else error_answer(500, "no answer queued")
                if callable(answer):  # an answer computed from the request
                    answer = answer(body)
                time.sleep(answer.delay)
                payload = json.dumps(answer.body).encode()
                try:
                    self.send_response(answer.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: object) -> None:
                pass

        return Handler
