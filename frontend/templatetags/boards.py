"""``{% board_assets slug %}``: a game's board script, and its stylesheet if it has one.

A new game brings ``static/boards/<slug>.js`` (and optionally ``<slug>.css``);
no template changes.
"""

from __future__ import annotations

from functools import cache

from django import template
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html

register = template.Library()


@cache
def _has_stylesheet(slug: str) -> bool:
    return finders.find(f"boards/{slug}.css") is not None


@register.simple_tag
def board_assets(slug: str) -> str:
    script = format_html('<script src="{}"></script>', static(f"boards/{slug}.js"))
    if not _has_stylesheet(slug):
        return script
    return format_html('<link rel="stylesheet" href="{}">{}', static(f"boards/{slug}.css"), script)
