"""The analysis child process: replays a match and asks its engine about each position.

It imports no Django and talks to its parent over a pipe: ("position", ply,
entry) as each position is done, then ("done",). The parent may send
"cancel". Run niced and memory-capped, like the Sokoban solver's child, so a
long review never slows the players on the same cores.
"""

from __future__ import annotations

import os
import resource
import time
from multiprocessing.connection import Connection
from typing import Any

from core.workers import die_with_parent

from .engines.registry import get_engine, register_paths

MEMORY_BYTES = 1536 * 1024 * 1024


def run(conn: Connection, job: dict[str, Any]) -> None:
    # The thread that started this waits for it: when it (or the server) dies, so does this.
    die_with_parent(with_starting_thread=True)
    os.nice(10)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    try:
        register_paths(job["extra_games"])
        engine = get_engine(job["game"])
        state = engine.initial_state(job["players"], job["options"], job["seed"])
        deadline = time.process_time() + job["seconds"]
        moves: list[tuple[int, str]] = job["moves"]
        before = _analyse(engine, state, deadline, len(moves) + 1)
        conn.send(("position", 0, {"analysis": before}))
        for ply, (seat, text) in enumerate(moves, start=1):
            if conn.poll() and conn.recv() == "cancel":
                return
            state = engine.play(state, seat, text)
            after = _analyse(engine, state, deadline, len(moves) + 1 - ply)
            conn.send(("position", ply, {"analysis": after, "move": engine.judge(before, after, seat, text)}))
            before = after
        conn.send(("done",))
    except MemoryError:
        conn.send(("error", "the analysis ran out of memory"))
    finally:
        conn.close()


def _analyse(engine: Any, state: Any, deadline: float, positions_left: int) -> Any:
    """The engine's word on one position, with an even share of what is left of the budget."""
    if engine.is_over(state):
        return engine.analyse(state, 0.0)
    share = max(0.0, deadline - time.process_time()) / max(1, positions_left)
    return engine.analyse(state, share)
