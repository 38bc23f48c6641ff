"""The solver's child process: imports no Django, talks to its parent over a pipe.

Messages to the parent: ("progress", expanded) about every quarter second,
then ("result", SolveResult.to_json()). The parent may send "cancel".
"""

from __future__ import annotations

import os
import resource
from multiprocessing.connection import Connection

from core.workers import die_with_parent
from games.engines.sokoban.solver import solve

# Headroom above the solver's own memory estimate before the kernel stops it.
HARD_LIMIT_FACTOR = 1.5
BASE_BYTES = 256 * 1024 * 1024


def run(
    conn: Connection, xsb: str, algorithm: str, time_limit: float, memory_limit_mb: int, threads: int = 1
) -> None:
    # The thread that started this waits for it: when it (or the server) dies, so does this.
    die_with_parent(with_starting_thread=True)
    # Lower priority: players' requests on the same cores come first.
    os.nice(10)
    # A hard cap behind the solver's own accounting: a runaway search dies
    # alone (the parent reports it) instead of taking the machine's memory.
    cap = BASE_BYTES + int(memory_limit_mb * 1024 * 1024 * HARD_LIMIT_FACTOR)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    def progress(expanded: int) -> bool:
        conn.send(("progress", expanded))
        return bool(conn.poll() and conn.recv() == "cancel")

    try:
        result = solve(xsb, algorithm, time_limit, memory_limit_mb, progress=progress, threads=threads)
        conn.send(("result", result.to_json()))
    except MemoryError:
        conn.send(("error", "the solver ran out of memory"))
    finally:
        conn.close()
