"""A real Prometheus (Debian's `prometheus`, in agent mode as a collector runs it) scrapes a fixture
exporter serving our switches' metrics and remote-writes them to a live Lightpath server: the
readings land in telemetry and derivation sees them.

`make test` installs Prometheus (LIGHTPATH_NEED_PROMETHEUS, backend/scripts/devstack.sh deps);
run alone without it, the test is skipped unless CI is set.
"""

import os
import shutil
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection

from accounts.roles import COLLECTOR
from fabric.models import Link
from lightpath.tests.processes import ChildProcess
from lightpath.tests.servers import free_port, web_server
from telemetry.services import derivation

pytestmark = pytest.mark.django_db(transaction=True)

PROMETHEUS = shutil.which("prometheus")
if PROMETHEUS is None and not (os.environ.get("CI") or os.environ.get("LIGHTPATH_NEED_PROMETHEUS") == "1"):
    pytest.skip("prometheus is not installed (make test installs it)", allow_module_level=True)

RX_LANE = "components_component_transceiver_physical_channels_channel_state_input_power_instant"
# What an exporter in front of the fabric serves: gnmic-style optics of f0:d0 (lane 1 dim), the
# snmp_exporter-style oper status of t0:up0 (down) and of a management port, which is skipped.
EXPORTED = "".join(
    [
        "# TYPE ifOperStatus gauge\n",
        'ifOperStatus{switch="t0",ifName="up0"} 2\n',
        'ifOperStatus{switch="t0",ifName="mgmt0"} 1\n',
        f"# TYPE {RX_LANE} gauge\n",
        *(
            f'{RX_LANE}{{switch="f0",component_name="d0",channel_index="{lane}"}} {power}\n'
            for lane, power in enumerate([-2.0, -17.5, -2.1, -2.2])
        ),
        "# TYPE ifHCInUcastPkts counter\n",
        'ifHCInUcastPkts{switch="f0",ifName="d0"} 1.234567e+06\n',
    ]
)


class Exporter(BaseHTTPRequestHandler):
    def do_GET(self):
        body = EXPORTED.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def exporter():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Exporter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def collector_token(make_user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.create(user=make_user(COLLECTOR)).key


def prometheus_config(target: str, url: str, token: str) -> str:
    """docs/collectors.md's remote_write block, with one-second scrapes and sends for the test."""
    return f"""
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: fabric
    static_configs:
      - targets: ["{target}"]
remote_write:
  - url: "{url}"
    authorization:
      type: Token
      credentials: "{token}"
    queue_config:
      batch_send_deadline: 1s
      min_backoff: 100ms
      max_backoff: 1s
"""


def stored_ends(fabric_id: int) -> dict[tuple[str, str], tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT l.a_port, s.side, s.oper_status, s.input_power_channels_dbm, s.in_pkts FROM telemetry_sample s "
            "JOIN fabric_link l ON l.id = s.link_id WHERE l.fabric_id = %s ORDER BY s.time",
            [fabric_id],
        )
        return {(port, side): rest for port, side, *rest in cursor.fetchall()}


def test_prometheus_remote_writes_scraped_optics_into_telemetry(
    small_fabric, make_user, client_for, exporter, tmp_path
):
    assert PROMETHEUS, "prometheus is not installed: apt-get install prometheus (make test does)"
    token = collector_token(make_user)
    with web_server(tmp_path / "web.log") as web:
        config = tmp_path / "prometheus.yml"
        config.write_text(
            prometheus_config(exporter, f"{web.base}/api/telemetry/remote-write/?fabric={small_fabric.name}", token)
        )
        log = tmp_path / "prometheus.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [PROMETHEUS, "--enable-feature=agent", f"--config.file={config}",
                 f"--storage.agent.path={tmp_path / 'wal'}", f"--web.listen-address=127.0.0.1:{free_port()}"],
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        prometheus = ChildProcess(process=process, log=log)
        try:
            deadline = time.monotonic() + 90
            ends = {}
            while time.monotonic() < deadline:
                ends = stored_ends(small_fabric.pk)
                if ("up0", "a") in ends and ("up0", "z") in ends:
                    break
                assert process.poll() is None, f"prometheus exited:\n{prometheus.log_tail()}"
                time.sleep(0.5)
            else:
                pytest.fail(f"no readings arrived within 90 s:\n{prometheus.log_tail()}\n{web.log_tail()}")
        finally:
            prometheus.stop()
    assert ends[("up0", "a")][0] == 2  # ifOperStatus down, as the exporter said
    assert ends[("up0", "z")][1] == [-2.0, -17.5, -2.1, -2.2] and ends[("up0", "z")][2] == 1_234_567
    # No batch was refused (Prometheus logs a 4xx as a non-recoverable error and drops the batch):
    # its own series (up, scrape_duration_seconds...) and the management port were skipped.
    assert "non-recoverable error" not in log.read_text()

    derivation.derive(small_fabric)
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    viewer = client_for("viewer")
    assert viewer.get(f"/api/links/{link.pk}/").json()["oper_state"] == "down"
    status = viewer.get(f"/api/links/{link.pk}/telemetry/").json()["status"]
    assert status["sides"]["z"]["rx_class"] == "low" and status["rx_low"] is True
