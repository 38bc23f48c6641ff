"""``GET /healthz``: whether this server process can do its work, for load balancers and monitors.

200 when the database answers and the channel layer does (Redis, or the hub
of `serve --workers N` without Redis, when the site runs on several
processes; the in-process layer is always there), else
503 naming the part that is down. No login: it says nothing about anyone.
"""

from __future__ import annotations

import logging
import os

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from core import hub

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 2.0


def _database() -> str:
    pool = getattr(connection, "pool", None)
    try:
        if pool is not None:
            # PostgreSQL through the process's pool: wait briefly, not the
            # pool's own 10 s, so that the check itself answers in time.
            if pool.closed:  # Django opens it on the process's first query; this may be it
                pool.open()
            with pool.connection(timeout=TIMEOUT_SECONDS) as conn:
                conn.execute("SELECT 1").fetchone()
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except Exception as error:  # any failure to answer is "down", said with its reason
        log.warning("health: the database is down: %s", error)
        return "down"
    return "ok"


def _channel_layer() -> str:
    hub_path = os.environ.get(hub.HUB_ENV)
    if not settings.REDIS_URL and hub_path:
        # One of `serve --workers N`'s processes: the hub in their supervisor.
        try:
            hub.ping(hub_path, TIMEOUT_SECONDS)
        except OSError as error:
            log.warning("health: the hub the server processes share is down: %s", error)
            return "down"
        return "ok"
    if not settings.REDIS_URL:
        return "ok"  # in-process: up while this process is
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError as error:
        log.warning("health: the channel layer (Redis) is down: %s", error)
        return "down"
    return "ok"


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    parts = {"database": _database(), "channel_layer": _channel_layer()}
    down = [name for name, state in parts.items() if state != "ok"]
    return JsonResponse(
        {"status": "down" if down else "ok", **parts, "down": down}, status=503 if down else 200
    )
