"""Deployment (issue 10): check --deploy passes with the production variables set,
the site has its own 404 and 500 (JSON under /api/, with a request id that is
also in the log), and /healthz says which part is down."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from typing import Any

import httpx
import pytest
from django.test import Client

from tests.servers import ROOT, Server, manage, server_env

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k3-f8Z!q9s-Lr2m_Vx7pT0cW4yN6bJ1hA5dG8eK0uQ3iO9zR2-wY6tM4nB8vC1xL5",
    "ALLOWED_HOSTS": "games.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://games.example.org",
    "HTTPS": "1",
}


def check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG")}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True, text=True,
    )


def test_check_deploy_passes_with_the_production_variables() -> None:
    done = check_deploy(**PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_fails_without_https_settings() -> None:
    done = check_deploy(**{**PRODUCTION, "HTTPS": "0"})
    assert done.returncode != 0
    assert "SECURE_SSL_REDIRECT" in done.stdout + done.stderr


@pytest.fixture
def production(settings: Any) -> Any:
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.deploy.boom_urls"
    return settings


@pytest.mark.django_db
def test_the_site_has_its_own_404_page(production: Any) -> None:
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert "There is no page at this address" in response.content.decode()
    api = Client().get("/api/no-such-endpoint/")
    assert api.status_code == 404 and api.json()["code"] == "not_found"


@pytest.mark.django_db
def test_a_500_is_the_sites_own_page_and_json_under_the_api_with_the_logged_request_id(
    production: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="boardgames.errors"):
        api = client.get("/api/boom/")
    assert api.status_code == 500
    answer = api.json()
    assert answer["code"] == "server_error" and answer["request_id"] == api["X-Request-Id"]
    logged = [r for r in caplog.records if r.name == "boardgames.errors"]
    assert any(answer["request_id"] in r.getMessage() and r.exc_info for r in logged)
    page = client.get("/boom/")
    assert page.status_code == 500 and page["X-Request-Id"] in page.content.decode()
    assert "Something went wrong" in page.content.decode()


@pytest.mark.django_db
def test_healthz_answers_without_a_login() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok", "down": []}


@pytest.mark.django_db
def test_healthz_names_the_channel_layer_when_redis_is_down(settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"] == ["channel_layer"] and response.json()["database"] == "ok"


@pytest.mark.django_db
def test_healthz_names_the_channel_layer_when_the_hub_of_several_processes_is_down(
    settings: Any, monkeypatch: Any, tmp_path: Any
) -> None:
    settings.REDIS_URL = ""
    monkeypatch.setenv("BOARDGAMES_HUB", str(tmp_path / "gone.sock"))
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"] == ["channel_layer"] and response.json()["database"] == "ok"


@pytest.mark.postgres
def test_healthz_names_the_database_when_it_is_down() -> None:
    # A real server on PostgreSQL whose database goes away under it.
    import psycopg

    name = f"health_{os.getpid()}"
    admin = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = server_env(DATABASE_URL=admin.rsplit("/", 1)[0] + f"/{name}", SCHEDULER="off")
    manage(env, "migrate", "--noinput")
    try:
        with Server(env) as server:
            assert httpx.get(f"{server.url}/healthz").status_code == 200
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            response = httpx.get(f"{server.url}/healthz")
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert response.status_code == 503
    assert response.json()["down"] == ["database"] and response.json()["channel_layer"] == "ok"
