"""Game records: a match written as text, and such text read back into positions.

A record is PGN-like: header lines ``[Key "value"]`` (game, match, date,
players, result, options...), a blank line, then the moves in the game's own
notation, numbered by ply and ended by the result, as PGN ends a game:

    [Game "Connect Four"]
    [Slug "<the game's slug>"]
    [Match "12"]
    [Date "2026.11.24"]
    [UTCTime "16:17:07"]
    [Players "2"]
    [Seat1 "alice"]
    [Seat2 "bob"]
    [Status "finished"]
    [Result "1-0"]
    [Termination "4 in a row"]
    [Options "{\\"columns\\": 7, \\"connect\\": 4, ...}"]
    [Seed "4242"]
    [Plies "7"]
    [Moves "4455667"]

    1. 4 2. 4 3. 5 4. 5 5. 6 6. 6 7. 7 1-0

``Result`` gives each seat's result in seat order, 1 a win, 0 a loss, 1/2 a
draw ("1-0", "0-1-0-0"); ``*`` while the game is on or when it was aborted.
``Moves``, where the game has a compact standard form (Connect Four's digit
string, Sokoban's LURD), is that form of the same moves (Engine.join_moves).
A file of several records is the records one after another.

Hidden information: the moves themselves are public (any seat sees them
played), but the ``Seed`` deals every Manhattan hand. A record carries the
seed only once the match is over: a record of a game in play reveals no
hand, to players and spectators alike. Without a seed such a record of a
dealt game cannot be replayed; records of games no seed decides can.

Reading a record back replays it through the engine from its options and
seed: any error names the record, the ply and the reason.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from core.errors import Invalid

from .engines.base import JSON, DRAW, LOSS, WIN, BadOptions, Engine, EngineError
from .engines.words import Words, words
from .engines.registry import ENGINES
from .models import Match, Move
from .options import engine_options
from .selectors import players_of

# What one POST may ask to replay: the text, and the positions it answers with.
MAX_RECORD_CHARACTERS = 1_000_000
MAX_POSITIONS = 5_000

_RESULT_SYMBOL = {WIN: "1", LOSS: "0", DRAW: "1/2"}
_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_PLY_NUMBER = re.compile(r"^\d+\.+$")
# A game's end in the movetext: "*", or a result per seat ("1-0", "0-1-0-0", "1/2-1/2").
# A lone "1" is not one: it is a Connect Four move.
_RESULT_TOKEN = re.compile(r"^(\*|(1|0|1/2)(-(1|0|1/2))+)$")


# --- writing -----------------------------------------------------------------------


def _quote(value: Any) -> str:
    text = str(value).replace("\r", " ").replace("\n", " ")
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _result(match: Match) -> str:
    results = (match.result or {}).get("results") or []
    if match.status != Match.Status.FINISHED or not results:
        return "*"
    return "-".join(_RESULT_SYMBOL.get(result, "*") for result in results)


def _seat_name(player: Any) -> str:
    if player.user is not None:
        return str(player.user.username)
    return f"AI ({player.bot})" if player.bot else "empty seat"


def match_record(match: Match, moves: Iterable[Move] | None = None) -> str:
    """``match`` as a record. The seed is written only once the match is over (see the module)."""
    room = match.room
    engine = ENGINES[room.game]
    if moves is None:
        moves = match.moves.order_by("ply")
    notations = [move.notation for move in sorted(moves, key=lambda move: move.ply)]
    players = players_of(match)
    result = match.result or {}
    headers: list[tuple[str, Any]] = [
        ("Game", engine.name),
        ("Slug", engine.slug),
        ("Match", match.pk),
        ("Room", room.pk),
        ("Date", match.created_at.strftime("%Y.%m.%d")),
        ("UTCTime", match.created_at.strftime("%H:%M:%S")),
        ("Players", len(players)),
    ]
    for player in players:
        headers.append((f"Seat{player.seat + 1}", _seat_name(player)))
        if player.rating is not None:
            headers.append((f"Seat{player.seat + 1}Rating", round(player.rating)))
        if player.abandoned or result.get("abandoned") == player.seat:
            headers.append((f"Seat{player.seat + 1}Left", "abandoned"))
        elif player.resigned or result.get("resigned") == player.seat:
            headers.append((f"Seat{player.seat + 1}Left", "resigned"))
    headers += [("Rated", "yes" if match.rated else "no"), ("Status", match.status), ("Result", _result(match))]
    if len(players) > 2 and result.get("places"):
        headers.append(("Places", "-".join(str(place) for place in result["places"])))
    if result.get("scores"):
        headers.append(("Scores", "-".join(str(score) for score in result["scores"])))
    if result.get("reason"):
        headers.append(("Termination", result["reason"]))
    if result.get("solver"):
        headers.append(("Solver", "yes"))
    headers.append(("Options", json.dumps(room.options, sort_keys=True, separators=(", ", ": "))))
    if match.status != Match.Status.ACTIVE:
        headers.append(("Seed", match.seed))
    headers.append(("Plies", len(notations)))
    compact = engine.join_moves(notations) if notations else None
    if compact is not None:
        headers.append(("Moves", compact))
    lines = [f'[{key} "{_quote(value)}"]' for key, value in headers]
    tokens = [part for ply, notation in enumerate(notations, start=1) for part in (f"{ply}.", notation)]
    movetext = " ".join([*tokens, _result(match)])
    return "\n".join(lines) + "\n\n" + "\n".join(textwrap.wrap(movetext, 79, break_long_words=False, break_on_hyphens=False)) + "\n"


def player_records(user: Any) -> Iterator[str]:
    """Every match ``user`` played to its end (finished or aborted), oldest first, as records."""
    matches = (
        Match.objects.filter(players__user=user)
        .exclude(status=Match.Status.ACTIVE)
        .select_related("room")
        .prefetch_related("players__user", "moves")
        .order_by("created_at", "id")
        .distinct()
    )
    for match in matches.iterator(chunk_size=100):
        yield match_record(match, match.moves.all())


# --- reading -------------------------------------------------------------------------


@dataclass
class Record:
    number: int  # 1 = the first record of the text
    headers: dict[str, str] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)


def _bad(record: int, reason: str, *, code: str = "bad_record", ply: int | None = None) -> Invalid:
    extra: dict[str, Any] = {"record": record, "reason": reason}
    if ply is not None:
        extra["ply"] = ply
        return Invalid(code, words("record %(record)s, ply %(ply)s: %(reason)s", record=record, ply=ply, reason=reason),
                       **extra)
    return Invalid(code, words("record %(record)s: %(reason)s", record=record, reason=reason), **extra)


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def split_records(text: str) -> list[Record]:
    """The records of ``text``: header lines, then movetext up to the next header line."""
    records: list[Record] = []
    current: Record | None = None
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";") or line.startswith("%"):
            continue  # blank lines, and PGN's comment lines
        if line.startswith("["):
            if current is None or in_moves:
                current = Record(len(records) + 1)
                records.append(current)
                in_moves = False
            found = _HEADER.match(line)
            if found is None:
                raise _bad(
                    current.number,
                    words('line %(line)s is not a header of the form [Key "value"]: %(text)r', line=number, text=line[:60]),
                    code="bad_header",
                )
            current.headers[found.group(1)] = _unquote(found.group(2))
            continue
        if current is None:
            raise _bad(
                1,
                words('line %(line)s: a record starts with its headers, such as %(example)s', line=number,
                      example='[Game "Connect Four"]'),
                code="bad_header",
            )
        in_moves = True
        current.tokens.extend(line.split())
    if not records:
        raise _bad(1, words("there is no record in the text"), code="bad_header")
    return records


def _engine_of(record: Record) -> Engine[Any, Any]:
    named = record.headers.get("Slug") or record.headers.get("Game")
    if not named:
        raise _bad(record.number, words('the record names no game: give [Game "..."] or [Slug "..."]'), code="bad_header")
    for engine in ENGINES.values():
        if named in (engine.slug, engine.name) or named.lower() == engine.name.lower():
            return engine
    known = ", ".join(sorted(ENGINES))
    raise _bad(
        record.number, words("there is no game %(game)r; the games are: %(games)s", game=named, games=known),
        code="unknown_game",
    )


def _options_of(record: Record, engine: Engine[Any, Any]) -> JSON:
    text = record.headers.get("Options")
    options: Any = {}
    if text:
        try:
            options = json.loads(text)
        except ValueError:
            raise _bad(record.number, words("the Options header is not a JSON object"), code="bad_header") from None
        if not isinstance(options, dict):
            raise _bad(record.number, words("the Options header is not a JSON object"), code="bad_header")
    rules = engine_options(engine, options)
    if "players" not in rules:
        seats = sum(1 for key in record.headers if re.fullmatch(r"Seat\d+", key))
        players = record.headers.get("Players")
        if players is not None:
            if not players.isdigit():
                raise _bad(
                    record.number, words("Players must be a number of seats, not %(players)r", players=players),
                    code="bad_header",
                )
            rules["players"] = int(players)
        elif seats:
            rules["players"] = seats
    try:
        return engine.normalize_options(rules)
    except BadOptions as error:
        raise _bad(record.number, words("bad options: %(error)s", error=error.message), code="bad_options") from None


def _seed_of(record: Record) -> int:
    seed = record.headers.get("Seed")
    if seed is None:
        return 0
    try:
        return int(seed)
    except ValueError:
        raise _bad(
            record.number, words("Seed must be a whole number, not %(seed)r", seed=seed[:40]), code="bad_header"
        ) from None


def _moves_of(record: Record, engine: Engine[Any, Any]) -> list[str]:
    tokens = [token for token in record.tokens if not _PLY_NUMBER.match(token)]
    # The movetext ends with the result, as PGN's does; a bare list of moves is read too.
    if tokens and (tokens[-1] == record.headers.get("Result") or _RESULT_TOKEN.match(tokens[-1])):
        tokens.pop()
    if tokens:
        return tokens
    compact = record.headers.get("Moves")
    if not compact:
        return []
    moves = engine.split_moves(compact)
    if moves is None:
        raise _bad(
            record.number, words("%(game)s has no compact form of moves; list them after the headers", game=engine.name)
        )
    return moves


def replay_record(record: Record, budget: int = MAX_POSITIONS) -> JSON:
    """Every position of ``record`` as a spectator sees it, from its start to its last move."""
    engine = _engine_of(record)
    options = _options_of(record, engine)
    seed = _seed_of(record)
    moves = _moves_of(record, engine)
    if len(moves) + 1 > budget:
        raise _bad(
            record.number,
            words("too many moves: at most %(count)s positions are replayed at once", count=MAX_POSITIONS),
            code="too_long",
        )
    try:
        state = engine.initial_state(options["players"], options, seed)
    except (BadOptions, EngineError) as error:
        raise _bad(record.number, words("bad options: %(error)s", error=error.message), code="bad_options") from None
    positions: list[JSON] = [{"ply": 0, "seat": None, "move": None, "text": None, "state": engine.view(state, None)}]
    for ply, text in enumerate(moves, start=1):
        seat = engine.seat_to_move(state)
        if seat is None:
            raise _bad(
                record.number, words("%(move)r comes after the end of the game", move=text), ply=ply, code="illegal_move"
            )
        try:
            action = engine.parse(state, text)
            after = engine.apply(state, seat, action)
        except EngineError as error:
            if "Seed" in record.headers:
                why = words("%(move)r: %(error)s", move=text, error=error.message)
            else:
                why = words(
                    "%(move)r: %(error)s (the record has no Seed: a game dealt from one cannot be replayed without it)",
                    move=text,
                    error=error.message,
                )
            raise _bad(record.number, why, ply=ply, code=error.code) from None
        description = engine.describe(state, seat, action)
        positions.append({
            "ply": ply,
            "seat": seat,
            "move": engine.format(state, action),
            "text": description,
            **({"words": description.to_json()} if isinstance(description, Words) else {}),
            "state": engine.view(after, None),
        })
        state = after
    outcome = engine.outcome(state)
    return {
        "game": engine.slug,
        "headers": record.headers,
        "players": options["players"],
        "options": options,
        "plies": len(moves),
        "outcome": outcome.to_json() if outcome is not None else None,
        "positions": positions,
    }


def read_records(text: Any) -> list[JSON]:
    """Replay every record of ``text``; Invalid (400) names the record, ply and reason of the first fault."""
    if not isinstance(text, str) or not text.strip():
        raise Invalid("bad_record", words('send a game record: as text/plain, or as JSON {"record": "..."}'))
    if len(text) > MAX_RECORD_CHARACTERS:
        raise Invalid(
            "too_long", words("a record file is at most %(count)s characters", count=f"{MAX_RECORD_CHARACTERS:,}")
        )
    replayed: list[JSON] = []
    budget = MAX_POSITIONS
    for record in split_records(text):
        replayed.append(replay_record(record, budget))
        budget -= len(replayed[-1]["positions"])
    return replayed
