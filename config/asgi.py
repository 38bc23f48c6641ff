"""HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from games.auth import SameHostOrNoOrigin, SocketAuthStack  # noqa: E402
from games.scheduler import start_in_background  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameHostOrNoOrigin(SocketAuthStack(URLRouter(websocket_urlpatterns))),
    }
)

# AI seats and turn timers are played by this process's scheduler thread
# (SCHEDULER=off to leave them to `manage.py run_scheduler`).
start_in_background()
