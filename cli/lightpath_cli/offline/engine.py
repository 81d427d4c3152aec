"""The one door to the Rust engine (lightpath_engine) for the offline commands."""

from __future__ import annotations

from typing import Any

from ..errors import CliError


def load_engine() -> Any:
    """The lightpath_engine module, or one error line saying how to build it."""
    try:
        import lightpath_engine
    except ImportError as exc:
        raise CliError(
            "the lightpath_engine module is not installed (build it with maturin in workers/engine/lightpath-py)"
        ) from exc
    return lightpath_engine
