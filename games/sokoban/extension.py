"""Sokoban on the platform: rooms by level_id, and each player's progress."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce, Least

from games.engines.base import JSON, BadOptions, OptionSpec, Outcome
from games.engines.words import words
from games.extensions import GameExtension
from games.models import Move

from .models import Level, Progress, SolveJob


class SokobanExtension(GameExtension):
    option_specs = (
        OptionSpec(
            "level_id",
            int,
            0,
            words("a level from GET /api/sokoban/levels/ (0: the `level` option's text, or Microban 1)"),
            minimum=0,
        ),
    )

    def resolve_options(self, options: JSON) -> JSON:
        level_id = options.get("level_id") or 0
        if not level_id:
            return options
        if "level" in options:
            raise BadOptions(words("give either level_id or level, not both"))
        level = Level.objects.filter(pk=level_id).first()
        if level is None:
            raise BadOptions(words("there is no level %(level)s", level=level_id))
        return {**options, "level": level.xsb, "title": level.title}

    def on_finished(self, match: Any, state: Any, outcome: Outcome) -> None:
        level_id = match.room.options.get("level_id") or 0
        user = match.players.filter(seat=0).values_list("user_id", flat=True).first()
        if not level_id or user is None or outcome.results[0] != "win":
            return
        if solved_with_solver(match, user, level_id):
            # Not the player's own solve: marked so, counted apart, never their best.
            reason = words("solved with the solver")
            match.result = {**(match.result or {}), "solver": True, "reason": reason, "reason_words": reason.to_json()}
            _count(user, level_id, solver=True, moves=0, pushes=0)
            return
        _count(user, level_id, solver=False, moves=state.moves, pushes=state.pushes)


def solved_with_solver(match: Any, user_id: int, level_id: int) -> bool:
    """Whether the solver had a hand in this solve, by what the server knows, not by the page's word.

    Either moves of the match were played from a solver's answer on the
    player's behalf (Move.MadeBy.SOLVER), or the solver had already shown this
    player an answer for this level: a solve typed in by hand after that is
    not their own either.
    """
    if match.moves.filter(made_by=Move.MadeBy.SOLVER).exists():
        return True
    level = Level.objects.filter(pk=level_id).only("xsb").first()
    same_level = Q(level_id=level_id) | (Q(xsb=level.xsb) if level is not None else Q())
    answers = SolveJob.objects.filter(same_level, user_id=user_id, status=SolveJob.Status.DONE, result__solved=True)
    return answers.exists()


def _count(user_id: int, level_id: int, *, solver: bool, moves: int, pushes: int) -> None:
    """Add a solve to the player's progress on the level (and, for their own, keep the best)."""
    if solver:
        changes: dict[str, Any] = {"solver_solves": F("solver_solves") + 1}
        first: dict[str, Any] = {"solves": 0, "solver_solves": 1}
    else:
        # Coalesce: the row may hold solves with the solver only, and no best yet.
        changes = {
            "best_moves": Least(Coalesce(F("best_moves"), moves), moves),
            "best_pushes": Least(Coalesce(F("best_pushes"), pushes), pushes),
            "solves": F("solves") + 1,
        }
        first = {"best_moves": moves, "best_pushes": pushes}

    def improve() -> int:
        return Progress.objects.filter(user_id=user_id, level_id=level_id).update(**changes)

    if improve():
        return
    try:
        # A savepoint: if the same player solved this level in another room
        # at the same moment, their row now exists; the winning move must
        # not be rolled back for it.
        with transaction.atomic():
            Progress.objects.create(user_id=user_id, level_id=level_id, **first)
    except IntegrityError:
        improve()
