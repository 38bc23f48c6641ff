"""The games' words for people, written once in English and translated where they are shown.

An engine says things to players: a move in words (``describe``), why a game
ended (``Outcome.reason``), why a move or an option is refused (``IllegalMove``,
``BadNotation``, ``BadOptions``). It writes them with ``words``::

    words("dropped a disc in column %(column)s", column=4)

The result is a ``Words``: a ``str`` holding the English text ("dropped a
disc in column 4"), so everything that reads it as text (logs, records, tests,
the move list's ``text``) goes on working, which also keeps its ``template``
and ``args``. Whoever shows it to a person translates the template and fills
in the args (Django's gettext on the server; the scripts' gettext and
interpolate in the browser, from ``to_json()``). Engines stay pure Python:
nothing here imports a translation library.

The rules of the templates, so that one catalogue serves Python and the
scripts alike:

- placeholders are named, %-style: ``%(name)s`` (``%(name)d``, ``%(name)r``);
- an arg is a number, a piece of notation or a name (never translated), or
  ``Words`` of its own (a direction, a seat's name), translated in turn: a
  nested arg travels as ``{"text", "args"}`` inside ``args``;
- notation is never translated, so it is always an arg, never template text.

``makemessages`` finds the templates by the keyword ``words`` (and ``term``
for single names in a context, such as an AI level's name); see
core/management/commands/makemessages.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Union

# What a placeholder may be filled with.
Arg = Union[str, int, float, "Words"]


class Words(str):
    """English text that remembers the template and args it was made from."""

    template: str
    args: dict[str, Arg]

    def __new__(cls, template: str, args: Mapping[str, Arg] | None = None) -> Words:
        filled = dict(args or {})
        self = super().__new__(cls, template % filled if filled else template)
        self.template = template
        self.args = filled
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a bot's answer from a worker process) as template and args, not as plain text.
        return (Words, (self.template, self.args))

    def to_json(self) -> dict[str, Any]:
        """``{"text": template, "args": {...}}``: what a script needs to say it in any language."""
        return {
            "text": self.template,
            "args": {name: value.to_json() if isinstance(value, Words) else value for name, value in self.args.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Words:
        """The inverse of ``to_json``."""
        args = {
            name: cls.from_json(value) if isinstance(value, Mapping) else value
            for name, value in dict(data.get("args") or {}).items()
        }
        return cls(str(data["text"]), args)

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The text in the language of ``gettext`` (nested words translated too).

        A translation whose placeholders do not match the args (a catalogue
        mistake) falls back to the English text rather than failing.
        """
        args = {
            name: value.translated(gettext) if isinstance(value, Words) else value for name, value in self.args.items()
        }
        template = gettext(self.template)
        if not args:
            return template
        try:
            return template % args
        except (KeyError, TypeError, ValueError):
            return self.template % args


def words(template: str, **args: Arg) -> Words:
    """Words for people: ``template`` (English, with ``%(name)s`` placeholders) filled with ``args``."""
    return Words(template, args)


def term(context: str, text: str) -> str:
    """Mark a name shown to people (``text``) for translation in ``context``, and return it unchanged.

    For identifiers that are also shown, such as an AI level's name ("easy"):
    the value stays the identifier; the scripts show ``pgettext(context, text)``.
    """
    return text


def either(choices: tuple[Arg, ...] | list[Arg]) -> Arg:
    """``a or b`` (``a, b or c``) in words: the way a message lists what is allowed."""
    if len(choices) == 1:
        return choices[0]
    return words("%(choices)s or %(last)s", choices=", ".join(str(c) for c in choices[:-1]), last=choices[-1])
