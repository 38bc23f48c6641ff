"""Differential test: our Quoridor against OpenSpiel's ``quoridor`` (2 players).

Random 2-player games are played in both implementations side by side and in
every position the two sets of legal moves must be equal. OpenSpiel writes
positions the Glendenning way (its player 0 starts on e9, row 1 at the top, a
fence named by the square north-west of its centre); we translate its
strings: square ``XR`` -> ``X(10-R)``, fence ``XRh``/``XRv`` -> ``X(9-R)h``/
``X(9-R)v``. Its player 0 is our P1.

A game stops when either side ends it: OpenSpiel forces a draw at 324 plies
and we draw on a third repetition; neither is a disagreement.

300 games by default (a few seconds); set QUORIDOR_DIFF_GAMES for more, e.g.
``QUORIDOR_DIFF_GAMES=5000 .venv/bin/pytest tests/engines/test_quoridor_openspiel.py``.
OpenSpiel's 3/4-player mode is defective (it refuses the sidestep around a
pawn with a third pawn behind it, among others), so 4-player rules are tested
from constructed positions in test_quoridor.py instead.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from games.engines.quoridor import FENCE_H, Quoridor

pyspiel = pytest.importorskip("pyspiel")

ENGINE = Quoridor()
GAMES = int(os.environ.get("QUORIDOR_DIFF_GAMES", "300"))


def square_index(text: str) -> int:
    return (int(text[1]) - 1) * 9 + "abcdefghi".index(text[0])


def ours_from_theirs(text: str) -> str:
    column, rest = text[0], text[1:]
    if rest[-1] in "hv":
        return f"{column}{9 - int(rest[:-1])}{rest[-1]}"
    return f"{column}{10 - int(rest)}"


def their_moves(state: Any) -> dict[str, int]:
    """Our notation -> OpenSpiel action id, for every legal action of ``state``."""
    player = state.current_player()
    return {
        ours_from_theirs(state.action_to_string(player, action)): action
        for action in state.legal_actions()
    }


def test_the_translation_matches_the_start_position() -> None:
    game = pyspiel.load_game("quoridor")
    theirs = their_moves(game.new_initial_state())
    assert {"d1", "f1", "e2", "a1h", "h8v"} <= set(theirs)
    assert len(theirs) == 131


def play_one(game: Any, seed: int, seen: dict[str, int]) -> int:
    """Plays one random game in both engines; returns the plies compared.

    ``seen`` counts the straight jumps and diagonal steps offered and the
    fences refused for trapping a pawn, so the test can show it met them.
    """
    rng = random.Random(seed)
    # Lean towards pawn moves so games last and fences end up spread over
    # the whole game, not all placed in the first twenty plies.
    pawn_bias = rng.choice((0.3, 0.6, 0.9))
    theirs = game.new_initial_state()
    ours = ENGINE.initial_state(2, ENGINE.normalize_options({}), seed)
    plies = 0
    while not theirs.is_terminal() and not ENGINE.is_over(ours):
        seat = ours.turn
        assert theirs.current_player() == seat
        expected = their_moves(theirs)
        got = ENGINE.legal_moves(ours, seat)
        assert len(got) == len(set(got))
        if set(got) != set(expected):
            missing = sorted(set(expected) - set(got))
            extra = sorted(set(got) - set(expected))
            pytest.fail(
                f"game seed {seed}, ply {plies}: legal moves differ; "
                f"OpenSpiel only: {missing}, ours only: {extra}; "
                f"moves so far: {[m for _, m in ENGINE.serialize(ours)['moves']]}"
            )
        steps = [m for m in got if ENGINE.parse(ours, m) < FENCE_H]
        here = ours.pawns[seat]
        for step in map(square_index, steps):
            dc, dr = abs(step % 9 - here % 9), abs(step // 9 - here // 9)
            if dc + dr == 2:
                seen["diagonal" if dc == 1 else "jump"] += 1
        fences = [m for m in got if ENGINE.parse(ours, m) >= FENCE_H]
        if ours.fences_left[seat]:
            free = 128 - bin(ours.fences.taken).count("1")
            seen["trap"] += free - len(fences)
        pool = steps if (rng.random() < pawn_bias or not fences) else fences
        move = rng.choice(pool)
        ours = ENGINE.play(ours, seat, move)
        theirs.apply_action(expected[move])
        plies += 1
    # Both must agree on a win; a draw on either side (their ply cap, our
    # threefold repetition) just ends the comparison.
    outcome = ENGINE.outcome(ours)
    if outcome is not None and outcome.winners:
        assert theirs.is_terminal(), f"game seed {seed}: we see a win, OpenSpiel plays on"
        assert theirs.returns()[outcome.winners[0]] == 1.0
    elif theirs.is_terminal():
        assert theirs.move_number() >= 324 and theirs.returns() == [0.0, 0.0]
    return plies


def test_legal_moves_agree_with_openspiel_in_random_games() -> None:
    game = pyspiel.load_game("quoridor")
    seen = {"jump": 0, "diagonal": 0, "trap": 0}
    plies = sum(play_one(game, seed, seen) for seed in range(GAMES))
    assert plies > GAMES * 10
    assert min(seen.values()) > 0, seen
