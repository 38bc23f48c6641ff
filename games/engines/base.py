"""The one interface every game engine implements.

Engines are pure Python: no Django, DRF or Channels import. A state is an
immutable value; ``apply`` returns a new state or raises, and never changes
the state it was given. Everything the platform needs (whose turn, legal
moves, outcome, serialisation, what a seat may see) comes through this class,
so the platform never knows which game it is running.

Seats are the engine's player numbers 0..players-1, in turn order: seat 0
moves first unless the game's own rules say otherwise (Manhattan draws its
start player from the seed).

Text notation is the canonical form of an action, as UCI is for chess: the
move log stores it, the API accepts it and ``legal_moves`` returns it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from .words import Words, either, term, words

JSON = dict[str, Any]

WIN = "win"
LOSS = "loss"
DRAW = "draw"


class EngineError(Exception):
    """Base of every error an engine raises; ``code`` is the API error code.

    Its message is ``words`` (games/engines/words.py), so that it can be shown
    to a player in their language; ``message`` gives it back as raised.
    """

    code: ClassVar[str] = "engine_error"

    @property
    def message(self) -> str:
        """The message as raised: ``Words`` where the engine wrote words, else its text."""
        first = self.args[0] if len(self.args) == 1 else None
        return first if isinstance(first, str) else str(self)


class BadNotation(EngineError):
    """The text does not parse as an action of this game."""

    code = "bad_notation"


class IllegalMove(EngineError):
    """The action parses but is not legal in this position; the message says why."""

    code = "illegal_move"


class BadOptions(EngineError):
    """Unknown option, or a value out of range."""

    code = "bad_options"


# Better results sort first: a win beats a draw beats a loss.
_RESULT_ORDER = {WIN: 0, DRAW: 1, LOSS: 2}


def places_by(keys: Iterable[Any]) -> tuple[int, ...]:
    """Competition places ("1224") from one key per seat; a smaller key places higher.

    Seats with equal keys share a place; the next place skips as many as
    share it, as in a race: two seats tied for first, the next is third.
    """
    keys = list(keys)
    return tuple(1 + sum(other < key for other in keys) for key in keys)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: a result and a place per seat, and a reason in words.

    ``places`` rank the seats (1 = first; tied seats share a place). Ratings
    are computed from places, so games of three or four seats are rated by
    who finished ahead of whom. Left empty, they follow from the results:
    winners first, then draws, then losses, each group tied (a two-seat game's
    win/loss/draw, or Quoridor's winner ahead of three tied losers). Games
    that rank beyond win and loss (Manhattan by score) give their own.
    """

    results: tuple[str, ...]
    # Words (games/engines/words.py) where the engine wrote them.
    reason: str
    # Final scores where the game keeps them (Manhattan); empty otherwise.
    scores: tuple[int, ...] = ()
    places: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.places:
            object.__setattr__(self, "places", places_by(_RESULT_ORDER[r] for r in self.results))
        if len(self.places) != len(self.results):
            raise ValueError("an outcome needs one place per seat")

    def to_json(self) -> JSON:
        data: JSON = {"results": list(self.results), "places": list(self.places), "reason": self.reason}
        if isinstance(self.reason, Words):
            data["reason_words"] = self.reason.to_json()
        if self.scores:
            data["scores"] = list(self.scores)
        return data

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, result in enumerate(self.results) if result == WIN)


@dataclass(frozen=True)
class OptionSpec:
    """One option a room may set. ``choices`` or ``minimum``/``maximum`` bound it."""

    name: str
    kind: type
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()

    def check(self, value: Any) -> Any:
        # bool is a subclass of int: refuse True where a number is wanted.
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadOptions(words("option %(option)r must be a whole number", option=self.name))
        if self.kind is str and not isinstance(value, str):
            raise BadOptions(words("option %(option)r must be a string", option=self.name))
        if self.kind is bool and not isinstance(value, bool):
            raise BadOptions(words("option %(option)r must be true or false", option=self.name))
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise BadOptions(words("option %(option)r must be one of: %(choices)s", option=self.name, choices=allowed))
        if self.minimum is not None and value < self.minimum:
            raise BadOptions(
                words("option %(option)r must be at least %(minimum)s", option=self.name, minimum=self.minimum)
            )
        if self.maximum is not None and value > self.maximum:
            raise BadOptions(
                words("option %(option)r must be at most %(maximum)s", option=self.name, maximum=self.maximum)
            )
        return value

    def to_json(self) -> JSON:
        data: JSON = {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "help": self.help,
        }
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.choices:
            data["choices"] = list(self.choices)
        return data


