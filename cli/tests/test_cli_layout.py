"""The package's one-way structure (cli/README.md, "Layout"), read from the source with ast.

commands/ sits over offline/ (files and the engine) and server/ (HTTP); neither of those imports a
command module, offline/ never speaks HTTP, server/ never loads the engine, a command module stays
under 600 lines, and a `_private` name is not imported from another module.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "lightpath_cli"
PACKAGE = "lightpath_cli"
MAX_COMMAND_MODULE_LINES = 600


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name of the file holding the import
    module: str  # dotted module imported from (absolute)
    names: tuple[str, ...]  # names taken from it; empty for `import x`
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def absolute(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    # `from .x` in a package's __init__ is relative to the package itself.
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_in(source: str, importer: str, is_package: bool = False) -> list[Import]:
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [Import(importer, alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = absolute(importer, is_package, node)
            found.append(Import(importer, module, tuple(alias.name for alias in node.names), node.lineno))
    return found


def imports_of(path: Path) -> list[Import]:
    return imports_in(path.read_text(), module_name(path), path.name == "__init__.py")


def imported_modules(found: Import) -> list[str]:
    """The module itself and, for `from pkg import sub`, each name as a possible submodule."""
    return [found.module] + [f"{found.module}.{name}" for name in found.names]


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def package_files(under: str = "") -> list[Path]:
    return sorted((PACKAGE_DIR / under).rglob("*.py"))


ALL_IMPORTS = [found for path in package_files() for found in imports_of(path)]


def offenders(imports: list[Import], importers: str, forbidden: tuple[str, ...]) -> list[str]:
    found_wrong = []
    for found in imports:
        if not within(found.importer, f"{PACKAGE}.{importers}"):
            continue
        wrong = [module for module in imported_modules(found) if any(within(module, name) for name in forbidden)]
        if wrong:
            found_wrong.append(f"{found.importer}:{found.line} imports {wrong[0]}")
    return found_wrong


def test_the_walk_sees_the_package() -> None:
    # A walk that finds nothing would pass every check below.
    assert {f"{PACKAGE}.offline", f"{PACKAGE}.server", f"{PACKAGE}.commands"} <= {
        module_name(path) for path in package_files()
    }
    assert any(within(found.module, f"{PACKAGE}.server") for found in ALL_IMPORTS if "commands" in found.importer)


@pytest.mark.parametrize(
    ("importers", "forbidden"),
    [
        ("offline", (f"{PACKAGE}.commands", f"{PACKAGE}.server", "httpx")),
        ("server", (f"{PACKAGE}.commands", f"{PACKAGE}.offline")),
    ],
)
def test_lower_layers_import_downwards_only(importers: str, forbidden: tuple[str, ...]) -> None:
    assert offenders(ALL_IMPORTS, importers, forbidden) == []


def test_the_wrong_direction_is_caught() -> None:
    # The check itself on lines it must refuse, so that a broken resolver cannot pass silently.
    source = "from ..commands.jobs import watch_job\nfrom .. import offline\nimport httpx\n"
    wrong = imports_in(source, f"{PACKAGE}.server.jobs") + imports_in(source, f"{PACKAGE}.offline.files")
    assert offenders(wrong, "server", (f"{PACKAGE}.commands", f"{PACKAGE}.offline")) == [
        f"{PACKAGE}.server.jobs:1 imports {PACKAGE}.commands.jobs",
        f"{PACKAGE}.server.jobs:2 imports {PACKAGE}.offline",
    ]
    assert offenders(wrong, "offline", ("httpx",)) == [f"{PACKAGE}.offline.files:3 imports httpx"]


def test_command_modules_stay_under_the_limit() -> None:
    too_long = {
        str(path.relative_to(PACKAGE_DIR)): lines
        for path in package_files("commands")
        if (lines := len(path.read_text().splitlines())) > MAX_COMMAND_MODULE_LINES
    }
    assert too_long == {}


def test_no_private_name_is_imported_from_another_module() -> None:
    private = [
        f"{found.importer}:{found.line} imports {name} from {found.module}"
        for found in ALL_IMPORTS
        if within(found.module, PACKAGE)
        for name in found.names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert private == []
