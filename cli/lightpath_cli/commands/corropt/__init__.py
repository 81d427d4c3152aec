"""corropt check|optimize|switch-local|trace|simulate: CorrOpt on files, offline, or on the server.

Offline (--fabric-file FABRIC.json), the fabric is an interchange document and the engine decides in this
process (lightpath_cli.offline); `check LINK`, `optimize FABRIC` and `simulate FABRIC` work on the
server's live fabric instead, through the REST API (lightpath_cli.server).
"""

from __future__ import annotations

from ...options import new_app
from . import decisions, simulation

app = new_app()
app.command("check")(decisions.check)
app.command("optimize")(decisions.optimize)
app.command("switch-local")(decisions.switch_local)
app.command("trace")(simulation.trace_command)
app.command("simulate")(simulation.simulate_command)
