"""Sokoban on the platform: rooms by level_id, and each player's progress."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Least

from games.engines.base import JSON, BadOptions, OptionSpec, Outcome
from games.extensions import GameExtension

from .models import Level, Progress


class SokobanExtension(GameExtension):
    option_specs = (
        OptionSpec(
            "level_id",
            int,
            0,
            "a level from GET /api/sokoban/levels/ (0: the `level` option's text, or Microban 1)",
            minimum=0,
        ),
    )

    def resolve_options(self, options: JSON) -> JSON:
        level_id = options.get("level_id") or 0
        if not level_id:
            return options
        if "level" in options:
            raise BadOptions("give either level_id or level, not both")
        level = Level.objects.filter(pk=level_id).first()
        if level is None:
            raise BadOptions(f"there is no level {level_id}")
        return {**options, "level": level.xsb, "title": level.title}

    def on_finished(self, match: Any, state: Any, outcome: Outcome) -> None:
        level_id = match.room.options.get("level_id") or 0
        user = match.players.filter(seat=0).values_list("user_id", flat=True).first()
        if not level_id or user is None or outcome.results[0] != "win":
            return
        moves, pushes = state.moves, state.pushes

        def improve() -> int:
            return Progress.objects.filter(user_id=user, level_id=level_id).update(
                best_moves=Least(F("best_moves"), moves),
                best_pushes=Least(F("best_pushes"), pushes),
                solves=F("solves") + 1,
            )

        if improve():
            return
        try:
            # A savepoint: if the same player solved this level in another room
            # at the same moment, their row now exists; the winning move must
            # not be rolled back for it.
            with transaction.atomic():
                Progress.objects.create(user_id=user, level_id=level_id, best_moves=moves, best_pushes=pushes)
        except IntegrityError:
            improve()
