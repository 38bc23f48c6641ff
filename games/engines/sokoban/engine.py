"""Sokoban ("PushBox"), one player.

Rules: the player steps left, up, right or down onto floor or a goal, never
through a wall. Stepping into a box pushes it one square the same way if the
square behind it is free (floor or goal: no wall, no box); a box is never
pulled, and two boxes in a row cannot be pushed. The level is solved when
every box stands on a goal, and the game ends then.

House rules, as in the original program:

* ``undo`` takes back one step or push, back to the level's start at most, but
  does not lower the move and push counters: they count effort, not the
  length of the current path. ``reset`` puts everything back to the start,
  counters included. Both are actions of their own and go into the move log.
* Moves count every step (pushes included), pushes count box moves.

Notation: one LURD letter a move, ``l u r d`` a step, ``L U R D`` a push.
A push may be given in lower case too; ``format`` writes the canonical case
(upper case exactly when it pushes). An upper-case letter that would not push
is refused, since a solution that says "push" there is wrong. ``path`` is the
LURD string of the current position from the start, so undo shortens it.

Options: ``level``, the level as XSB text (or the numeric format; see
``levels``), default Microban level 1; ``title``, a name to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..base import (
    JSON,
    WIN,
    BadNotation,
    BadOptions,
    Engine,
    IllegalMove,
    OptionSpec,
    Outcome,
)
from ..words import words
from .levels import Cell, Level, LevelError, parse_level

# David W. Skinner's Microban, level 1 (see levels/README.md).
DEFAULT_LEVEL: Final = "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n"

DIRECTIONS: Final[dict[str, Cell]] = {"l": (-1, 0), "u": (0, -1), "r": (1, 0), "d": (0, 1)}
DIRECTION_WORDS: Final = {"l": words("left"), "u": words("up"), "r": words("right"), "d": words("down")}
# A move in words, for the game log: one sentence each, so each says it well in every language.
STEPPED: Final = {"l": words("stepped left"), "u": words("stepped up"), "r": words("stepped right"),
                  "d": words("stepped down")}
PUSHED: Final = {"l": words("pushed a box left"), "u": words("pushed a box up"), "r": words("pushed a box right"),
                 "d": words("pushed a box down")}
UNDO: Final = "undo"
RESET: Final = "reset"

# An action is a lower-case direction letter, "undo" or "reset".
Action = str


@dataclass(frozen=True)
class SokobanState:
    level: Level
    player: Cell
    boxes: frozenset[Cell]
    # LURD of the current position from the start; undo shortens it.
    path: str = ""
    # Effort counters: every step and every push ever made, undone ones included.
    moves: int = 0
    pushes: int = 0
    title: str = ""

    @property
    def solved(self) -> bool:
        return self.boxes == self.level.goals

    @property
    def at_start(self) -> bool:
        return not self.path and self.moves == 0 and self.pushes == 0

    def step(self, direction: str) -> tuple[Cell, bool] | None:
        """Where the player goes and whether it pushes, or None if blocked."""
        dx, dy = DIRECTIONS[direction]
        x, y = self.player
        target = (x + dx, y + dy)
        if target in self.level.walls:
            return None
        if target in self.boxes:
            beyond = (x + 2 * dx, y + 2 * dy)
            if beyond in self.level.walls or beyond in self.boxes:
                return None
            return target, True
        return target, False


def start_state(level: Level, title: str = "") -> SokobanState:
    return SokobanState(level, level.player, level.boxes, title=title or level.title)


def move(state: SokobanState, direction: str) -> SokobanState:
    """The state after one step or push; IllegalMove says why not."""
    result = state.step(direction)
    if result is None:
        dx, dy = DIRECTIONS[direction]
        x, y = state.player
        target = (x + dx, y + dy)
        word = DIRECTION_WORDS[direction]
        if target in state.level.walls:
            raise IllegalMove(words("there is a wall to the %(way)s", way=word))
        beyond = (x + 2 * dx, y + 2 * dy)
        if beyond in state.boxes:
            raise IllegalMove(words("two boxes in a row to the %(way)s cannot be pushed", way=word))
        raise IllegalMove(words("the box to the %(way)s is against a wall", way=word))
    target, pushes = result
    boxes = state.boxes
    if pushes:
        dx, dy = DIRECTIONS[direction]
        boxes = (boxes - {target}) | {(target[0] + dx, target[1] + dy)}
    letter = direction.upper() if pushes else direction
    return replace(
        state,
        player=target,
        boxes=boxes,
        path=state.path + letter,
        moves=state.moves + 1,
        pushes=state.pushes + pushes,
    )


def undo(state: SokobanState) -> SokobanState:
    """Take back the last step or push; the counters stay (the original's rule)."""
    if not state.path:
        raise IllegalMove(words("there is nothing to undo: this is the level's start"))
    letter = state.path[-1]
    dx, dy = DIRECTIONS[letter.lower()]
    x, y = state.player
    boxes = state.boxes
    if letter.isupper():
        # The pushed box is one square ahead of the player; it goes back under him.
        boxes = (boxes - {(x + dx, y + dy)}) | {(x, y)}
    return replace(state, player=(x - dx, y - dy), boxes=boxes, path=state.path[:-1])


def replay(level: Level, lurd: str) -> SokobanState:
    """The state after a LURD string; BadNotation or IllegalMove name the bad letter.

    Upper case must push; lower case may push (the case is not checked then).
    """
    state = start_state(level)
    for index, letter in enumerate(lurd):
        if letter.isspace():
            continue
        direction = letter.lower()
        if direction not in DIRECTIONS:
            raise BadNotation(
                words(
                    "letter %(index)s is %(letter)r; a LURD string uses only l u r d L U R D",
                    index=index + 1,
                    letter=letter,
                )
            )
        if letter.isupper():
            found = state.step(direction)
            if found is not None and not found[1]:
                raise IllegalMove(
                    words(
                        "letter %(index)s (%(letter)s) should push, but there is no box to push",
                        index=index + 1,
                        letter=letter,
                    )
                )
        try:
            state = move(state, direction)
        except IllegalMove as error:
            raise IllegalMove(
                words("letter %(index)s (%(letter)s): %(why)s", index=index + 1, letter=letter, why=error.message)
            ) from None
    return state


class Sokoban(Engine[SokobanState, Action]):
    slug = "sokoban"
    name = words("Sokoban")
    min_players = 1
    max_players = 1
    option_specs = (
        OptionSpec("level", str, DEFAULT_LEVEL, words("the level, as XSB text")),
        OptionSpec("title", str, "", words("the level's name, for display")),
    )

    def check_options(self, options: JSON) -> None:
        try:
            parse_level(options["level"])
        except LevelError as error:
            raise BadOptions(words("option 'level': %(error)s", error=error.message)) from None

    def initial_state(self, players: int, options: JSON, seed: int) -> SokobanState:
        try:
            level = parse_level(options.get("level", DEFAULT_LEVEL))
        except LevelError as error:
            raise BadOptions(words("option 'level': %(error)s", error=error.message)) from None
        return start_state(level, options.get("title", ""))

    def to_move(self, state: SokobanState) -> tuple[int, ...]:
        return () if state.solved else (0,)

    def legal_actions(self, state: SokobanState, seat: int) -> list[Action]:
        if seat != 0 or state.solved:
            return []
        actions = [d for d in DIRECTIONS if state.step(d) is not None]
        if state.path:
            actions.append(UNDO)
        if not state.at_start:
            actions.append(RESET)
        return actions

    def apply(self, state: SokobanState, seat: int, action: Action) -> SokobanState:
        if state.solved:
            raise IllegalMove(words("the level is solved; the game is over"))
        if seat != 0:
            raise IllegalMove(words("Sokoban has one player, seat 0"))
        if action == UNDO:
            return undo(state)
        if action == RESET:
            if state.at_start:
                raise IllegalMove(words("the level is already at its start"))
            return start_state(state.level, state.title)
        if action not in DIRECTIONS:
            raise IllegalMove(words("unknown action %(action)r", action=action))
        return move(state, action)

    def outcome(self, state: SokobanState) -> Outcome | None:
        return Outcome((WIN,), words("solved")) if state.solved else None

    def parse(self, state: SokobanState, text: str) -> Action:
        word = text.strip() if isinstance(text, str) else ""
        if word.lower() in (UNDO, RESET):
            return word.lower()
        if len(word) != 1 or word.lower() not in DIRECTIONS:
            raise BadNotation(
                words("a move is one of l u r d (L U R D for a push), undo or reset; not %(text)r", text=text)
            )
        direction = word.lower()
        if word.isupper():
            found = state.step(direction)
            if found is not None and not found[1]:
                raise IllegalMove(
                    words(
                        "%(move)s is a push, but there is no box to the %(way)s; step with %(step)s",
                        move=word,
                        way=DIRECTION_WORDS[direction],
                        step=direction,
                    )
                )
        return direction

    def format(self, state: SokobanState, action: Action) -> str:
        if action in DIRECTIONS:
            found = state.step(action)
            return action.upper() if found is not None and found[1] else action
        return action

    def describe(self, state: SokobanState, seat: int, action: Action) -> str:
        if action == UNDO:
            return words("took back a move")
        if action == RESET:
            return words("started the level again")
        if action not in DIRECTIONS:
            return action
        found = state.step(action)
        return PUSHED[action] if found is not None and found[1] else STEPPED[action]

    def join_moves(self, moves: Sequence[str]) -> str | None:
        """The LURD string the moves leave, as Sokoban solutions are written: an
        ``undo`` takes back the letter before it and a ``reset`` clears them, so
        the string replays to the same position by the path the player kept."""
        path: list[str] = []
        for move in moves:
            if move == UNDO:
                if path:
                    path.pop()
            elif move == RESET:
                path.clear()
            elif len(move) == 1 and move.lower() in DIRECTIONS:
                path.append(move)
            else:
                return None
        return "".join(path)

    def split_moves(self, text: str) -> list[str] | None:
        return [letter for letter in text if not letter.isspace()]

    def analyse(self, state: SokobanState, seconds: float) -> JSON | None:
        """Whether the position can still be solved, and the pushes left to the nearest
        solution the solver finds within ``seconds`` (proved the fewest when ``optimal``)."""
        from .solver import UNSOLVABLE, solve

        if state.solved:
            return {"solvable": True, "pushes_left": 0, "optimal": True}
        here = replace(state.level, player=state.player, boxes=state.boxes)
        found = solve(here, "best", time_limit=max(seconds, 0.05), memory_limit_mb=512)
        if found.solved:
            return {"solvable": True, "pushes_left": found.pushes, "optimal": found.optimal}
        return {"solvable": False if found.status == UNSOLVABLE else None}

    def serialize(self, state: SokobanState) -> JSON:
        return {
            "level": state.level.to_xsb(title=False),
            "title": state.title,
            "path": state.path,
            "moves": state.moves,
            "pushes": state.pushes,
        }

    def deserialize(self, data: JSON) -> SokobanState:
        try:
            level = parse_level(data["level"])
        except LevelError as error:
            raise BadOptions(words("stored level: %(error)s", error=error.message)) from None
        state = replay(level, data["path"])
        return replace(
            state, moves=int(data["moves"]), pushes=int(data["pushes"]), title=data.get("title", "")
        )

    def view(self, state: SokobanState, seat: int | None) -> JSON:
        """Everything is public. ``rows`` is the board in XSB, with ``-`` for floor
        inside the player's area and a space for what lies outside the walls;
        ``walls``, ``goals``, ``boxes`` and ``player`` give the same as [x, y]
        pairs (x from the left, y from the top, 0-based)."""
        level = state.level
        inside = level.inside
        rows = []
        for y in range(level.height):
            row = []
            for x in range(level.width):
                cell = (x, y)
                if cell == state.player:
                    row.append("+" if cell in level.goals else "@")
                elif cell in state.boxes:
                    row.append("*" if cell in level.goals else "$")
                elif cell in level.walls or cell in level.goals:
                    row.append(level.symbol(cell))
                else:
                    # "-" marks floor inside the player's area, " " what lies outside it.
                    row.append("-" if cell in inside else " ")
            rows.append("".join(row))

        def cells(found: frozenset[Cell]) -> list[list[int]]:
            return [[x, y] for x, y in sorted(found, key=lambda c: (c[1], c[0]))]

        return {
            "title": state.title,
            "width": level.width,
            "height": level.height,
            "rows": rows,
            "walls": cells(level.walls),
            "goals": cells(level.goals),
            "boxes": cells(state.boxes),
            "player": list(state.player),
            "boxes_on_goals": len(state.boxes & level.goals),
            "moves": state.moves,
            "pushes": state.pushes,
            "path": state.path,
            "solved": state.solved,
            "can_undo": bool(state.path) and not state.solved,
            "to_move": list(self.to_move(state)),
        }
