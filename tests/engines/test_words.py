"""The games' words: English text that keeps its template and args, so it can be said in any language."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from games.engines.base import BadNotation, EngineError, IllegalMove, Outcome
from games.engines.registry import ENGINES
from games.engines.words import Words, either, term, words

KOREAN = {
    "dropped a disc in column %(column)s": "%(column)s열에 원반을 떨어뜨림",
    "%(player)s resigned": "%(player)s 님 기권",
    "seat %(seat)s": "%(seat)s번 자리",
}


def test_words_are_the_english_text() -> None:
    said = words("dropped a disc in column %(column)s", column=4)
    assert said == "dropped a disc in column 4" and isinstance(said, str)
    assert said.template == "dropped a disc in column %(column)s" and said.args == {"column": 4}
    assert json.dumps(said) == '"dropped a disc in column 4"'


def test_words_travel_as_template_and_args() -> None:
    said = words("%(player)s resigned", player=words("seat %(seat)s", seat=2))
    assert said.to_json() == {"text": "%(player)s resigned", "args": {"player": {"text": "seat %(seat)s", "args": {"seat": 2}}}}
    again = Words.from_json(json.loads(json.dumps(said.to_json())))
    assert again == said and again.to_json() == said.to_json()
    assert pickle.loads(pickle.dumps(said)).to_json() == said.to_json()


def test_words_are_translated_with_their_nested_words() -> None:
    said = words("%(player)s resigned", player=words("seat %(seat)s", seat=2))
    assert said.translated(lambda text: KOREAN.get(text, text)) == "2번 자리 님 기권"
    assert words("the board is full").translated(lambda text: "판이 가득 참") == "판이 가득 참"


def test_a_translation_with_wrong_placeholders_falls_back_to_english() -> None:
    said = words("dropped a disc in column %(column)s", column=4)
    assert said.translated(lambda text: "%(row)s행") == "dropped a disc in column 4"


def test_term_and_either() -> None:
    assert term("AI level", "easy") == "easy"
    assert either((2, 4)) == "2 or 4" and either((1, 2, 3)) == "1, 2 or 3" and either((5,)) == 5


def test_an_engine_error_keeps_its_words() -> None:
    error = IllegalMove(words("column %(column)s is full", column=1))
    assert str(error) == "column 1 is full"
    assert isinstance(error.message, Words) and error.message.args == {"column": 1}
    assert EngineError("plain").message == "plain"


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_move_and_every_ending_is_said_in_words(slug: str) -> None:
    """A random game of each engine: every description, and the outcome's reason, are Words whose
    text is their template filled with their args (what a script does with the catalogue)."""
    engine = ENGINES[slug]
    options = engine.normalize_options({})
    rng = random.Random(7)
    state = engine.initial_state(options["players"], options, 7)
    for _ in range(400):
        seat = engine.seat_to_move(state)
        if seat is None:
            break
        action = engine.random_action(state, seat, rng)
        said = engine.describe(state, seat, action)
        check(said)
        state = engine.apply(state, seat, action)
    outcome = engine.outcome(state)
    if outcome is not None:
        check(outcome.reason)
        assert outcome.to_json()["reason_words"] == outcome.reason.to_json()  # type: ignore[attr-defined]


def check(said: Any) -> None:
    assert isinstance(said, Words), said
    assert said == fill(said.to_json())
    json.dumps(said.to_json())


def fill(data: dict[str, Any]) -> str:
    args = {name: fill(value) if isinstance(value, dict) else value for name, value in data["args"].items()}
    return str(data["text"] % args if args else data["text"])


def test_refusals_are_words() -> None:
    engine = ENGINES["connect-four"]
    options = engine.normalize_options({})
    state = engine.initial_state(2, options, 0)
    with pytest.raises(BadNotation) as bad:
        engine.parse(state, "x")
    assert isinstance(bad.value.message, Words)
    with pytest.raises(EngineError) as wrong:
        engine.normalize_options({"columns": 99})
    assert isinstance(wrong.value.message, Words)
    assert Outcome(("win", "loss"), words("the bear is trapped")).to_json()["reason_words"] == {
        "text": "the bear is trapped",
        "args": {},
    }
