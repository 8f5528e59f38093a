"""The rules engine and the bots stay pure (standard library only); the whole package is ``mypy --strict`` clean."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parent.parent
PURE = [ROOT / "scorekeeper" / "engine", ROOT / "scorekeeper" / "bots"]


@pytest.mark.parametrize("path", [p for d in PURE for p in sorted(d.glob("*.py"))], ids=lambda p: p.name)
def test_the_engine_and_bots_import_only_the_standard_library(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        elif isinstance(node, ast.ImportFrom):
            # Relative imports stay inside the package, or reach from bots into the engine only.
            assert node.level == 1 or (node.level == 2 and (node.module or "").startswith("engine")), (
                f"{path.name} imports {'.' * node.level}{node.module}"
            )
            continue
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"


def test_the_whole_package_passes_mypy_strict() -> None:
    """``[tool.mypy]`` in pyproject.toml: strict, over ``scorekeeper`` (engine, bots and the web app)."""
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, out + err
    checked = int(out.split(" in ")[-1].split()[0])  # "Success: no issues found in 40 source files"
    assert checked >= len(list((ROOT / "scorekeeper").rglob("*.py"))), out
