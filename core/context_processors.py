"""What every page's template gets from the hooks: the apps' links in the top bar."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from . import hooks


def nav_links(request: HttpRequest) -> dict[str, Any]:
    return {"nav_links": [{"label": label, "url": reverse(name)} for label, name in hooks.NAV_LINKS]}
