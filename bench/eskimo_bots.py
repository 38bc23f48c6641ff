"""Eskimo's computer players against random moves and against each other.

Each pair plays ``--games`` games, colours alternating; prints wins, draws,
95% Wilson intervals and CPU per move of each level. Whether the game can be
solved here is in games/engines/eskimo_ai.py's docstring (it cannot: about
1.2 x 10^11 positions).

    .venv/bin/python bench/eskimo_bots.py --games 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine_line  # noqa: E402
from bench.quoridor_bots import wilson  # noqa: E402
from games.engines.bots import get_bot  # noqa: E402
from games.engines.eskimo import Eskimo  # noqa: E402

ENGINE = Eskimo()
PAIRS = [("easy", "random"), ("medium", "random"), ("strong", "random"), ("medium", "easy"), ("strong", "medium")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    print(f"# {machine_line()}", flush=True)
    cpu: dict[str, list[float]] = {}
    for first, second in PAIRS:
        tally = {first: 0, second: 0, "draw": 0}
        for number in range(args.games):
            order = (first, second) if number % 2 == 0 else (second, first)
            bots = [get_bot("eskimo", name) for name in order]
            state = ENGINE.initial_state(2, ENGINE.normalize_options({}), number)
            rng = random.Random(number)
            while not ENGINE.is_over(state):
                seat = ENGINE.to_move(state)[0]
                started = time.process_time()
                move = bots[seat](ENGINE, state, seat, rng)
                cpu.setdefault(order[seat], []).append(time.process_time() - started)
                state = ENGINE.play(state, seat, move)
            outcome = ENGINE.outcome(state)
            tally[order[outcome.winners[0]] if outcome and outcome.winners else "draw"] += 1
        low, high = wilson(tally[first], args.games)
        print(f"{first} vs {second}: {tally[first]}-{tally[second]}, {tally['draw']} drawn;"
              f" {first} won {100 * tally[first] / args.games:.0f}% (95% interval {100 * low:.0f}-{100 * high:.0f}%)",
              flush=True)
    for name, spent in cpu.items():
        print(f"{name:<7} CPU per move: mean {statistics.mean(spent) * 1000:.1f} ms, max {max(spent) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
