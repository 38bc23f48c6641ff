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


def die_with_parent(*, with_starting_thread: bool = False) -> None:
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
