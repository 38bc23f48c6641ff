"""The compiled search cores of the solvers (everything else is in pyproject.toml).

Each is optional: without a C compiler the install still succeeds and that
solver runs its pure-Python search, slower but with the same answers.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        # Connect Four's solver (games/engines/connect_four_solver.py).
        Extension("games.engines._c4core", sources=["games/engines/_c4core.c"], optional=True),
        # The Sokoban solver (games/engines/sokoban/core.py).
        Extension(
            "games.engines.sokoban._core",
            sources=["games/engines/sokoban/_core.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
