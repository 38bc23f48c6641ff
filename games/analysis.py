"""Reviewing finished matches: each position analysed once, in the background, then kept.

``analysis_for`` is what GET /api/matches/{id}/analysis/ calls: the stored
review, or a job queued for one. A runner thread in every scheduling process
(core.hooks.background) claims queued jobs one at a time and runs each in a
child process (games.analysis_worker); progress goes to the match's room
socket as {"type": "analysis", ...}. A job left running by a process that died
is given up after its budget, and queued again on the next request.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import Conflict, NotFound

from . import broadcast
from .engines.words import words
from .models import Analysis, Match
from .options import engine_options
from .selectors import engine_for
from .threads import keep_connections_usable

log = logging.getLogger(__name__)

# CPU seconds a whole review may take (shared out over its positions).
ANALYSIS_SECONDS = 60.0
# A running review is presumed dead this long after its budget would have ended it.
STALE_AFTER_SECONDS = 60.0
POLL_SECONDS = 0.5
PUSH_EVERY_SECONDS = 0.5


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    return {
        "match": analysis.match_id,
        "status": analysis.status,
        "plies": analysis.plies,
        "done": analysis.done,
        "positions": analysis.positions if analysis.status == Analysis.Status.DONE else [],
        "error": analysis.error or None,
    }


def analysis_for(*, match_id: int) -> Analysis:
    """The match's review: stored, under way, or queued now. Only finished matches are reviewed:
    analysing a game in progress would hand a player a computer's help."""
    match = Match.objects.select_related("room").filter(pk=match_id).first()
    if match is None:
        raise NotFound("not_found", words("there is no match %(match)s", match=match_id))
    if match.status == Match.Status.ACTIVE:
        raise Conflict("match_not_over", words("a match is analysed once it is over"))
    _give_up_stale()
    existing = Analysis.objects.filter(match=match).first()
    if existing is not None and existing.status != Analysis.Status.FAILED:
        return existing
    try:
        with transaction.atomic():
            if existing is not None:  # a failed review is tried again on request
                existing.delete()
            analysis = Analysis.objects.create(match=match, plies=match.plies + 1)
    except IntegrityError:  # two requests at once: the other one queued it
        return Analysis.objects.get(match=match)
    return analysis


def _give_up_stale() -> None:
    limit = timezone.now() - timedelta(seconds=ANALYSIS_SECONDS + STALE_AFTER_SECONDS)
    Analysis.objects.filter(status=Analysis.Status.RUNNING, started_at__lt=limit).update(
        status=Analysis.Status.FAILED, error="the server running this review stopped before it finished"
    )


# --- the runner --------------------------------------------------------------


def claim_next() -> Analysis | None:
    for analysis_id in Analysis.objects.filter(status=Analysis.Status.QUEUED).values_list("id", flat=True)[:5]:
        # A conditional update: of several processes' runners exactly one wins.
        claimed = Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.QUEUED).update(
            status=Analysis.Status.RUNNING, started_at=timezone.now()
        )
        if claimed:
            return Analysis.objects.select_related("match__room").get(pk=analysis_id)
    return None


def run_job(analysis: Analysis) -> None:
    from .analysis_worker import run

    match = analysis.match
    engine = engine_for(match.room.game)
    job = {
        "game": match.room.game,
        "players": match.room.players,
        "options": engine_options(engine, match.room.options),
        "seed": match.seed,
        "moves": list(match.moves.order_by("ply").values_list("seat", "notation")),
        "seconds": ANALYSIS_SECONDS,
        "extra_games": list(settings.EXTRA_GAMES),
    }
    positions: list[Any] = [None] * (len(job["moves"]) + 1)
    parent, child = multiprocessing.get_context("spawn").Pipe()
    process = multiprocessing.get_context("spawn").Process(target=run, args=(child, job), daemon=True)
    process.start()
    child.close()
    status, error, last_push = Analysis.Status.FAILED, "", 0.0
    deadline = time.monotonic() + ANALYSIS_SECONDS + STALE_AFTER_SECONDS
    try:
        while time.monotonic() < deadline:
            if not parent.poll(POLL_SECONDS):
                if not process.is_alive():
                    error = "the analysis stopped unexpectedly"
                    break
                continue
            message = parent.recv()
            if message[0] == "position":
                _, ply, entry = message
                positions[ply] = entry
                if time.monotonic() - last_push >= PUSH_EVERY_SECONDS:
                    last_push = time.monotonic()
                    _progress(analysis, ply + 1)
            elif message[0] == "done":
                status = Analysis.Status.DONE
                break
            else:
                error = str(message[1])
                break
        else:
            error = "the analysis took too long"
    except (EOFError, OSError):
        error = "the analysis stopped unexpectedly"
    finally:
        if process.is_alive():
            process.kill()
        process.join(timeout=5)
        parent.close()
    analysis.status = status
    analysis.error = error
    analysis.positions = positions if status == Analysis.Status.DONE else []
    analysis.done = sum(entry is not None for entry in positions)
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["status", "error", "positions", "done", "finished_at"])
    _push(analysis)


def _progress(analysis: Analysis, done: int) -> None:
    analysis.done = done
    Analysis.objects.filter(pk=analysis.pk).update(done=done)
    _push(analysis)


def _push(analysis: Analysis) -> None:
    message = {"type": "analysis", "analysis": {**analysis_json(analysis), "positions": []}}
    room_id = analysis.match.room_id
    transaction.on_commit(lambda: broadcast.to_room(room_id, message), robust=True)


def run_queued() -> int:
    """Run every queued review now (tests and the one-shot scheduler command)."""
    done = 0
    while (analysis := claim_next()) is not None:
        run_job(analysis)
        done += 1
    return done


def run_forever(stop: threading.Event) -> None:
    while not stop.is_set():
        keep_connections_usable()
        try:
            analysis = claim_next()
            if analysis is None:
                stop.wait(POLL_SECONDS)
            else:
                run_job(analysis)
        except Exception:
            log.exception("analysis runner failed")
            stop.wait(1.0)
