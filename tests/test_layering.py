"""The layers keep to their places: services speak the domain, the API edge speaks HTTP.

Services raise domain errors (core.errors); only the API edge (core.api and
the apps' api modules) knows of status codes and DRF. A service that imported
the HTTP layer could not be called from the scheduler, a management command
or a page without dragging a response shape along.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTTP_LAYER = ("rest_framework", "drf_spectacular", "core.api", "django.http", "games.api")
# DRF's token table is data (who holds which API key), not the HTTP layer.
DATA_FROM_THE_HTTP_PACKAGES = ("rest_framework.authtoken.models",)


def imports_of(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def domain_modules() -> list[Path]:
    """Services, selectors, the scheduler and the pushes of every app."""
    found = []
    for app in ("accounts", "games", "core"):
        for path in (ROOT / app).rglob("*.py"):
            if path.stem in {"services", "selectors", "scheduler", "broadcast", "jobs", "errors", "extension"}:
                found.append(path)
    return found


def test_the_domain_modules_exist_where_this_test_looks() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in domain_modules()}
    assert {"games/services.py", "accounts/services.py", "games/sokoban/services.py", "core/errors.py"} <= names


def test_no_service_or_selector_imports_the_http_layer() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in domain_modules()
        for name in imports_of(path)
        if any(name == layer or name.startswith(layer + ".") for layer in HTTP_LAYER)
        and name not in DATA_FROM_THE_HTTP_PACKAGES
    ]
    assert offenders == []


def test_accounts_does_not_reach_into_the_games_api() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / "accounts").rglob("*.py")
        for name in imports_of(path)
        if name.startswith("games.api")
    ]
    assert offenders == []


def test_a_push_made_inside_a_transaction_fails_the_tests(db: object) -> None:
    # The whole suite runs with STRICT_PUSHES (tests/conftest.py): any code
    # path that pushes before its commit raises, so every test that exercises
    # a write also checks that its pushes wait for the commit.
    import pytest
    from django.conf import settings
    from django.db import transaction

    from games import broadcast

    assert settings.STRICT_PUSHES
    with pytest.raises(RuntimeError, match="inside a transaction"):
        with transaction.atomic():
            broadcast.to_user(1, {"type": "anything"})


# --- games plug in: the platform names none of them ------------------------------

CODE_SUFFIXES = {".py", ".js", ".html", ".css"}
# Not the platform: tests, benchmarks, documentation, migrations (data).
NOT_PLATFORM = ("tests/", "bench/", "docs/", ".venv/", "staticfiles/")


def game_slugs() -> dict[str, tuple[str, ...]]:
    """Each built-in game's slug and how code spells it (connect-four, connect_four)."""
    from games.engines.registry import ENGINES

    return {slug: tuple({slug, slug.replace("-", "_")}) for slug in ENGINES}


def belongs_to(path: str, slug: str) -> bool:
    """Files that are the game's own: its engine modules, its app, its board, its rules page."""
    module = slug.replace("-", "_")
    name = path.rsplit("/", 1)[-1]
    return (
        path.startswith(f"games/engines/{module}")
        or path.startswith(f"games/{module}/")
        or (path.startswith("frontend/static/boards/") and name.split(".")[0] == slug)
        or path == f"frontend/templates/frontend/rules/{slug}.html"
    )


# Where the platform must name the games, one line each: the registry of
# engines and the list of installed apps (a game's own app).
REGISTRY_LINES = {"games/engines/registry.py", "config/settings.py"}


def test_no_platform_module_names_a_game() -> None:
    import re
    import subprocess

    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders = []
    for path in files:
        if not any(path.endswith(suffix) for suffix in CODE_SUFFIXES) or path.startswith(NOT_PLATFORM):
            continue
        if "/migrations/" in path or path in REGISTRY_LINES:
            continue
        text = (ROOT / path).read_text(encoding="utf-8", errors="replace")
        for slug, spellings in game_slugs().items():
            if belongs_to(path, slug):
                continue
            for spelling in spellings:
                for found in re.finditer(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", text):
                    line = text.count("\n", 0, found.start()) + 1
                    offenders.append(f"{path}:{line}: {spelling}")
    assert offenders == [], "platform code names a game:\n" + "\n".join(offenders)

