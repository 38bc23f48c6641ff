"""Quoridor move generation speed: the contract is < 1 ms per full generation.

Builds mid-game 2-player positions from seeded random games (half pawn moves,
half fences, stopped after 10..30 plies while both players still hold
fences), then times:

- full legal-move generation (pawn moves and every fence, each checked for
  trapping) through the public ``Quoridor.legal_actions``;
- single fence-legality checks, the way ``apply`` judges one fence.

Run: ``.venv/bin/python bench/quoridor_movegen.py [positions] [seed]``.
Prints a report; never asserts timings.
"""

from __future__ import annotations

import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.quoridor import (  # noqa: E402
    FENCE_H,
    ACTION_OF_SLOT,
    Quoridor,
    QuoridorState,
    _cuts_off,
)

ENGINE = Quoridor()


def mid_game_positions(count: int, seed: int, players: int = 2) -> list[QuoridorState]:
    rng = random.Random(seed)
    positions: list[QuoridorState] = []
    while len(positions) < count:
        state = ENGINE.initial_state(players, ENGINE.normalize_options({"players": players}), 0)
        stop = rng.randint(10, 30)
        for _ in range(stop):
            seat = state.turn
            actions = ENGINE.legal_actions(state, seat)
            steps = [a for a in actions if a < FENCE_H]
            fences = [a for a in actions if a >= FENCE_H]
            pool = steps if (rng.random() < 0.5 or not fences) else fences
            state = ENGINE.apply(state, seat, rng.choice(pool))
            if ENGINE.is_over(state):
                break
        if not ENGINE.is_over(state) and min(state.fences_left) > 0:
            positions.append(state)
    return positions


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2024
    print(f"CPU: {cpu_model()}, nproc {os.cpu_count()}, Python {platform.python_version()}")

    for players in (2, 4):
        positions = mid_game_positions(count, seed, players)
        placed = sum(bin(p.fences.mask).count("1") for p in positions) / len(positions)
        moves = sum(len(ENGINE.legal_actions(p, p.turn)) for p in positions) / len(positions)
        # Warm up, then time several passes; report the best pass (least noise
        # from the other engineers sharing the machine) and the mean.
        for p in positions:
            ENGINE.legal_actions(p, p.turn)
        passes = []
        for _ in range(5):
            start = time.perf_counter()
            for p in positions:
                ENGINE.legal_actions(p, p.turn)
            passes.append(time.perf_counter() - start)
        best, mean = min(passes), sum(passes) / len(passes)
        worst_us = 0.0
        for p in positions:
            start = time.perf_counter()
            ENGINE.legal_actions(p, p.turn)
            worst_us = max(worst_us, (time.perf_counter() - start) * 1e6)

        print(
            f"\n{players} players: {len(positions)} mid-game positions (seed {seed}), "
            f"{placed:.1f} fences on the board, {moves:.1f} legal moves on average"
        )
        print(
            f"  full legal-move generation: {len(positions) / best:,.0f} positions/s, "
            f"{best / len(positions) * 1e6:.1f} us average (best of 5 passes; "
            f"mean of passes {mean / len(positions) * 1e6:.1f} us; slowest single "
            f"position {worst_us:.1f} us)"
        )

        rng = random.Random(seed)
        probes = [(p, rng.randrange(128)) for p in positions for _ in range(20)]
        start = time.perf_counter()
        for p, slot in probes:
            ENGINE._why_not_fence(p, p.turn, slot)
        elapsed = time.perf_counter() - start
        print(
            f"  fence-legality check (one fence, as apply judges it): "
            f"{len(probes) / elapsed:,.0f} checks/s, {elapsed / len(probes) * 1e6:.2f} us each"
        )
        trap_probes = [
            (p, s) for p, s in probes if not p.fences.taken >> s & 1
        ]
        start = time.perf_counter()
        for p, slot in trap_probes:
            _cuts_off(p.fences, slot, p.pawns, p.goals)
        elapsed = time.perf_counter() - start
        print(
            f"  trap check alone on free slots: {len(trap_probes) / elapsed:,.0f} checks/s"
        )
        start = time.perf_counter()
        for p, slot in trap_probes:
            ENGINE.apply(p, p.turn, ACTION_OF_SLOT[slot]) if ENGINE._why_not_fence(
                p, p.turn, slot
            ) is None else None
        elapsed = time.perf_counter() - start
        print(f"  apply of a fence (legal ones) or refusal: {len(trap_probes) / elapsed:,.0f}/s")


if __name__ == "__main__":
    main()
