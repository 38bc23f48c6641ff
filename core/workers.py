"""Child processes that do not outlive the server that started them.

The AI workers, the analysis of a finished match and the Sokoban solves run
in child processes. A server killed with SIGKILL runs no clean-up, and its
children went on (a solve to its time limit, the pool's workers waiting for
work that never came): about 70 MB left behind per crash, for minutes.

Each child calls ``die_with_parent()`` first thing:

- Linux's PR_SET_PDEATHSIG kills it when the thread that started it ends,
  for children whose starting thread waits for them to finish (a solve, an
  analysis); a search in compiled code that holds the interpreter is stopped
  too;
- a watchdog thread checks every second that the parent is still the one it
  started with, for every child (the pool's workers, which a thread that
  ends may have started).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0


# The CPUs the server could use before it pinned itself (pin_to_one_core),
# for its children to take back.
CPUS_ENV = "BOARDGAMES_CPUS"


def pin_to_one_core() -> int | None:
    """Keep every thread of this server process on one core; which one, by its place among its siblings.

    One process's Python runs on one core at a time (the interpreter lock).
    Left free, its threads (the loop's, the HTTP pool's) ran on both cores
    and handed the lock across them, at a high price: PostgreSQL + Redis,
    400 games of players who think on one process, 4.2-4.5 ms of server CPU
    a move and p99 390-460 ms, against 3.2 ms and 26 ms pinned
    (docs/benchmarks.md). The other cores are left to the database, Redis,
    the other server processes and the children, which take back every core
    (``unpin``). Server processes started by the same parent (``serve
    --workers N``'s, or servers a test starts) take the cores in turn, by
    their process ids. None (nothing done) on a machine of one core.
    """
    if not sys.platform.startswith("linux"):  # affinities and /proc as Linux has them
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        return None
    os.environ.setdefault(CPUS_ENV, ",".join(map(str, allowed)))
    core = allowed[_place_among_siblings() % len(allowed)]
    _set_every_thread({core})
    return core


def unpin() -> None:
    """A child of a pinned server: back on every core the server could use."""
    cpus = os.environ.get(CPUS_ENV)
    if cpus and sys.platform.startswith("linux"):
        _set_every_thread({int(cpu) for cpu in cpus.split(",")})


def _set_every_thread(cpus: set[int]) -> None:
    # An affinity is a thread's own: new threads take their creator's, the
    # threads already running are set one by one.
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task), cpus)


def _place_among_siblings() -> int:
    """This process's place, by process id, among its parent's Python children (not multiprocessing's tracker)."""
    parent, me, exe = os.getppid(), os.getpid(), os.readlink("/proc/self/exe")
    siblings = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rpartition(")")[2].split()[1]) != parent:
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if os.readlink(f"/proc/{entry}/exe") != exe or b"resource_tracker" in cmdline.read():
                    continue
        except OSError:
            continue
        siblings.append(int(entry))
    return sorted(siblings).index(me) if me in siblings else 0


def die_with_parent(*, with_starting_thread: bool = False) -> None:
    unpin()
    parent = os.getppid()
    if with_starting_thread and sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent or parent == 1:  # it died before we were watching
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="watch-parent", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def watched(then: Callable[..., Any], *args: Any) -> None:
    """A process pool's initializer: watch the parent, then run the pool's own ``then(*args)``."""
    die_with_parent()
    then(*args)
