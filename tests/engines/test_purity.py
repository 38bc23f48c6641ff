"""Engines are pure Python: no Django, DRF or Channels, imported or reachable."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[2] / "games" / "engines"
FORBIDDEN = ("django", "rest_framework", "channels", "daphne", "drf_spectacular")


def test_no_engine_module_imports_a_web_framework() -> None:
    offenders = []
    for path in ENGINES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_every_engine_imports_and_plays_without_django_loaded() -> None:
    script = (
        "import sys\n"
        "from games.engines.registry import ENGINES\n"
        "for engine in ENGINES.values():\n"
        "    opts = engine.normalize_options({})\n"
        "    state = engine.initial_state(opts['players'], opts, 1)\n"
        "    engine.view(state, None)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "assert not bad, bad\n"
        "print(len(ENGINES))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ENGINES.parents[1], capture_output=True, text=True, env={"PATH": ""}
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 1
