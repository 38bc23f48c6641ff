"""Plays the turns no person is at the keyboard for: AI seats and expired timers.

Everything it needs is in the database (``Match.bot_turn``,
``Match.turn_deadline``), so it works with nobody connected and picks up
where it was after a restart. Every server process runs one (unless
``SCHEDULER=off``, e.g. when ``manage.py run_scheduler`` runs it apart); they
may race, and the services' version checks make the loser's move a no-op.

Bots think in a worker process so a strong bot's seconds of search never hold
the GIL of the process that answers players.
"""

from __future__ import annotations

import fcntl
import logging
import multiprocessing
import os
import random
import threading
import time

from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone

from core import hooks, hub
from core.errors import DomainError
from core.workers import watched

from . import broadcast, services, wakeup
from .threads import keep_connections_usable
from .engines.bots import choose_move
from .engines.registry import register_paths
from .models import Match
from .selectors import engine_for, match_state

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
BATCH = 50
# Bots answer within their own budgets (at most a few seconds), counted by
# each bot from when it starts thinking; past this from when a worker took
# the turn, the worker is presumed stuck.
THINK_LIMIT_SECONDS = 20.0
# A turn still waiting for a free worker this long after it came (the
# workers far behind, many AI games at once) is played by the fallback.
QUEUE_LIMIT_SECONDS = 120.0
# How often a server process that does not run the scheduler checks whether
# the one that does is gone (`serve --workers N`).
ELECTION_SECONDS = 1.0


def worker_count() -> int:
    """AI workers for this machine: a core each but one (kept for the players' requests), at most 4.

    AI_WORKERS in the environment says otherwise.
    """
    if os.environ.get("AI_WORKERS"):
        return max(1, int(os.environ["AI_WORKERS"]))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 2
    return max(1, min(4, cores - 1))


@dataclass
class Thinking:
    future: Future[str]
    version: int
    seat: int
    queued: float = field(default_factory=time.monotonic)
    # When a worker took the turn (its future started running); None while queued.
    taken: float | None = None


