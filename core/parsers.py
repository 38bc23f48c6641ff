"""The API's JSON parser: refuses text no column can store and nesting no request needs.

- A lone surrogate (``"\\ud800"``) is valid JSON but not text: PostgreSQL
  refuses it and rendering it back fails, so a chat line or a display name
  holding one was a 500. Refused here as 400 ``bad_text``, for every field.
- JSON nested a thousand deep makes the decoder recurse until Python stops
  it (a 500 for any endpoint). No request here nests more than a few levels;
  past MAX_DEPTH it is 400 ``too_deep``.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy
from rest_framework import parsers

from .errors import Invalid

# Deeper than any request of this API (a Sokoban level's options are the deepest, at 3).
MAX_DEPTH = 32
TOO_DEEP = gettext_lazy("the JSON is nested too deep (see max_depth)")


def _checked(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise Invalid("too_deep", TOO_DEEP, max_depth=MAX_DEPTH)
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise Invalid("bad_text", gettext_lazy("text must be valid Unicode (a lone surrogate was sent)")) from error
    elif isinstance(value, dict):
        for key, item in value.items():
            _checked(key, depth + 1)
            _checked(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _checked(item, depth + 1)


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(stream.read().decode(encoding))
        except RecursionError as error:
            raise Invalid("too_deep", TOO_DEEP, max_depth=MAX_DEPTH) from error
        except ValueError as error:
            raise parsers.ParseError(f"JSON parse error - {error}") from error
        _checked(data, 0)
        return data
