"""Configuration comes only from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL")}
    script = "import django; django.setup(); from django.conf import settings as s; " \
             "print(s.DEBUG, s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'])"
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
    )


def test_the_defaults_are_sqlite_and_the_in_memory_layer() -> None:
    done = settings_with()
    assert done.returncode == 0, done.stderr
    # SQLite through our wrapper of Django's backend (core/db/sqlite: writers queue in the process).
    assert done.stdout.split() == ["True", "core.db.sqlite", "core.layers.InProcessChannelLayer"]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = settings_with(DEBUG="0")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_urls_choose_postgres_and_redis() -> None:
    done = settings_with(
        DEBUG="0", SECRET_KEY="x" * 50, DATABASE_URL="postgres://u@db:5432/g", REDIS_URL="redis://cache:6379/0"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "core.db.postgresql", "core.layers.RedisChannelLayer"]
