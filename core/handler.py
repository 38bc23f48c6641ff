"""Django's WSGI handler, with each request's objects freed as soon as it is answered.

A request leaves a hundred-odd objects that point at each other: the
request and its lazy user (whose loader holds the request), its messages
storage (which holds it too), REST framework's view and request (each
holds the other) and its response (whose renderer context holds it). None
of them is freed when the request ends: reference counting cannot free a
cycle, so they wait for the garbage collector, which then has thousands of
requests' worth to find and free at once. Under load (bench/load.py, 300
games of players who think, two processes) that was 45,000 objects in
every young collection and pauses of 40-200 ms for every request and push
behind them: the slowest moves.

So when the response is closed (the server has sent it; Django then closes
the request), the links that make the cycles are cut, and reference
counting frees the lot at once, in the thread that served the request. (A
page rendered from a template is the exception: Django's template context
is a cycle of its own that holds the request; pages are not the move path.)
"""

from __future__ import annotations

from typing import Any

import django
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest, HttpResponseBase


def _cut_cycles(request: HttpRequest, response: HttpResponseBase) -> None:
    context: dict[str, Any] | None = getattr(response, "renderer_context", None)
    if context:
        # REST framework: the view and its Request hold each other (and the
        # request its parser context, which holds the view again).
        for part in (context.get("view"), context.get("request")):
            if part is not None and hasattr(part, "__dict__"):
                part.__dict__.clear()
        context.clear()
    request.__dict__.clear()


class CycleFreeWSGIHandler(WSGIHandler):
    def get_response(self, request: HttpRequest) -> HttpResponseBase:
        response = super().get_response(request)
        # Run by response.close() after request.close() (which Django added
        # just before); nothing reads either object after that.
        response._resource_closers.append(lambda: _cut_cycles(request, response))
        return response


def wsgi_application() -> CycleFreeWSGIHandler:
    """As django.core.wsgi.get_wsgi_application(), with the handler above."""
    django.setup(set_prefix=False)
    return CycleFreeWSGIHandler()
