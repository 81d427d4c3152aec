"""The built UI under a running DEBUG server: a rebuild of frontend/dist (new index.html, new hashed
bundles) is served at once, with no restart, even when the server started before the first build
(trial item 16: WhiteNoise listed the files at start, so the new index.html's bundles answered 404)."""

import shutil
from pathlib import Path

import httpx
import pytest

from .servers import web_server

pytestmark = pytest.mark.django_db


def build(dist: Path, bundle: str) -> None:
    """What `vite build` leaves: an emptied dist with index.html naming one hashed bundle."""
    shutil.rmtree(dist, ignore_errors=True)
    (dist / "assets").mkdir(parents=True)
    (dist / "assets" / bundle).write_text(f"console.log({bundle!r});")
    (dist / "index.html").write_text(f'<!doctype html><script type="module" src="/assets/{bundle}"></script>')


def test_a_rebuilt_ui_is_served_without_a_restart_in_debug(tmp_path):
    dist = tmp_path / "dist"  # not built yet when the server starts
    env = {"DJANGO_DEBUG": "1", "LIGHTPATH_FRONTEND_DIST": str(dist)}
    with web_server(tmp_path / "web.log", env=env, threads=2) as server:
        assert httpx.get(f"{server.base}/assets/app-1111.js").status_code == 404

        build(dist, "app-1111.js")
        page = httpx.get(f"{server.base}/tickets/4")
        assert page.status_code == 200 and "/assets/app-1111.js" in page.text
        bundle = httpx.get(f"{server.base}/assets/app-1111.js")
        assert bundle.status_code == 200, server.log_tail()
        assert bundle.text == "console.log('app-1111.js');"

        build(dist, "app-2222.js")
        page = httpx.get(f"{server.base}/tickets/4")
        assert "/assets/app-2222.js" in page.text
        bundle = httpx.get(f"{server.base}/assets/app-2222.js")
        assert bundle.status_code == 200, server.log_tail()
        assert bundle.text == "console.log('app-2222.js');"
        # The old build's bundle is gone with it, not served from a list made at start.
        assert httpx.get(f"{server.base}/assets/app-1111.js").status_code == 404
