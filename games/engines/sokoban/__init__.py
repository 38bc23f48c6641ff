"""Sokoban ("PushBox"): the engine, level formats, and a push-level solver.

``Sokoban`` is the engine the registry serves; ``levels`` reads and checks
levels; ``solver.solve`` solves them (``python -m games.engines.sokoban``).
"""

from __future__ import annotations

from pathlib import Path

from .engine import DEFAULT_LEVEL, Sokoban, SokobanState, replay
from .levels import Level, LevelError, load_levels, parse_level, parse_levels
from .solver import ALGORITHMS, SolveCancelled, SolveResult, solve, verify_level

# The bundled collections (see levels/README.md for their author).
LEVELS_DIR = Path(__file__).with_name("levels")
MICROBAN = LEVELS_DIR / "Microban.xsb"
MICROBAN_II = LEVELS_DIR / "Microban_II.xsb"

__all__ = [
    "ALGORITHMS",
    "DEFAULT_LEVEL",
    "LEVELS_DIR",
    "MICROBAN",
    "MICROBAN_II",
    "Level",
    "LevelError",
    "SolveCancelled",
    "SolveResult",
    "Sokoban",
    "SokobanState",
    "load_levels",
    "parse_level",
    "parse_levels",
    "replay",
    "solve",
    "verify_level",
]
