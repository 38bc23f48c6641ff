"""``makemessages`` that also finds the games' words.

Engines write their messages with ``words("...", **args)`` and mark names shown
in a context with ``term(context, name)`` (games/engines/words.py); xgettext is
told those keywords besides Django's own. Run per app, e.g.::

    cd games && ../.venv/bin/python ../manage.py makemessages -l ko --no-obsolete
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=words", "--keyword=term:1c,2"]
