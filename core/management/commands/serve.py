"""Serve the site: HTTP and WebSockets in one uvicorn process (or several).

`make run` calls this. The same application also runs under any ASGI server
(`uvicorn config.asgi:application`); this command only fixes the options
that matter here: uvloop and httptools, no per-request access log (it costs
more CPU than a trivial request), and the lifespan events that start the
scheduler and tell the pushes which loop to use.

With ``--workers N`` uvicorn's supervisor (this process) starts N server
processes on the one port. On PostgreSQL they share pushes and throttles
through Redis; on the embedded default (SQLite, no REDIS_URL) this process
runs the hub they share instead (core/hub.py).
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand

KEEP_ALIVE_SECONDS = 75


class Command(BaseCommand):
    help = "Serve HTTP and WebSockets (uvicorn) on HOST:PORT."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="server processes sharing the port (on PostgreSQL, more than one needs REDIS_URL)",
        )
        parser.add_argument("--access-log", action="store_true", help="log every request")

    def handle(self, *args: Any, **options: Any) -> None:
        import uvicorn
        from django.conf import settings

        if options["workers"] > 1 and not settings.REDIS_URL:
            if settings.DATABASES["default"]["ENGINE"] != "core.db.sqlite":
                self.stderr.write("several workers on PostgreSQL need REDIS_URL: their sockets share pushes through Redis")
                raise SystemExit(2)
            # The embedded default on several processes: this (the supervising)
            # process runs the hub they share pushes and counters through.
            from core import hub

            path = hub.hub_path()
            hub.start_in_thread(path)
            os.environ[hub.HUB_ENV] = path
        uvicorn.run(
            "config.asgi:application",
            host=options["host"],
            port=options["port"],
            workers=options["workers"],
            loop="uvloop",
            http="httptools",
            ws="websockets-sansio",
            ws_per_message_deflate=settings.WS_COMPRESSION,
            lifespan="on",
            access_log=options["access_log"],
            # Longer than the clients' own idle expiry (httpx and Go: 5 s, as
            # uvicorn's default): with equal times a client reusing its idle
            # connection just as the server closes it gets a reset instead of
            # an answer (a bot that thinks five seconds, say).
            timeout_keep_alive=KEEP_ALIVE_SECONDS,
            log_level="warning",
            # Behind a reverse proxy the client's address comes from its headers.
            proxy_headers=True,
            forwarded_allow_ips="127.0.0.1",
        )
