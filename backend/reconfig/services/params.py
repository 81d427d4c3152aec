"""The fat tree's params, read alike by the ShareBackup plan and sizing and the cost comparison."""

from __future__ import annotations

from typing import Any

from lightpath.problems import Problems, integer


def fat_tree(problems: Problems, params: dict[str, Any]) -> tuple[int, int] | None:
    """k (even, 2..64) and pods (1..k, default k)."""
    k = integer(problems, params.get("k"), "k", 2, 64)
    if k is not None and k % 2:
        problems.add("k", f"must be even, got {k}")
        k = None
    pods_value = params.get("pods")
    if k is None:
        return None
    pods = k if pods_value is None else integer(problems, pods_value, "pods", 1, k)
    return None if pods is None else (k, pods)