class Scheduler:
    def __init__(self, pool: Executor | None = None) -> None:
        # pool=None: bots think inline (tests and the one-shot command).
        self.pool = pool
        self.thinking: dict[int, Thinking] = {}

    def tick(self) -> int:
        """One pass: time out expired turns, start and finish bot moves. Returns moves stored."""
        stored = 0
        due = Match.objects.filter(status=Match.Status.ACTIVE, turn_deadline__lte=timezone.now())
        for match_id in list(due.values_list("id", flat=True)[:BATCH]):
            stored += self._safely(lambda: services.turn_timeout(match_id=match_id))
        stored += self._collect()
        # Oldest waiting first, and never the ones already thinking: a burst of
        # new games with bots must not starve the ones that were waiting.
        bots = (
            Match.objects.filter(status=Match.Status.ACTIVE, bot_turn=True)
            .exclude(pk__in=list(self.thinking))
            .select_related("room")
            .order_by("updated_at")
        )
        for match in list(bots[:BATCH]):
            stored += self._think(match)
        return stored

    def _think(self, match: Match) -> int:
        engine = engine_for(match.room.game)
        state = match_state(match)
        seat = engine.seat_to_move(state)
        player = match.players.filter(seat=seat).exclude(bot="").first() if seat is not None else None
        if player is None:
            return 0
        args = (match.room.game, player.bot, engine.serialize(state), player.seat,
                random.Random(f"{match.seed}:{match.version}").getrandbits(32))
        job = Thinking(Future(), match.version, player.seat)
        if self.pool is None:
            try:
                job.future.set_result(choose_move(*args))
            except Exception as error:
                job.future.set_exception(error)
            return self._finish(match.pk, job)
        try:
            job.future = self.pool.submit(choose_move, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the pool is unusable until replaced.
            log.error("bot worker pool broke; starting a new one")
            self.pool = worker_pool()
            job.future = self.pool.submit(choose_move, *args)
        job.future.add_done_callback(lambda _: wakeup.wake())
        self.thinking[match.pk] = job
        return 0

    def _collect(self) -> int:
        stored = 0
        now = time.monotonic()
        for match_id, job in list(self.thinking.items()):
            if job.taken is None and job.future.running():
                job.taken = now
            if job.future.done():
                del self.thinking[match_id]
                stored += self._finish(match_id, job)
                continue
            # The think limit counts from when a worker took the turn, not from
            # when it was queued: under load a queue is not a stuck bot.
            stuck = job.taken is not None and now - job.taken > THINK_LIMIT_SECONDS
            waited_too_long = job.taken is None and now - job.queued > QUEUE_LIMIT_SECONDS
            if stuck or waited_too_long:
                del self.thinking[match_id]
                job.future.cancel()
                log.error(
                    "bot in match %s %s; playing a random move", match_id,
                    f"did not answer in {THINK_LIMIT_SECONDS:.0f} s" if stuck
                    else f"waited {QUEUE_LIMIT_SECONDS:.0f} s for a free worker",
                )
                stored += self._safely(
                    lambda: services.bot_play_random(match_id=match_id, version=job.version, seat=job.seat)
                )
        return stored

    def _finish(self, match_id: int, job: Thinking) -> int:
        """Store the bot's answer; if it crashed or answered an illegal move, play a random one.

        Asking again would get the same answer (its randomness is seeded by
        the version), so the original game's own fallback, a random legal
        move, keeps the match going instead of looping on a broken bot.
        """
        try:
            move = job.future.result()
            return 1 if services.bot_play(match_id=match_id, version=job.version, seat=job.seat, move=move) else 0
        except DomainError as error:
            log.error("bot move refused in match %s: %s; playing a random move", match_id, error.detail)
        except Exception:
            log.exception("bot crashed in match %s; playing a random move", match_id)
        return self._safely(lambda: services.bot_play_random(match_id=match_id, version=job.version, seat=job.seat))

    @staticmethod
    def _safely(write: object) -> int:
        try:
            return 1 if write() else 0  # type: ignore[operator]
        except DomainError as error:  # an illegal bot move is a bug in the bot: log it, never loop on a crash
            log.error("scheduler write refused: %s %s", error.code, error.detail)
        except Exception:
            log.exception("scheduler write failed")
        return 0

    def run_forever(self, stop: threading.Event) -> None:
        while not stop.is_set():
            keep_connections_usable()
            try:
                stored = self.tick()
                run_periodic_jobs()
                if not stored and not stop.is_set():
                    wakeup.wait(POLL_SECONDS)
            except Exception:
                log.exception("scheduler tick failed")
                stop.wait(1.0)


def run_periodic_jobs() -> None:
    """The jobs apps registered (core.hooks.every) whose time has come; one failing stops no other."""
    for job in hooks.due_jobs():
        try:
            job()
        except Exception:
            log.exception("periodic job %s failed", getattr(job, "__qualname__", job))


_started = threading.Lock()
_thread: threading.Thread | None = None


def worker_pool() -> ProcessPoolExecutor:
    # spawn, not fork: the server process has threads and an event loop
    # that a forked child must not inherit.
    return ProcessPoolExecutor(
        max_workers=worker_count(),
        mp_context=multiprocessing.get_context("spawn"),
        # A spawned worker starts without Django: it learns the extra games
        # itself, and exits if this process dies (core.workers).
        initializer=watched,
        initargs=(register_paths, list(settings.EXTRA_GAMES)),
    )


def start_in_background() -> None:
    """Start this process's scheduler thread once (config/asgi.py calls it)."""
    global _thread
    if os.environ.get("SCHEDULER", "on").lower() in {"off", "0", "false", "no"}:
        return
    with _started:
        if _thread is not None:
            return
        hub_path = os.environ.get(hub.HUB_ENV)
        if hub_path:
            # The server processes of `serve --workers N` run one scheduler
            # between them, in whichever holds the lock: two would think
            # about the same bot's turn twice, each with its own workers on
            # the same cores. If its process dies, another takes over.
            _thread = threading.Thread(target=_when_elected, args=(hub.scheduler_lock(hub_path),), name="games-scheduler-election", daemon=True)
            _thread.start()
            return
        _thread = _run_here()


def _when_elected(lock_path: str) -> None:
    descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            time.sleep(ELECTION_SECONDS)
    log.info("this process runs the scheduler")
    _run_here()


def _run_here() -> threading.Thread:
    scheduler = Scheduler(worker_pool())
    thread = threading.Thread(target=scheduler.run_forever, args=(threading.Event(),), name="games-scheduler", daemon=True)
    thread.start()
    # Apps' own workers get a thread each (a solve may run for a minute,
    # and bot turns must not wait behind it).
    for worker in hooks.BACKGROUND:
        threading.Thread(target=worker.run_forever, args=(threading.Event(),), name=worker.name, daemon=True).start()
    return thread


