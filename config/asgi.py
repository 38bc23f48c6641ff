"""One ASGI application: HTTP through Django on a pool of long-lived threads,
WebSockets through Channels on the event loop.

Why not Django's own ASGI handler for HTTP: it runs each sync view in a new
thread made for that request, and with it a new database connection; measured
here, that was 80% of the server's CPU for a trivial authenticated GET. The
views are synchronous (the ORM is), so they run as a WSGI application on a
fixed pool of threads instead (core.threaded_wsgi), each keeping its database
connection from request to request. The sockets stay async on the loop, where an idle
socket costs nothing.

The loop is remembered at start-up so that pushes made by request threads and
background threads after a commit are handed to it (games.broadcast).
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from core.handler import wsgi_application  # noqa: E402

django_wsgi_app = wsgi_application()

from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from core import hub  # noqa: E402
from core.collector import tune_collector  # noqa: E402
from core.threaded_wsgi import ThreadedWSGI  # noqa: E402
from core.workers import die_with_parent, pin_to_one_core  # noqa: E402
from games.auth import SameHostOrNoOrigin, SocketAuthStack  # noqa: E402
from games.broadcast import remember_server_loop  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.scheduler import start_in_background  # noqa: E402


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Start-up: note the loop pushes go to, and start this process's scheduler."""
    import asyncio

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            remember_server_loop(asyncio.get_running_loop())
            tune_collector()
            if os.environ.get(hub.HUB_ENV):
                # One of `serve --workers N`'s processes: it goes when their
                # supervisor (and the hub in it) goes, and links to the hub
                # before its first socket comes.
                die_with_parent()
                await get_channel_layer().start()
            if settings.PIN_CORES:
                # After die_with_parent, which gives a child every core.
                pin_to_one_core()
            # AI seats, turn timers and solves are played by this process
            # (SCHEDULER=off leaves them to `manage.py run_scheduler`).
            start_in_background()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "http": ThreadedWSGI(
            django_wsgi_app,
            threads=settings.HTTP_THREADS,
            # Django refuses bodies over DATA_UPLOAD_MAX_MEMORY_SIZE with a
            # 413 of its own; this bound only keeps a huge body out of memory.
            max_body=2 * settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        ),
        "websocket": SameHostOrNoOrigin(SocketAuthStack(URLRouter(websocket_urlpatterns))),
        "lifespan": lifespan,
    }
)
