"""The OpenAPI schema says what the server answers (issue 10).

Schemathesis generates requests for every operation of /api/schema/ (its
examples, boundary cases and random data; 25 a operation) against a real
server on the embedded default, with a token, and fails on any 5xx, any
answer that does not match the schema for its status, or an undocumented
content type. Logging out is left out: it would revoke the token the run
uses.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import using_postgres
from tests.servers import Server, fresh_sqlite_env

ST = Path(sys.executable).with_name("st")


@pytest.mark.skipif(using_postgres(), reason="runs once, in the embedded-default round")
def test_the_api_answers_as_its_schema_says() -> None:
    with Server(fresh_sqlite_env("schema", SCHEDULER="off")) as server:
        token = httpx.post(
            f"{server.url}/api/auth/register/", json={"username": "schemathesis", "password": "long-enough"}
        ).json()["token"]
        done = subprocess.run(
            [
                str(ST), "run", f"{server.url}/api/schema/",
                "-H", f"Authorization: Token {token}",
                "--checks", "not_a_server_error,response_schema_conformance,content_type_conformance",
                "--phases", "examples,coverage,fuzzing",
                "--max-examples", "25",
                "--generation-deterministic",
                "--request-timeout", "20",
                "--exclude-path", "/api/auth/logout/",
            ],
            capture_output=True, text=True, timeout=600,
        )
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
