"""A stand-in for the REST API on a localhost port, for CLI tests that need exact server answers.

Each route answers a recorded body (the shapes of the API contract, e.g. docs/capacity-guard.md)
and every request is kept, so a test asserts both what the CLI sent and what the user sees. The
CLI talks to it over real HTTP through its own client: nothing in the CLI is patched. The tests
against the real server (live_server) check that the server gives these answers.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    headers: dict[str, str]


Answer = tuple[int, Any]
Route = Answer | Callable[[Request], Answer]


@dataclass
class FakeApi:
    """Routes by (method, path); the query string is not part of the key (tests read it from `requests`)."""

    url: str = ""
    routes: dict[tuple[str, str], Route] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)

    def route(self, method: str, path: str, answer: Route) -> None:
        self.routes[(method, path)] = answer

    def page(self, path: str, rows: list[dict[str, Any]]) -> None:
        """A paginated list endpoint answering these rows whatever the filters."""
        self.route("GET", path, (200, {"count": len(rows), "next": None, "previous": None, "results": rows}))

    def sent(self, method: str | None = None) -> list[Request]:
        """The requests other than reads (or of one method)."""
        if method is None:
            return [r for r in self.requests if r.method != "GET"]
        return [r for r in self.requests if r.method == method]


def _handler(api: FakeApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            request = Request(
                method=self.command,
                path=parts.path,
                query=parse_qs(parts.query),
                body=json.loads(raw) if raw else None,
                headers={key.lower(): value for key, value in self.headers.items()},
            )
            api.requests.append(request)
            route = api.routes.get((self.command, parts.path))
            if route is None:
                status, body = 404, {"detail": "Not found."}
            elif callable(route):
                status, body = route(request)
            else:
                status, body = route
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def serve() -> Iterator[FakeApi]:
    """Generator for a pytest fixture: a FakeApi listening until the test ends."""
    api = FakeApi()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
