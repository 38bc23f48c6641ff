"""Sokoban's writes: uploading levels, starting and cancelling solves."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from core.errors import Conflict, Invalid, NotFound
from games.engines.words import words
from games.engines.sokoban import LevelError, parse_level, parse_levels
from games.engines.sokoban.levels import Level as EngineLevel
from games.engines.sokoban.engine import RESET
from games.engines.sokoban.solver import ALGORITHMS, DEFAULT_MEMORY_MB, UNSOLVABLE
from games.models import Match, Move
from games.selectors import match_state
from games.services import move_make, write

from . import jobs
from .pushes import solve_changed
from .collections import UPLOADS
from .fair import FairSlots, default_size
from .models import Level, SolveJob

MAX_UPLOAD_LEVELS = 20
VERIFY_SECONDS = 3.0
VERIFY_MEMORY_MB = 512
DEFAULT_TIME_LIMIT = 30.0
MAX_TIME_LIMIT = 60.0  # the server's cap per solve


def _parse_upload(text: Any) -> list[EngineLevel]:
    if not isinstance(text, str) or not text.strip():
        raise Invalid("bad_level", words("the upload is empty: send the level text (XSB or numeric) as `text`"))
    try:
        found = parse_levels(text)
    except LevelError as error:
        raise Invalid("bad_level", error.message) from error
    if len(found) > MAX_UPLOAD_LEVELS:
        raise Invalid(
            "bad_level", words("at most %(maximum)s levels per upload, not %(count)s", maximum=MAX_UPLOAD_LEVELS, count=len(found))
        )
    return found


def _verify(level: EngineLevel, number: int) -> str:
    """Solvable or unverified; an unsolvable level is refused."""
    kind, payload = jobs.solve_in_child(level.to_xsb(title=False), "best", VERIFY_SECONDS, VERIFY_MEMORY_MB)
    if kind == "result" and payload.get("solved"):
        return Level.Verified.SOLVABLE
    if kind == "result" and payload.get("status") == UNSOLVABLE:
        if number:
            raise Invalid("unsolvable_level", words("level %(level)s cannot be solved: the solver proved it", level=number))
        raise Invalid("unsolvable_level", words("the level cannot be solved: the solver proved it"))
    return Level.Verified.UNVERIFIED


# Checks of uploaded levels: as many at once as the machine has cores to
# spare, shared round-robin between the players waiting (games/sokoban/fair.py).
VERIFY_SLOTS = FairSlots(default_size())


def level_upload(*, user: User, text: Any, title: Any = None) -> list[Level]:
    found = _parse_upload(text)
    numbered = [(level, i + 1 if len(found) > 1 else 0) for i, level in enumerate(found)]

    def check(item: tuple[EngineLevel, int]) -> str:
        with VERIFY_SLOTS.slot(user.pk):
            return _verify(*item)

    # Verify outside the transaction (seconds each, no lock needed), the
    # levels of one upload in parallel as far as the slots allow.
    with ThreadPoolExecutor(max_workers=min(len(numbered), VERIFY_SLOTS.size), thread_name_prefix="verify") as pool:
        verdicts = list(pool.map(check, numbered))
    return _store_levels(user=user, found=found, verdicts=verdicts, title=title)


@write
def _store_levels(*, user: User, found: list[EngineLevel], verdicts: list[str], title: Any) -> list[Level]:
    if title is not None and (not isinstance(title, str) or len(title) > 100):
        raise Invalid("invalid", words("title must be text of at most 100 characters"))
    first = (Level.objects.filter(collection=UPLOADS).aggregate(n=Max("number"))["n"] or 0) + 1
    stored = []
    for offset, (level, verdict) in enumerate(zip(found, verdicts, strict=True)):
        number = first + offset
        name = (title if len(found) == 1 and title else level.title) or f"Upload {number}"
        stored.append(
            Level.objects.create(
                collection=UPLOADS,
                number=number,
                title=name[:120],
                xsb=level.to_xsb(title=False),
                width=level.width,
                height=level.height,
                boxes=len(level.boxes),
                verified=verdict,
                uploaded_by=user,
            )
        )
    return stored


def _number(value: Any, name: str, default: float, cap: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= cap:
        raise Invalid(
            "invalid", words("%(name)s must be a number of seconds above 0 and at most %(maximum)s", name=name, maximum=f"{cap:g}")
        )
    return float(value)


@write
def solve_start(*, user: User, level: Any = None, level_id: Any = None, algorithm: Any = None,
                time_limit: Any = None) -> SolveJob:
    algorithm = algorithm or "best"
    if algorithm not in ALGORITHMS:
        raise Invalid("invalid", words("algorithm must be one of: %(choices)s", choices=", ".join(ALGORITHMS)))
    limit = _number(time_limit, "time_limit", DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT)
    stored: Level | None = None
    if level_id is not None:
        if level is not None:
            raise Invalid("invalid", words("give either level or level_id, not both"))
        if isinstance(level_id, bool) or not isinstance(level_id, int):
            raise Invalid("invalid", words("level_id must be a level's id"))
        stored = Level.objects.filter(pk=level_id).first()
        if stored is None:
            raise NotFound("not_found", words("there is no level %(level)s", level=level_id))
        xsb = stored.xsb
    else:
        if not isinstance(level, str):
            raise Invalid("invalid", words("give the level's text as `level`, or a `level_id`"))
        try:
            xsb = parse_level(level).to_xsb(title=False)
        except LevelError as error:
            raise Invalid("bad_level", error.message) from error
    # One solve at a time per player: the machine has few cores to share.
    # Locking the player's row serialises two requests at once (a double
    # click); locking their jobs would lock nothing when none runs yet.
    User.objects.select_for_update().filter(pk=user.pk).first()
    jobs.expire_stale_jobs()
    running = SolveJob.objects.filter(
        user=user, status__in=[SolveJob.Status.QUEUED, SolveJob.Status.RUNNING]
    ).first()
    if running is not None:
        raise Conflict(
            "solve_in_progress",
            words("your solve %(job)s is still running; cancel it first", job=running.pk),
            job=str(running.pk),
        )
    job = SolveJob.objects.create(
        user=user, level=stored, xsb=xsb, algorithm=algorithm, time_limit=limit, memory_limit_mb=DEFAULT_MEMORY_MB
    )
    solve_changed(job.pk)
    return job


@write
def solve_cancel(*, user: User, job_id: Any) -> SolveJob:
    job = SolveJob.objects.select_for_update().filter(pk=job_id, user=user).first()
    if job is None:
        raise NotFound("not_found", f"there is no solve {job_id} of yours")
    if job.status in (SolveJob.Status.DONE, SolveJob.Status.CANCELLED, SolveJob.Status.FAILED):
        raise Conflict("solve_over", words("the solve is already %(status)s", status=job.status))
    job.cancel_requested = True
    # Queued, or "running" in a process that is gone (a crash): nobody will
    # see the flag, so the cancel takes effect here and now.
    if job.status == SolveJob.Status.QUEUED or jobs.is_stale(job):
        job.status = SolveJob.Status.CANCELLED
        job.finished_at = timezone.now()
    job.save(update_fields=["cancel_requested", "status", "finished_at"])
    solve_changed(job.pk)
    return job




def _answer_of(user: User, job_id: Any) -> tuple[SolveJob, str]:
    job = SolveJob.objects.filter(pk=job_id, user=user).first()
    if job is None:
        raise NotFound("not_found", f"there is no solve {job_id} of yours")
    result = job.result or {}
    if job.status != SolveJob.Status.DONE or not result.get("solved") or not result.get("solution"):
        raise Conflict("no_solution", words("that solve found no solution to play"))
    return job, str(result["solution"])


def solution_step(*, user: User, job_id: Any, match_id: Any, version: Any) -> Match:
    """Play the next move of a solver's answer in ``user``'s Sokoban match, on their behalf.

    The server, not the page, picks the move: the next letter of the solution
    while the level's path so far is the start of it (with no undone steps in
    the counters), else ``reset`` to play it from the level's start. Each move
    is logged as made by the solver, so the solve is never taken for the
    player's own (games.sokoban.extension). One move a call: the page shows
    the solution being played, step by step.
    """
    job, solution = _answer_of(user, job_id)
    if isinstance(match_id, bool) or not isinstance(match_id, int):
        raise Invalid("invalid", words("match must be the id of your Sokoban match"))
    match = Match.objects.select_related("room").filter(pk=match_id).first()
    if match is None or match.room.game != "sokoban":
        raise NotFound("not_found", words("there is no Sokoban match %(match)s", match=match_id))
    room_level = match.room.options.get("level_id") or 0
    if not (job.level_id and job.level_id == room_level) and job.xsb != _room_xsb(match.room.options):
        raise Conflict("other_level", words("that solve is for another level"))
    if version != match.version:
        raise Conflict(
            "stale_version",
            words("the match is at version %(version)s, not %(yours)s; reload it", version=match.version, yours=version),
        )
    state = match_state(match)
    path = state.path
    if state.solved:
        raise Conflict("match_over", words("the level is solved"))
    # At the level's start the answer simply begins; elsewhere it goes back there first.
    move = solution[len(path)] if _playing(match, state.moves, path, solution) else RESET
    return move_make(user=user, match_id=match.pk, move=move, version=version, made_by=Move.MadeBy.SOLVER)


def _playing(match: Match, moves: int, path: str, solution: str) -> bool:
    """Whether the solver's answer is being played here: the path is the start of the
    solution, with no undone steps, and every one of its moves was the solver's."""
    if moves != len(path) or not solution.lower().startswith(path.lower()) or len(path) >= len(solution):
        return False
    last = Move.objects.filter(match=match).order_by("-ply").values_list("made_by", flat=True)[: len(path)]
    return all(made_by == Move.MadeBy.SOLVER for made_by in last)


def _room_xsb(options: dict[str, Any]) -> str | None:
    try:
        return parse_level(str(options.get("level", ""))).to_xsb(title=False)
    except LevelError:
        return None
