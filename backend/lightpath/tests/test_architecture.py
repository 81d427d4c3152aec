"""The direction data flows in the backend (docs/architecture.md), checked on the import graph.

- No import circles between modules, counting imports inside functions (a lazy import hides a
  circle from Python's loader, not from the reader).
- Services enqueue by task name through `lightpath.dispatch`; no module but a `tasks.py` imports
  a `tasks` module (the worker discovers them by itself: workers/lightpath_worker is not scanned).
- A `tasks.py` holds only Celery tasks, each a thin door: one call into its own app's services.

The graph is grimp's (import-linter's engine), built from the source without importing it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import networkx as nx
import pytest

BACKEND = Path(__file__).resolve().parents[2]
# Every package of the backend, read from the folder: a new app is checked from its first commit.
PACKAGES = tuple(sorted(init.parent.name for init in BACKEND.glob("*/__init__.py")))


@pytest.fixture(scope="module")
def imports() -> nx.DiGraph:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    edges = nx.DiGraph()
    for module in graph.modules:
        edges.add_node(module)
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
    return edges


def _cycles(edges: nx.DiGraph) -> list[str]:
    """Each circle as a chain `a -> b -> a`: for every module of a strongly connected set, the
    shortest way back to it (the same circle is named once)."""
    chains: dict[frozenset[str], str] = {}
    for component in nx.strongly_connected_components(edges):
        if len(component) < 2:
            continue
        inside = edges.subgraph(component)
        for module in sorted(component):
            back = min(
                (nx.shortest_path(inside, successor, module) for successor in inside.successors(module)), key=len
            )
            cycle = [module, *back]
            chains.setdefault(frozenset(cycle), " -> ".join(cycle))
    return sorted(chains.values())


def test_no_import_cycles(imports):
    cycles = _cycles(imports)
    assert not cycles, f"{len(cycles)} import circle(s):\n" + "\n".join(cycles)


def test_only_tasks_modules_import_tasks(imports):
    offenders = sorted(
        f"{importer} imports {imported}"
        for importer, imported in imports.edges
        if imported.endswith(".tasks") and not importer.endswith(".tasks")
    )
    assert not offenders, "enqueue through lightpath.dispatch.send by task name instead:\n" + "\n".join(offenders)


def _task_problems(path: Path) -> list[str]:
    app = path.parent.name
    tree = ast.parse(path.read_text(), str(path))
    imported: set[str] = set()
    problems = []
    for node in tree.body:
        where = f"{path.relative_to(BACKEND)}:{node.lineno}"
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # the docstring
            continue
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level == 0 and source != "celery" and source.split(".")[0] != app:
                problems.append(f"{where}: imports {source} (a task calls its own app's services)")
            imported.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Call) and getattr(d.func, "id", None) == "shared_task" for d in node.decorator_list
        ):
            problems += [f"{where}: {node.name}: {problem}" for problem in _thin(node, imported)]
        else:
            problems.append(f"{where}: {type(node).__name__} is not a task (it belongs in a service)")
    return problems


def _thin(task: ast.FunctionDef, imported: set[str]) -> list[str]:
    body = task.body[1:] if ast.get_docstring(task) else task.body
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return ["its body is more than `return <one service call>`"]
    # Calls that start from a name (not methods of another call's result, such as `.as_dict()`).
    calls = [
        node
        for node in ast.walk(body[0].value)
        if isinstance(node, ast.Call) and isinstance(_root(node.func), ast.Name)
    ]
    if len(calls) != 1:
        return [f"it makes {len(calls)} calls; a task calls one service"]
    root = _root(calls[0].func)
    if not isinstance(calls[0].func, ast.Attribute) or root.id not in imported:  # type: ignore[union-attr]
        return ["its call is not into a service module of its app"]
    return []


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


def test_tasks_modules_hold_only_thin_tasks():
    paths = sorted(BACKEND.glob("*/tasks.py"))
    assert paths, "no tasks.py found"
    problems = [problem for path in paths for problem in _task_problems(path)]
    assert not problems, "\n".join(problems)


# Layers that never call the engine: a view, serializer, model, task or job declaration reaches it
# through a service (docs/architecture.md, "The direction data flows").
NOT_ENGINE_CALLERS = ("api", "tasks", "models", "jobs", "filtersets", "admin", "signals")


def _imports_engine(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "lightpath_engine" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "lightpath_engine":
            return True
    return False


def test_only_services_call_the_engine():
    offenders = sorted(
        str(path.relative_to(BACKEND))
        for path in BACKEND.glob("*/**/*.py")
        if "tests" not in path.parts
        and {part.removesuffix(".py") for part in path.relative_to(BACKEND).parts[1:]} & set(NOT_ENGINE_CALLERS)
        and _imports_engine(path)
    )
    assert not offenders, "call the engine from a service:\n" + "\n".join(offenders)
