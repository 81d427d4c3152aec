"""The React app's index.html, as answered for one client-side route.

The build (frontend/build/routePreloads.ts) writes `route-preloads.json` beside index.html: for
each lazy route ("tickets/:ticketId") the files of the page chunk it loads. The answer for a path
names them in `<link>` tags, with the API answers the page asks for first (`DATA_PRELOADS`), so
a phone fetches the page's code and data alongside the first download rather than one round trip
after the app has started: the ticket page is useful ~0.2 s sooner on the throttled phone profile
(BENCHMARKS "Speed on a phone"). A build without the file, or a path no route matches, gets
index.html as built. (The Content-Security-Policy allows no inline script, so this is done here.)"""

import json
from functools import lru_cache
from html import escape
from pathlib import Path

Route = tuple[tuple[str, ...], tuple[str, ...]]  # (path parts, files)

# What a page reads first, by route, with the route's parameters filled in; the UI's query must ask
# for exactly this URL (tickets' `ticketQuery`) or the browser fetches it twice. Every page behind
# the login asks who is signed in.
DATA_PRELOADS = {"tickets/:ticketId": ("/api/tickets/{ticketId}/",)}
SIGNED_IN_DATA = "/api/auth/me/"
PUBLIC_ROUTES = {("login",)}


@lru_cache(maxsize=4)
def _load(dist: Path, index_mtime: int, preloads_mtime: int) -> tuple[bytes, tuple[Route, ...]]:
    """index.html and the route table, read again only when a rebuild changed them."""
    html = (dist / "index.html").read_bytes()
    preloads_file = dist / "route-preloads.json"
    table = json.loads(preloads_file.read_text()) if preloads_mtime else {}
    routes = tuple((tuple(path.split("/")), tuple(files)) for path, files in table.items())
    return html, routes


def _mtime(path: Path) -> int:
    return path.stat().st_mtime_ns if path.is_file() else 0


def _matches(pattern: tuple[str, ...], parts: list[str]) -> bool:
    return len(pattern) == len(parts) and all(
        p.startswith(":") or p == part for p, part in zip(pattern, parts, strict=True)
    )


def _route_for(routes: tuple[Route, ...], path: str) -> tuple[Route, dict[str, str]] | None:
    """The route a path opens (the one with more fixed parts wins, as in the router:
    "work-orders/plan" before "work-orders/:workOrderId") and its parameters."""
    parts = [part for part in path.split("/") if part]
    candidates = [route for route in routes if _matches(route[0], parts)]
    if not candidates:
        return None
    route = max(candidates, key=lambda route: sum(not p.startswith(":") for p in route[0]))
    params = {p[1:]: part for p, part in zip(route[0], parts, strict=True) if p.startswith(":")}
    return route, params


def _data_for(pattern: tuple[str, ...], params: dict[str, str]) -> list[str]:
    urls = [] if pattern in PUBLIC_ROUTES else [SIGNED_IN_DATA]
    # Only ids are filled in: a path's text never reaches a URL the browser fetches.
    if all(value.isascii() and value.isdigit() for value in params.values()):
        urls += [url.format(**params) for url in DATA_PRELOADS.get("/".join(pattern), ())]
    return urls


def _link(url: str) -> str:
    href = escape(url)
    if url.startswith("/api/"):
        # As the API client asks (CORS mode, with the session cookie), so the browser reuses it.
        return f'<link rel="preload" as="fetch" crossorigin="use-credentials" href="{href}">'
    # Stylesheets preloaded, not applied (the page's code links them when it renders; Vite skips
    # a sheet already fetched); scripts as module preloads, CORS mode like index.html's own.
    if url.endswith(".css"):
        return f'<link rel="preload" as="style" crossorigin href="{href}">'
    return f'<link rel="modulepreload" crossorigin href="{href}">'


def index_html(dist: Path, path: str) -> bytes:
    """index.html for `path` (without its leading slash); FileNotFoundError if the UI is not built."""
    index = dist / "index.html"
    if not index.is_file():
        raise FileNotFoundError(index)
    html, routes = _load(dist, _mtime(index), _mtime(dist / "route-preloads.json"))
    found = _route_for(routes, path)
    if found is None:
        return html
    (pattern, files), params = found
    links = "".join(_link(url) for url in (*files, *_data_for(pattern, params))).encode()
    return html.replace(b"</head>", links + b"</head>", 1)
