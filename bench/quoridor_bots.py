"""Quoridor's computer players: strong against OpenSpiel's MCTS, and in 4-player games.

``mcts``: the ``strong`` level (or ``--level``) plays OpenSpiel's ``quoridor``
MCTS bot (``--simulations`` 1,000, random rollouts, UCT c = 2) over
``--games`` games, alternating sides; OpenSpiel is a test dependency, and its
moves are translated to ours (tests/engines/test_quoridor_openspiel.py).
Reports wins with a 95% Wilson interval and CPU per move of both.

``four``: ``--level`` in one seat (rotating) against three ``--rivals`` seats
in 4-player games: wins and the interval, CPU per move.

    .venv/bin/python bench/quoridor_bots.py mcts --games 20
    .venv/bin/python bench/quoridor_bots.py four --games 40
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine_line  # noqa: E402
from games.engines.bots import get_bot  # noqa: E402
from games.engines.quoridor import Quoridor  # noqa: E402

ENGINE = Quoridor()


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def versus_mcts(level: str, games: int, simulations: int) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from tests.engines.test_quoridor_openspiel import ours_from_theirs, their_moves

    game = pyspiel.load_game("quoridor")
    mine = get_bot("quoridor", level)
    wins, ours_cpu, theirs_cpu = 0, [], []
    for number in range(games):
        seat = number % 2
        rng = np.random.RandomState(number)
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=simulations,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        theirs = game.new_initial_state()
        ours = ENGINE.initial_state(2, ENGINE.normalize_options({}), number)
        chooser = random.Random(number)
        while not theirs.is_terminal() and not ENGINE.is_over(ours):
            mover = ours.turn
            started = time.process_time()
            if mover == seat:
                move = mine(ENGINE, ours, mover, chooser)
                ours_cpu.append(time.process_time() - started)
                action = their_moves(theirs)[move]
            else:
                action = bot.step(theirs)
                theirs_cpu.append(time.process_time() - started)
                move = ours_from_theirs(theirs.action_to_string(mover, action))
            theirs.apply_action(action)
            ours = ENGINE.play(ours, mover, move)
        outcome = ENGINE.outcome(ours)
        won = outcome is not None and outcome.winners == (seat,)
        wins += won
        print(f"game {number + 1}: {level} as {'first' if seat == 0 else 'second'}:"
              f" {'won' if won else 'lost' if outcome and outcome.winners else 'drawn'} in {len(ours.moves)} plies",
              flush=True)
    low, high = wilson(wins, games)
    print(f"\n{level} against MCTS ({simulations} simulations): {wins}/{games} won"
          f" ({100 * wins / games:.0f}%, 95% interval {100 * low:.0f}-{100 * high:.0f}%)")
    print(f"CPU per move: {level} mean {statistics.mean(ours_cpu) * 1000:.0f} ms, max {max(ours_cpu) * 1000:.0f} ms;"
          f" MCTS mean {statistics.mean(theirs_cpu) * 1000:.0f} ms")


def four(level: str, rivals: str, games: int, first: int = 0) -> None:
    wins, cpu = 0, []
    for number in range(first, first + games):
        seat = number % 4
        names = [level if s == seat else rivals for s in range(4)]
        bots = [get_bot("quoridor", name) for name in names]
        state = ENGINE.initial_state(4, ENGINE.normalize_options({"players": 4}), number)
        rng = random.Random(number)
        while not ENGINE.is_over(state):
            mover = ENGINE.to_move(state)[0]
            started = time.process_time()
            move = bots[mover](ENGINE, state, mover, rng)
            if mover == seat:
                cpu.append(time.process_time() - started)
            state = ENGINE.play(state, mover, move)
        outcome = ENGINE.outcome(state)
        won = outcome is not None and outcome.winners == (seat,)
        wins += won
        print(f"game {number + 1}: {level} in seat {seat + 1}: {'won' if won else 'lost'}", flush=True)
    low, high = wilson(wins, games)
    print(f"\n{level} against three {rivals} (4 players): {wins}/{games} won"
          f" ({100 * wins / games:.0f}%, 95% interval {100 * low:.0f}-{100 * high:.0f}%)")
    print(f"CPU per move of {level}: mean {statistics.mean(cpu) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    against = commands.add_parser("mcts")
    against.add_argument("--level", default="strong")
    against.add_argument("--games", type=int, default=20)
    against.add_argument("--simulations", type=int, default=1000)
    table = commands.add_parser("four")
    table.add_argument("--level", default="strong")
    table.add_argument("--rivals", default="medium")
    table.add_argument("--games", type=int, default=40)
    table.add_argument("--first", type=int, default=0, help="number of the first game (its seed): split a run")
    args = parser.parse_args()
    print(f"# {machine_line()}", flush=True)
    if args.command == "mcts":
        versus_mcts(args.level, args.games, args.simulations)
    else:
        four(args.level, args.rivals, args.games, args.first)


if __name__ == "__main__":
    main()
