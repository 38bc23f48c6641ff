"""The site's URLs and two that fail, to see the site's own 500 (tests only)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler404, handler500, urlpatterns as site


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, on purpose")


urlpatterns = [path("api/boom/", boom), path("boom/", boom), *site]
__all__ = ["handler404", "handler500", "urlpatterns"]
