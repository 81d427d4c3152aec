"""The scripts of backend/scripts/ (benchmarks, evaluations) for their tests: by path, to run them
as a child process, or loaded as a module, to call their functions."""

import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

SCRIPTS_DIR = Path(__file__).resolve().parents[2] / "scripts"


def script_path(name: str) -> Path:
    """backend/scripts/<name>.py"""
    return SCRIPTS_DIR / f"{name}.py"


@contextmanager
def load_script(name: str) -> Iterator[ModuleType]:
    """backend/scripts/<name>.py as the module `name` while the block runs (registered in
    sys.modules, as dataclasses and pickling need), removed after."""
    spec = importlib.util.spec_from_file_location(name, script_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(name, None)
