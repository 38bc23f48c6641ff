"""Runs solve jobs in child processes, one at a time per server process.

Jobs are queued in the database, so any process with a runner may claim one
(the claim is a conditional UPDATE: exactly one claimant wins). The runner
forwards the child's progress to the job row and to the owner's sockets,
honours cancel requests made through any server, and kills a child that
outlives its time limit: a solve never blocks the server or hangs a worker.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.threads import keep_connections_usable

from . import worker
from .models import SolveJob
from .pushes import solve_changed

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25
# Time given to a child past its limit to report before it is killed.
GRACE_SECONDS = 5.0
CANCEL_GRACE_SECONDS = 2.0


# A running job whose process went away (a restart, a crash) is given up
# this long after its own limit would have ended it (jobs from before
# heartbeats), or once its process has not touched it for STALE_SECONDS.
STALE_AFTER_SECONDS = 30.0
# The process running a job touches it this often; five beats missed, it is gone.
HEARTBEAT_SECONDS = 2.0
STALE_SECONDS = 5 * HEARTBEAT_SECONDS


def is_stale(job: SolveJob, now: Any = None) -> bool:
    """Whether no process can still be running ``job`` (it says running)."""
    now = now or timezone.now()
    if job.seen_at is not None:
        return (now - job.seen_at).total_seconds() > STALE_SECONDS
    if job.started_at is None:
        return False
    return (now - job.started_at).total_seconds() > job.time_limit + GRACE_SECONDS + STALE_AFTER_SECONDS


def expire_stale_jobs() -> int:
    """Mark running jobs that nobody can still be running as failed; returns how many.

    A server that crashed mid-solve leaves its job "running"; the next look
    (a new solve, a cancel, any server's runner loop) finds it stale within
    STALE_SECONDS of the crash, so its owner is not held up for the job's
    whole time limit.
    """
    now = timezone.now()
    expired = 0
    for job in SolveJob.objects.filter(status=SolveJob.Status.RUNNING, started_at__isnull=False):
        if is_stale(job, now):
            updated = SolveJob.objects.filter(pk=job.pk, status=SolveJob.Status.RUNNING).update(
                status=SolveJob.Status.FAILED,
                error="the server running this solve stopped before it finished",
                finished_at=now,
            )
            if updated:
                expired += 1
                solve_changed(job.pk)
    return expired


def claim_next() -> SolveJob | None:
    for job_id in SolveJob.objects.filter(status=SolveJob.Status.QUEUED).values_list("id", flat=True)[:5]:
        now = timezone.now()
        claimed = SolveJob.objects.filter(pk=job_id, status=SolveJob.Status.QUEUED).update(
            status=SolveJob.Status.RUNNING, started_at=now, seen_at=now
        )
        if claimed:
            return SolveJob.objects.get(pk=job_id)
    return None


def _finish(job: SolveJob, status: str, result: dict[str, Any] | None = None, error: str = "") -> None:
    job.status = status
    job.result = result
    job.error = error
    if result:
        job.expanded = int(result.get("expanded", job.expanded))
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "result", "error", "expanded", "finished_at"])
    solve_changed(job.pk)


def solve_in_child(
    xsb: str,
    algorithm: str,
    time_limit: float,
    memory_limit_mb: int,
    on_progress: Any = None,
    cancelled: Any = None,
    alive: Any = None,
) -> tuple[str, Any]:
    """Solve in a fresh child process; ("result", json) | ("error", reason) | ("cancelled", None).

    ``on_progress(expanded)`` is called as the child reports; ``cancelled()``
    is asked every poll. The child is killed if it outlives its limit.
    """
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(
        target=worker.run,
        args=(child, xsb, algorithm, time_limit, memory_limit_mb, settings.SOKOBAN_SOLVER_THREADS),
        daemon=True,
    )
    process.start()
    child.close()
    hard_deadline = time.monotonic() + time_limit + GRACE_SECONDS
    cancel_sent_at: float | None = None
    try:
        while True:
            if parent.poll(POLL_SECONDS):
                try:
                    kind, payload = parent.recv()
                except EOFError:
                    break
                if kind != "progress":
                    return kind, payload
                if on_progress is not None:
                    on_progress(int(payload))
            elif not process.is_alive():
                break
            now = time.monotonic()
            if alive is not None:
                alive()
            if cancel_sent_at is None and cancelled is not None and cancelled():
                cancel_sent_at = now
                try:
                    parent.send("cancel")
                except OSError:
                    break
            if cancel_sent_at is not None and now - cancel_sent_at > CANCEL_GRACE_SECONDS:
                return "cancelled", None
            if now > hard_deadline:
                return "error", "the solver did not answer within its time limit"
    finally:
        if process.is_alive():
            process.kill()
        process.join(timeout=5)
        parent.close()
    if cancel_sent_at is not None:
        return "cancelled", None
    return "error", "the solver stopped: it ran out of memory or was killed"


def run_job(job: SolveJob) -> None:
    """Run one claimed job to its end (blocking)."""

    def progress(expanded: int) -> None:
        job.expanded = expanded
        SolveJob.objects.filter(pk=job.pk).update(expanded=expanded)
        solve_changed(job.pk)

    def cancelled() -> bool:
        return SolveJob.objects.filter(pk=job.pk, cancel_requested=True).exists()

    beat = [time.monotonic()]

    def alive() -> None:
        if time.monotonic() - beat[0] >= HEARTBEAT_SECONDS:
            beat[0] = time.monotonic()
            SolveJob.objects.filter(pk=job.pk).update(seen_at=timezone.now())

    try:
        kind, payload = solve_in_child(
            job.xsb, job.algorithm, job.time_limit, job.memory_limit_mb, progress, cancelled, alive
        )
    except Exception as error:  # never leave a job "running" behind
        log.exception("solve %s failed", job.pk)
        kind, payload = "error", f"the solver failed: {type(error).__name__}"
    if kind == "result":
        status = SolveJob.Status.CANCELLED if payload.get("status") == "cancelled" else SolveJob.Status.DONE
        _finish(job, status, payload)
    elif kind == "cancelled":
        _finish(job, SolveJob.Status.CANCELLED, error="cancelled")
    else:
        _finish(job, SolveJob.Status.FAILED, error=str(payload))


def run_queued() -> int:
    """Run every queued job now (tests and the one-shot scheduler command)."""
    done = 0
    while (job := claim_next()) is not None:
        run_job(job)
        done += 1
    return done


def run_forever(stop: threading.Event) -> None:
    while not stop.is_set():
        keep_connections_usable()
        try:
            expire_stale_jobs()
            job = claim_next()
            if job is None:
                stop.wait(POLL_SECONDS)
            else:
                run_job(job)
        except Exception:
            log.exception("solve runner failed")
            stop.wait(1.0)