S = TypeVar("S")
A = TypeVar("A")

# A bot: ``(engine, state, seat, rng) -> notation``. It is handed the full
# state because the platform holds nothing else, but a bot for a game with
# hidden information must read only ``engine.view(state, seat)`` (Manhattan's
# strong bot samples the hands it cannot see).
Bot = Callable[["Engine[Any, Any]", Any, int, random.Random], str]


def random_bot(engine: Engine[Any, Any], state: Any, seat: int, rng: random.Random) -> str:
    """A uniformly random legal move: the original Manhattan's timeout rule."""
    return engine.format(state, engine.random_action(state, seat, rng))


@dataclass(frozen=True)
class BotLevel:
    """A level of computer player a room may seat: its name, a line for players, its bot.

    The name is an identifier that players also read: marked with
    ``term("AI level", ...)``; the description with ``words``.
    """

    name: str
    description: str
    play: Bot

    def to_json(self) -> JSON:
        return {"name": self.name, "description": self.description}


RANDOM_LEVEL = BotLevel(term("AI level", "random"), words("plays any legal move at random"), random_bot)


@dataclass(frozen=True)
class Catalogue:
    slug: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = field(default=())

    def to_json(self) -> JSON:
        return {
            "slug": self.slug,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [spec.to_json() for spec in self.options],
        }


