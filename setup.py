"""The compiled search cores of the solvers (everything else is in pyproject.toml).

Every C file named ``_*core.c`` under games/engines is one extension module,
named by its path (games/engines/_c4core.c -> games.engines._c4core), so a
game that brings a compiled core adds its C file and touches nothing here.

Each is optional: without a C compiler the install still succeeds and that
solver runs its pure-Python search, slower but with the same answers.
"""

import platform
from pathlib import Path

from setuptools import Extension, setup

# The processor's own popcount instruction where it has one (every x86-64 of
# the last fifteen years): without it gcc calls a library routine for each
# count, 2-3% of the Sokoban core's CPU on the large levels, where it counts
# the squares of every flood (docs/benchmarks.md, session 62).
POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []


def compiled_cores() -> list[Extension]:
    return [
        Extension(
            ".".join(source.with_suffix("").parts),
            sources=[source.as_posix()],
            optional=True,
            # -O3 over -O2: the Sokoban core made 5-25% more expansions a
            # CPU second on the hard classic levels, the same search
            # (docs/benchmarks.md, session 31).
            extra_compile_args=["-O3", *POPCOUNT],
        )
        for source in sorted(Path("games/engines").rglob("_*core.c"))
    ]


setup(ext_modules=compiled_cores())
