"""A real HTTP receiver for webhook tests: a tiny http.server on a free local port, in a thread.
It records every request and answers with the scripted status codes in turn (then 200)."""

import contextlib
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    statuses: list[int] = field(default_factory=list)
    delay_s: float = 0.0
    answer: bytes | None = None  # the response body; default "status N"
    endless: bool = False  # stream the answer again and again until the client hangs up
    requests: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/hooks/lightpath"

    def wait_for(self, count: int, timeout: float = 30) -> list[Received]:
        deadline = time.monotonic() + timeout
        while len(self.requests) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"received {len(self.requests)} requests, expected {count}")
            time.sleep(0.02)
        return self.requests


def start_receiver(statuses: list[int] | None = None, delay_s: float = 0.0) -> Receiver:
    receiver = Receiver(statuses=list(statuses or []), delay_s=delay_s)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            receiver.requests.append(Received(self.path, dict(self.headers.items()), body))
            if receiver.delay_s:
                time.sleep(receiver.delay_s)
            status = receiver.statuses.pop(0) if receiver.statuses else 200
            answer = receiver.answer if receiver.answer is not None else f"status {status}".encode()
            self.send_response(status)
            if status == 429:
                self.send_header("Retry-After", "0")
            self.send_header("Content-Length", str(10**12 if receiver.endless else len(answer)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client stopped reading
                self.wfile.write(answer)
                while receiver.endless:
                    self.wfile.write(answer)

        def log_message(self, format, *args):  # keep test output quiet
            pass

    receiver.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=receiver.server.serve_forever, daemon=True).start()
    return receiver


def stop_receiver(receiver: Receiver) -> None:
    assert receiver.server is not None
    receiver.server.shutdown()
    receiver.server.server_close()