class Engine(ABC, Generic[S, A]):
    """The rules of one game. Subclasses set the class attributes and the abstract methods."""

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    # The seat counts allowed where not every number from min to max is
    # (Quoridor: 2 or 4); empty means the whole range.
    player_counts: ClassVar[tuple[int, ...]] = ()
    # The platform's per-turn time limit for this game's rooms unless the
    # host sets another (0 = none). Manhattan's original had one.
    default_turn_seconds: ClassVar[int] = 0

    # --- options ---------------------------------------------------------

    def catalogue(self) -> Catalogue:
        players = OptionSpec(
            "players",
            int,
            self.min_players,
            words("number of seats"),
            minimum=self.min_players,
            maximum=self.max_players,
            choices=self.player_counts,
        )
        return Catalogue(
            self.slug, self.name, self.min_players, self.max_players, (players, *self.option_specs)
        )

    def normalize_options(self, options: Mapping[str, Any] | None) -> JSON:
        """Every option filled in with its default; unknown or bad values raise BadOptions.

        ``players`` is always present in the result.
        """
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise BadOptions(words("options must be an object"))
        specs = {spec.name: spec for spec in self.catalogue().options}
        players = options.get("players")
        if self.player_counts and type(players) is int and players not in self.player_counts:
            raise BadOptions(
                words(
                    "%(game)s is played by %(counts)s players, not %(players)s",
                    game=self.name,
                    counts=either(self.player_counts),
                    players=players,
                )
            )
        unknown = sorted(set(options) - set(specs))
        if unknown:
            raise BadOptions(
                words("unknown option(s) for %(game)s: %(options)s", game=self.name, options=", ".join(unknown))
            )
        result = {
            name: spec.check(options[name]) if name in options else spec.default
            for name, spec in specs.items()
        }
        self.check_options(result)
        return result

    def check_options(self, options: JSON) -> None:
        """Checks that span several options; raise BadOptions. Nothing by default."""

    # --- the rules -------------------------------------------------------

    @abstractmethod
    def initial_state(self, players: int, options: JSON, seed: int) -> S:
        """The position before the first move. ``options`` is normalised."""

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]:
        """The seat that may act now, as a one-seat tuple; empty once the game is over.

        One seat at a time: every game here takes turns, and the platform
        (turn timers, AI seats, whose-turn checks) relies on it; the tuple
        leaves room in the API for games with simultaneous turns.
        """

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every legal action of ``seat``; empty when it is not that seat's turn."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> S:
        """The state after ``seat`` plays ``action``; raises IllegalMove saying why not."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game is on."""

    # --- notation --------------------------------------------------------

    @abstractmethod
    def parse(self, state: S, text: str) -> A:
        """The action written as ``text``; raises BadNotation if it does not parse."""

    @abstractmethod
    def format(self, state: S, action: A) -> str:
        """The canonical notation of ``action`` (``parse(format(a)) == a``)."""

    def describe(self, state: S, seat: int, action: A) -> str:
        """The move in words for a game log (``words``); ``state`` is the position before it."""
        return self.format(state, action)

    # --- serialisation and views -----------------------------------------

    @abstractmethod
    def serialize(self, state: S) -> JSON:
        """A JSON-able dict from which ``deserialize`` rebuilds an equal state."""

    @abstractmethod
    def deserialize(self, data: JSON) -> S:
        """The inverse of ``serialize``."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """What ``seat`` may see (None: a spectator). Never another seat's secrets."""

    # --- conveniences built on the above -----------------------------------

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def seat_to_move(self, state: S) -> int | None:
        """The one seat to act now, or None once the game is over."""
        seats = self.to_move(state)
        if len(seats) > 1:
            raise ValueError(f"{self.name} gave {len(seats)} seats to move; the platform plays one at a time")
        return seats[0] if seats else None

    def play(self, state: S, seat: int, text: str) -> S:
        return self.apply(state, seat, self.parse(state, text))

    def legal_moves(self, state: S, seat: int) -> list[str]:
        return [self.format(state, action) for action in self.legal_actions(state, seat)]

    # --- records: a game's moves in its compact standard form, where it has one ---

    def join_moves(self, moves: Sequence[str]) -> str | None:
        """``moves`` (canonical notation, in order) in the game's compact standard form, as
        players exchange whole games (Connect Four's digit string ``4453``, Sokoban's
        LURD); None where the game has none, or none for these moves (the default).

        Reading it back with ``split_moves`` and playing the moves from the start
        reaches the same position.
        """
        return None

    def split_moves(self, text: str) -> list[str] | None:
        """The moves written in the compact form of ``join_moves``, each in notation
        ``parse`` reads; None where the game has no compact form (the default).
        It checks only the form: replaying the moves finds the illegal ones."""
        return None

    def replay(
        self, players: int, options: JSON, seed: int, moves: Iterable[tuple[int, str]]
    ) -> S:
        """The state after the logged ``(seat, notation)`` moves: the move log is the truth."""
        state = self.initial_state(players, options, seed)
        for seat, text in moves:
            state = self.play(state, seat, text)
        return state

    # --- analysis, for reviewing a finished game ----------------------------------

    def analyse(self, state: S, seconds: float) -> JSON | None:
        """What a reviewer may learn about this position, found within ``seconds`` of CPU.

        None where the game has nothing to say (the default). It is shown only
        for finished matches: a game in progress must not be analysed for a
        player (that would be playing with a computer's help), and for games
        with hidden information it must say nothing hidden.
        """
        return None

    def judge(self, before: JSON | None, after: JSON | None, seat: int, move: str) -> JSON | None:
        """What a move did, given the analyses of the positions before and after it
        (e.g. ``{"blunder": true}`` where it changed the game's outcome); None: nothing to say."""
        return None

    def bot_levels(self) -> tuple[BotLevel, ...]:
        """The computer players of this game, weakest first; ``random`` plays every game.

        A game with stronger bots overrides this and imports them inside the
        method, so loading the rules never loads a search.
        """
        return (RANDOM_LEVEL,)

    def bot(self, level: str) -> BotLevel:
        """The bot level called ``level``; KeyError if this game has none of that name."""
        for bot in self.bot_levels():
            if bot.name == level:
                return bot
        raise KeyError(level)

    def random_action(self, state: S, seat: int, rng: random.Random) -> A:
        """A uniformly random legal action (timeouts and the `random` bot use it)."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalMove(words("no legal move for this seat"))
        return rng.choice(actions)

    def resign(self, state: S, seat: int, players: int) -> Outcome:
        """The outcome when ``seat`` resigns: it loses and everyone else wins (sharing first place)."""
        results = tuple(LOSS if s == seat else WIN for s in range(players))
        return Outcome(results, words("seat %(seat)s resigned", seat=seat))

