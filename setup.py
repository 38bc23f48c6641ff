"""The compiled search core of the Connect Four solver (everything else is in pyproject.toml).

``optional=True``: without a C compiler the install still succeeds and the
solver runs its pure-Python search, slower but with the same answers.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.engines._c4core",
            sources=["games/engines/_c4core.c"],
            optional=True,
        )
    ]
)
