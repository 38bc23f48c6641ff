"""Manhattan (Hans im Glueck, 1994): build skyscrapers, own the most and the tallest.

Board and seats
    Six cities lie in two rows of three. Seen from South, cities 1, 2, 3 are the
    far row (north) from west to east and cities 4, 5, 6 the near row. Each city
    is a 3x3 grid of building sites; a site is named by its compass corner as
    seen from South ("north-west", "north", ..., "centre", ..., "south-east")
    and given in board coordinates (row, column) with row 0 the north row
    (farthest from South) and column 0 the west column.

    There are always four players. Each engine seat 0..3 is given a compass
    direction (South, West, North, East) at random from the seed, and the
    start player of round 1 is drawn from the seed too. Play goes clockwise:
    South, West, North, East, South ... So the order of play follows the
    compass, not the seat numbers.

Material
    Each player owns 24 pieces: 11 of one storey, 6 of two, 4 of three and 3 of
    four. There are 45 building cards, 5 for each of the 9 positions of a 3x3
    grid. Card positions are numbered 1..9 reading left to right from the row
    nearest the board: 1 2 3 / 4 5 6 / 7 8 9, so 5 is the centre.

Reading a card
    A player reads a card from their own seat. Card cell (r, c), with r = 0 the
    row nearest the board and c = 0 the player's left, is the board site
    South (r, c), West (c, 2-r), North (2-r, 2-c), East (2-c, r). The centre
    card is the centre site for everyone. The card shows the site only; the
    player chooses the city.

A round (there are 4)
    1. The 45 cards are shuffled (from the seed and the round number) and each
       player is dealt 4.
    2. Beginning with the start player and going clockwise, each player picks 6
       of their remaining pieces for the round. Picks are public. In round 4
       exactly 6 pieces are left, so the pick is forced: it is still a move, the
       single legal ``pick:`` action, so the platform handles it like any other.
    3. Beginning with the start player and going clockwise, each player in turn
       plays a card from their hand, chooses a city, puts one of their picked
       pieces on the site of that city the card shows, then draws a card.
       A piece may go on an empty site, on the player's own building, or on
       someone else's building if afterwards the player has at least as many
       storeys in that building as every other player
       (``storeys[p] + piece >= max over i != p of storeys[i]``). The player who
       placed last owns the building; its height is all its storeys.
    4. House rule (no legal placement): if no card, city and picked piece of the
       player can legally be placed, the player discards a card of their
       choice, draws, and loses their smallest picked piece (it leaves the
       game). This is its own move, ``discard:N``, legal only then.
    5. The round ends when every player has placed or lost all 6 picked pieces
       (each turn uses up exactly one piece, so everybody gets 6 turns).
    6. Scoring, after every round, from the board as it stands:
       +3 to the owner of the tallest building on the board (nobody if the
       buildings of that height have different owners); +2 in each city to the
       player owning the most buildings there (nobody on a tie); +1 for every
       building owned.
    7. The start player passes clockwise.

End of the game
    After round 4 the highest score wins. Ties on score go to the tied player
    whose own tallest building is taller; then to the tied player owning the
    most buildings; a tie after that is shared: every tied winner gets "win",
    everybody else "loss". Final scores are in ``Outcome.scores``; every seat
    is placed (``Outcome.places``) by the same order, ties shared.

Hidden information
    A player's hand and the order of the deck. Everything else, including the
    cards played this round, is public. ``view(state, seat)`` shows the other
    seats' hand sizes only; spectators (seat None) see no hand at all.

Notation (the canonical text of each move)
    ``pick:111234``  pick six pieces for the round, written as their storeys,
                     sorted (parse accepts them in any order).
    ``5@3/2``        play the card showing position 5, in city 3, with a
                     two-storey piece.
    ``discard:5``    the house rule: discard the card showing position 5 (and
                     lose the smallest picked piece); legal only when no
                     placement is.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import NamedTuple, TypeVar

from .base import (
    JSON,
    LOSS,
    WIN,
    BadNotation,
    BadOptions,
    BotLevel,
    Engine,
    IllegalMove,
    Outcome,
    places_by,
)
from .words import Words, term, words

SOUTH, WEST, NORTH, EAST = 0, 1, 2, 3
DIRECTIONS = (words("South"), words("West"), words("North"), words("East"))  # also the clockwise order of play

PLAYERS = 4
ROUNDS = 4
CITIES = 6
SITES_PER_CITY = 9
HAND_SIZE = 4
PIECES_PER_ROUND = 6
CARDS_PER_POSITION = 5
# Pieces a player owns, by storeys 1..4.
STOCK: tuple[int, ...] = (11, 6, 4, 3)
MAX_STOREYS = len(STOCK)

# Sites named as seen from South, indexed [row][column].
SITE_NAMES = (
    (words("north-west"), words("north"), words("north-east")),
    (words("west"), words("centre"), words("east")),
    (words("south-west"), words("south"), words("south-east")),
)

PICK, BUILD, OVER = "pick", "build", "over"


# --- actions ----------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    """Six pieces chosen for the round, by storeys, sorted."""

    storeys: tuple[int, ...]


@dataclass(frozen=True)
class Place:
    """Play the card showing ``card`` (1..9), build in ``city`` (1..6) with a piece of ``storeys``."""

    card: int
    city: int
    storeys: int


@dataclass(frozen=True)
class Discard:
    """House rule: no legal placement, so discard ``card`` and lose the smallest picked piece."""

    card: int


Action = Pick | Place | Discard


# --- state ------------------------------------------------------------------


class Site(NamedTuple):
    """One building site: how many storeys each seat has put there, and who placed last."""

    storeys: tuple[int, ...]
    owner: int | None

    @property
    def height(self) -> int:
        return sum(self.storeys)


EMPTY_SITE = Site((0,) * PLAYERS, None)


@dataclass(frozen=True)
class ManhattanState:
    seed: int
    # directions[seat] is the seat's compass index (SOUTH..EAST).
    directions: tuple[int, ...]
    round: int
    phase: str
    # The start player of the current round and the seat to act now.
    start: int
    turn: int
    # Card positions in each hand, sorted (the order they were drawn in is no secret
    # worth keeping and sorting makes equal hands compare equal).
    hands: tuple[tuple[int, ...], ...]
    # The cards left to draw this round; the next draw is deck[0].
    deck: tuple[int, ...]
    # Pieces each seat has not yet picked, counted by storeys 1..4.
    stock: tuple[tuple[int, ...], ...]
    # Pieces each seat picked this round and has not yet placed or lost, sorted.
    # During the pick phase an empty pick means "not picked yet" (a pick is never
    # empty); during the build phase it means "done for this round".
    picked: tuple[tuple[int, ...], ...]
    # 54 sites: city k (0-based) holds board[9k .. 9k+8], row by row as seen from South.
    board: tuple[Site, ...]
    scores: tuple[int, ...]
    # Points each seat scored at the end of each finished round.
    round_points: tuple[tuple[int, ...], ...] = ()
    # Cards played or discarded this round, in order (public: the move log shows them).
    played: tuple[int, ...] = ()
    # Pieces each seat lost to the no-legal-placement house rule, by storeys.
    lost: tuple[tuple[int, ...], ...] = ((), (), (), ())
    # (seat, notation, words) of the move that led here.
    last: tuple[int, str, str] | None = None

    def seat_of(self, direction: int) -> int:
        return self.directions.index(direction)

    def next_seat(self, seat: int) -> int:
        """The seat on ``seat``'s left: clockwise is South, West, North, East."""
        return self.directions.index((self.directions[seat] + 1) % PLAYERS)

    def order(self) -> tuple[int, ...]:
        """The seats in order of play this round, start player first."""
        seats = [self.start]
        while len(seats) < PLAYERS:
            seats.append(self.next_seat(seats[-1]))
        return tuple(seats)


# --- rules helpers (shared with the AI) ----------------------------------------


def card_site(direction: int, card: int) -> tuple[int, int]:
    """The board site (row, column), seen from South, that ``card`` shows to a seat facing ``direction``."""
    r, c = divmod(card - 1, 3)
    if direction == SOUTH:
        return (r, c)
    if direction == WEST:
        return (c, 2 - r)
    if direction == NORTH:
        return (2 - r, 2 - c)
    return (2 - c, r)


def site_index(city: int, row: int, column: int) -> int:
    """Index into ``board`` of a site; ``city`` is 1..6."""
    return (city - 1) * SITES_PER_CITY + row * 3 + column


def may_build(site: Site, seat: int, storeys: int) -> bool:
    """Whether ``seat`` may put a piece of ``storeys`` on ``site``.

    One test covers all three cases of the rules: an empty site has nobody to
    match, and the owner of a building already has at least as many storeys in
    it as anyone (they had when they placed last, and anyone who caught up since
    would have become the owner).
    """
    mine = site.storeys[seat] + storeys
    return all(mine >= n for i, n in enumerate(site.storeys) if i != seat)


def board_points(board: tuple[Site, ...]) -> tuple[int, ...]:
    """What each seat would score if the round ended now."""
    points = [0] * PLAYERS
    tallest = 0
    tallest_owners: set[int] = set()
    for city in range(CITIES):
        owned = [0] * PLAYERS
        for site in board[city * SITES_PER_CITY : (city + 1) * SITES_PER_CITY]:
            if site.owner is None:
                continue
            owned[site.owner] += 1
            height = site.height
            if height > tallest:
                tallest, tallest_owners = height, {site.owner}
            elif height == tallest:
                tallest_owners.add(site.owner)
        for seat in range(PLAYERS):
            points[seat] += owned[seat]
        most = max(owned)
        if most > 0 and owned.count(most) == 1:
            points[owned.index(most)] += 2
    if len(tallest_owners) == 1:
        points[next(iter(tallest_owners))] += 3
    return tuple(points)


def tallest_owned(board: tuple[Site, ...], seat: int) -> int:
    return max((site.height for site in board if site.owner == seat), default=0)


def buildings_owned(board: tuple[Site, ...], seat: int) -> int:
    return sum(1 for site in board if site.owner == seat)


def pick_options(stock: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every multiset of six pieces that ``stock`` (counts by storeys) allows, sorted."""
    options: list[tuple[int, ...]] = []
    for ones in range(min(stock[0], PIECES_PER_ROUND) + 1):
        for twos in range(min(stock[1], PIECES_PER_ROUND - ones) + 1):
            for threes in range(min(stock[2], PIECES_PER_ROUND - ones - twos) + 1):
                fours = PIECES_PER_ROUND - ones - twos - threes
                if fours <= stock[3]:
                    options.append((1,) * ones + (2,) * twos + (3,) * threes + (4,) * fours)
    return options


def _without(pieces: tuple[int, ...], piece: int) -> tuple[int, ...]:
    at = pieces.index(piece)
    return pieces[:at] + pieces[at + 1 :]


T = TypeVar("T")


def _replace_at(items: tuple[T, ...], at: int, value: T) -> tuple[T, ...]:
    return items[:at] + (value,) + items[at + 1 :]


def _deal(seed: int, round_number: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Hands and deck of a round: the whole pack is shuffled afresh every round."""
    cards = [card for card in range(1, 10) for _ in range(CARDS_PER_POSITION)]
    random.Random(f"{seed}:{round_number}").shuffle(cards)
    hands = tuple(
        tuple(sorted(cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])) for seat in range(PLAYERS)
    )
    return hands, tuple(cards[PLAYERS * HAND_SIZE :])


_PICK_TEXT = re.compile(r"pick:([0-9]+)")
_PLACE_TEXT = re.compile(r"([0-9]+)@([0-9]+)/([0-9]+)")
_DISCARD_TEXT = re.compile(r"discard:([0-9]+)")


# --- the engine ------------------------------------------------------------------


class Manhattan(Engine[ManhattanState, Action]):
    slug = "manhattan"
    name = words("Manhattan")
    min_players = PLAYERS
    max_players = PLAYERS
    # The original game gave each turn a time limit, then played a random move.
    default_turn_seconds = 60

    def bot_levels(self) -> tuple[BotLevel, ...]:
        from .manhattan_ai import greedy_bot, strong_bot

        return (
            *super().bot_levels(),
            BotLevel(term("AI level", "greedy"), words("builds where its score goes up most right now"), greedy_bot),
            BotLevel(
                term("AI level", "strong"),
                words("picks big pieces and looks two turns ahead over sampled hands"),
                strong_bot,
            ),
        )

    def initial_state(self, players: int, options: JSON, seed: int) -> ManhattanState:
        if players != PLAYERS:
            raise BadOptions(words("Manhattan is played by exactly 4 players"))
        draw = random.Random(f"{seed}:seats")
        directions = [SOUTH, WEST, NORTH, EAST]
        draw.shuffle(directions)
        start = draw.randrange(PLAYERS)
        hands, deck = _deal(seed, 1)
        return ManhattanState(
            seed=seed,
            directions=tuple(directions),
            round=1,
            phase=PICK,
            start=start,
            turn=start,
            hands=hands,
            deck=deck,
            stock=(STOCK,) * PLAYERS,
            picked=((),) * PLAYERS,
            board=(EMPTY_SITE,) * (CITIES * SITES_PER_CITY),
            scores=(0,) * PLAYERS,
        )

    def to_move(self, state: ManhattanState) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    # --- legal moves -----------------------------------------------------

    def legal_actions(self, state: ManhattanState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.turn:
            return []
        if state.phase == PICK:
            return [Pick(storeys) for storeys in pick_options(state.stock[seat])]
        placements = self._placements(state, seat)
        if placements:
            return list(placements)
        return [Discard(card) for card in sorted(set(state.hands[seat]))]

    def _placements(self, state: ManhattanState, seat: int) -> list[Action]:
        direction = state.directions[seat]
        pieces = sorted(set(state.picked[seat]))
        actions: list[Action] = []
        for card in sorted(set(state.hands[seat])):
            row, column = card_site(direction, card)
            for city in range(1, CITIES + 1):
                site = state.board[site_index(city, row, column)]
                for piece in pieces:
                    if may_build(site, seat, piece):
                        actions.append(Place(card, city, piece))
        return actions

    def _can_place(self, state: ManhattanState, seat: int) -> bool:
        direction = state.directions[seat]
        biggest = max(state.picked[seat])
        # A bigger piece is legal wherever a smaller one is, so the biggest decides.
        for card in set(state.hands[seat]):
            row, column = card_site(direction, card)
            for city in range(1, CITIES + 1):
                if may_build(state.board[site_index(city, row, column)], seat, biggest):
                    return True
        return False

    # --- applying a move -------------------------------------------------

    def apply(self, state: ManhattanState, seat: int, action: Action) -> ManhattanState:
        if state.phase == OVER:
            raise IllegalMove(words("the game is over"))
        if seat != state.turn:
            who = DIRECTIONS[state.directions[state.turn]]
            raise IllegalMove(words("it is not your turn: %(player)s is to move", player=who))
        if isinstance(action, Pick):
            return self._apply_pick(state, seat, action)
        if isinstance(action, Place):
            return self._apply_place(state, seat, action)
        if isinstance(action, Discard):
            return self._apply_discard(state, seat, action)
        raise IllegalMove(words("that is not a Manhattan move"))

    def _apply_pick(self, state: ManhattanState, seat: int, action: Pick) -> ManhattanState:
        if state.phase != PICK:
            raise IllegalMove(words("the pieces for this round are picked: play a card now"))
        if len(action.storeys) != PIECES_PER_ROUND:
            raise IllegalMove(
                words("pick six pieces, not %(count)s (for example %(example)s)", count=len(action.storeys),
                      example="pick:111234")
            )
        stock = list(state.stock[seat])
        for storeys in action.storeys:
            if not 1 <= storeys <= MAX_STOREYS:
                raise IllegalMove(
                    words("there are no %(storeys)s-storey pieces: pieces have 1 to 4 storeys", storeys=storeys)
                )
        for storeys in range(1, MAX_STOREYS + 1):
            wanted = action.storeys.count(storeys)
            if wanted > stock[storeys - 1]:
                raise IllegalMove(
                    words(
                        "you have only %(left)s %(storeys)s-storey piece(s) left to pick, not %(wanted)s",
                        left=stock[storeys - 1],
                        storeys=storeys,
                        wanted=wanted,
                    )
                )
            stock[storeys - 1] -= wanted
        text = self.describe(state, seat, action)
        following = state.next_seat(seat)
        return replace(
            state,
            stock=_replace_at(state.stock, seat, tuple(stock)),
            picked=_replace_at(state.picked, seat, tuple(sorted(action.storeys))),
            # Once everyone has picked, the turn is back with the start player, who builds first.
            phase=BUILD if following == state.start else PICK,
            turn=following,
            last=(seat, self.format(state, action), text),
        )

    def _check_card(self, state: ManhattanState, card: int) -> None:
        if state.phase != BUILD:
            raise IllegalMove(words("pick your six pieces for round %(round)s first", round=state.round))
        if not 1 <= card <= SITES_PER_CITY:
            raise IllegalMove(words("there is no card position %(card)s: positions are 1..9", card=card))

    def _apply_place(self, state: ManhattanState, seat: int, action: Place) -> ManhattanState:
        self._check_card(state, action.card)
        if not 1 <= action.city <= CITIES:
            raise IllegalMove(words("city %(city)s does not exist: cities are 1..6", city=action.city))
        if not 1 <= action.storeys <= MAX_STOREYS:
            raise IllegalMove(
                words("there are no %(storeys)s-storey pieces: pieces have 1 to 4 storeys", storeys=action.storeys)
            )
        if action.card not in state.hands[seat]:
            raise IllegalMove(words("card %(card)s is not in your hand", card=action.card))
        if action.storeys not in state.picked[seat]:
            raise IllegalMove(
                words(
                    "you did not pick a %(storeys)s-storey piece (or you have placed it already this round)",
                    storeys=action.storeys,
                )
            )
        row, column = card_site(state.directions[seat], action.card)
        at = site_index(action.city, row, column)
        site = state.board[at]
        if not may_build(site, seat, action.storeys):
            rival = max(
                (i for i in range(PLAYERS) if i != seat), key=lambda i: site.storeys[i]
            )
            raise IllegalMove(
                words(
                    "%(player)s would have fewer storeys than %(rival)s in that building (%(mine)s against %(theirs)s)",
                    player=DIRECTIONS[state.directions[seat]],
                    rival=DIRECTIONS[state.directions[rival]],
                    mine=site.storeys[seat] + action.storeys,
                    theirs=site.storeys[rival],
                )
            )
        storeys = list(site.storeys)
        storeys[seat] += action.storeys
        board = _replace_at(state.board, at, Site(tuple(storeys), seat))
        text = self.describe(state, seat, action)
        return self._end_turn(
            state,
            seat,
            card=action.card,
            piece=action.storeys,
            board=board,
            lost=state.lost,
            last=(seat, self.format(state, action), text),
        )

    def _apply_discard(self, state: ManhattanState, seat: int, action: Discard) -> ManhattanState:
        self._check_card(state, action.card)
        if action.card not in state.hands[seat]:
            raise IllegalMove(words("card %(card)s is not in your hand", card=action.card))
        if self._can_place(state, seat):
            example = self.format(state, self._placements(state, seat)[0])
            raise IllegalMove(
                words(
                    "you can still build (for example %(example)s): discard only when no card, city and piece can be placed",
                    example=example,
                )
            )
        smallest = min(state.picked[seat])
        text = self.describe(state, seat, action)
        lost = _replace_at(state.lost, seat, tuple(sorted((*state.lost[seat], smallest))))
        return self._end_turn(
            state,
            seat,
            card=action.card,
            piece=smallest,
            board=state.board,
            lost=lost,
            last=(seat, self.format(state, action), text),
        )

    def _end_turn(
        self,
        state: ManhattanState,
        seat: int,
        *,
        card: int,
        piece: int,
        board: tuple[Site, ...],
        lost: tuple[tuple[int, ...], ...],
        last: tuple[int, str, str],
    ) -> ManhattanState:
        """Spend the card and the piece, draw, and pass the turn (or end the round)."""
        hand = list(_without(state.hands[seat], card))
        deck = state.deck
        # 16 dealt + 24 drawn fit in the 45 cards, so the deck never runs dry; the
        # guard only keeps a hand-made position from crashing.
        if deck:
            hand.append(deck[0])
            deck = deck[1:]
        picked = _replace_at(state.picked, seat, _without(state.picked[seat], piece))
        after = replace(
            state,
            hands=_replace_at(state.hands, seat, tuple(sorted(hand))),
            deck=deck,
            picked=picked,
            board=board,
            lost=lost,
            played=(*state.played, card),
            turn=state.next_seat(seat),
            last=last,
        )
        if any(after.picked):
            return after
        return self._end_round(after)

    def _end_round(self, state: ManhattanState) -> ManhattanState:
        gained = board_points(state.board)
        scores = tuple(a + b for a, b in zip(state.scores, gained))
        round_points = (*state.round_points, gained)
        if state.round == ROUNDS:
            return replace(
                state, scores=scores, round_points=round_points, phase=OVER, played=()
            )
        start = state.next_seat(state.start)
        hands, deck = _deal(state.seed, state.round + 1)
        return replace(
            state,
            scores=scores,
            round_points=round_points,
            round=state.round + 1,
            phase=PICK,
            start=start,
            turn=start,
            hands=hands,
            deck=deck,
            played=(),
        )

    # --- the end -----------------------------------------------------------

    def outcome(self, state: ManhattanState) -> Outcome | None:
        if state.phase != OVER:
            return None
        ranks = {
            seat: (
                state.scores[seat],
                tallest_owned(state.board, seat),
                buildings_owned(state.board, seat),
            )
            for seat in range(PLAYERS)
        }
        best = max(ranks.values())
        winners = [seat for seat in range(PLAYERS) if ranks[seat] == best]
        results = tuple(WIN if seat in winners else LOSS for seat in range(PLAYERS))
        top = best[0]
        rivals = [seat for seat in range(PLAYERS) if state.scores[seat] == top and seat not in winners]
        if len(winners) > 1:
            reason = words("%(players)s share the win with %(points)s points", players=_and(
                [DIRECTIONS[state.directions[seat]] for seat in winners]), points=top)
        else:
            player = DIRECTIONS[state.directions[winners[0]]]
            if not rivals:
                reason = words("%(player)s wins with %(points)s points", player=player, points=top)
            elif best[1] > max(ranks[seat][1] for seat in rivals):
                reason = words(
                    "%(player)s wins the tie on %(points)s points with the tallest building", player=player, points=top
                )
            else:
                reason = words(
                    "%(player)s wins the tie on %(points)s points with the most buildings", player=player, points=top
                )
        # Every seat is placed by the same order as the winner: score, then
        # tallest building, then buildings owned; seats equal on all three tie.
        places = places_by(tuple(-key for key in ranks[seat]) for seat in range(PLAYERS))
        return Outcome(results, reason, state.scores, places)

    # --- notation --------------------------------------------------------

    def parse(self, state: ManhattanState, text: str) -> Action:
        cleaned = text.strip().lower() if isinstance(text, str) else ""
        match = _PLACE_TEXT.fullmatch(cleaned)
        if match:
            card, city, storeys = (int(group) for group in match.groups())
            return Place(card, city, storeys)
        match = _PICK_TEXT.fullmatch(cleaned)
        if match:
            return Pick(tuple(sorted(int(digit) for digit in match.group(1))))
        match = _DISCARD_TEXT.fullmatch(cleaned)
        if match:
            return Discard(int(match.group(1)))
        raise BadNotation(
            words(
                "%(text)r is not a Manhattan move: write %(pick)s (six pieces by storeys),"
                " %(place)s (card 5, city 3, a 2-storey piece) or %(discard)s",
                text=text,
                pick="pick:111234",
                place="5@3/2",
                discard="discard:5",
            )
        )

    def format(self, state: ManhattanState, action: Action) -> str:
        if isinstance(action, Pick):
            return "pick:" + "".join(str(storeys) for storeys in action.storeys)
        if isinstance(action, Place):
            return f"{action.card}@{action.city}/{action.storeys}"
        return f"discard:{action.card}"

    def describe(self, state: ManhattanState, seat: int, action: Action) -> str:
        who = DIRECTIONS[state.directions[seat]]
        if isinstance(action, Pick):
            return words(
                "%(player)s picked %(pieces)s", player=who, pieces=",".join(str(storeys) for storeys in action.storeys)
            )
        if isinstance(action, Discard):
            smallest = min(state.picked[seat]) if state.picked[seat] else 0
            return words(
                "%(player)s could not build anywhere, discarded card %(card)s and lost a %(storeys)s-storey piece",
                player=who,
                card=action.card,
                storeys=smallest,
            )
        row, column = card_site(state.directions[seat], action.card)
        site = SITE_NAMES[row][column]
        if 1 <= action.city <= CITIES:
            owner = state.board[site_index(action.city, row, column)].owner
            if owner is not None and owner != seat:
                return words(
                    "%(player)s built a %(storeys)s-storey piece on city %(city)s, %(site)s site,"
                    " taking the building from %(rival)s",
                    player=who,
                    storeys=action.storeys,
                    city=action.city,
                    site=site,
                    rival=DIRECTIONS[state.directions[owner]],
                )
        return words(
            "%(player)s built a %(storeys)s-storey piece on city %(city)s, %(site)s site",
            player=who,
            storeys=action.storeys,
            city=action.city,
            site=site,
        )

    # --- serialisation and views -----------------------------------------

    def serialize(self, state: ManhattanState) -> JSON:
        return {
            "seed": state.seed,
            "directions": list(state.directions),
            "round": state.round,
            "phase": state.phase,
            "start": state.start,
            "turn": state.turn,
            "hands": [list(hand) for hand in state.hands],
            "deck": list(state.deck),
            "stock": [list(counts) for counts in state.stock],
            "picked": [list(pieces) for pieces in state.picked],
            "board": [[*site.storeys, site.owner] for site in state.board],
            "scores": list(state.scores),
            "round_points": [list(points) for points in state.round_points],
            "played": list(state.played),
            "lost": [list(pieces) for pieces in state.lost],
            # The last move's words go along (as template and args) so a page can say them in any language.
            "last": None if state.last is None else [*state.last, *_words_json(state.last[2])],
        }

    def deserialize(self, data: JSON) -> ManhattanState:
        def ints(items: list[int]) -> tuple[int, ...]:
            return tuple(int(item) for item in items)

        last = data["last"]
        return ManhattanState(
            seed=int(data["seed"]),
            directions=ints(data["directions"]),
            round=int(data["round"]),
            phase=str(data["phase"]),
            start=int(data["start"]),
            turn=int(data["turn"]),
            hands=tuple(ints(hand) for hand in data["hands"]),
            deck=ints(data["deck"]),
            stock=tuple(ints(counts) for counts in data["stock"]),
            picked=tuple(ints(pieces) for pieces in data["picked"]),
            board=tuple(
                Site(ints(site[:PLAYERS]), None if site[PLAYERS] is None else int(site[PLAYERS]))
                for site in data["board"]
            ),
            scores=ints(data["scores"]),
            round_points=tuple(ints(points) for points in data["round_points"]),
            played=ints(data["played"]),
            lost=tuple(ints(pieces) for pieces in data["lost"]),
            last=None if last is None else (int(last[0]), str(last[1]), _last_words(last)),
        )

    def view(self, state: ManhattanState, seat: int | None) -> JSON:
        """The public position, plus the hand of ``seat`` (None: a spectator sees no hand)."""
        points_now = board_points(state.board)
        seats = []
        for s in range(PLAYERS):
            seats.append(
                {
                    "seat": s,
                    "direction": DIRECTIONS[state.directions[s]],
                    "picked": list(state.picked[s]),
                    # Pieces not yet picked, by storeys.
                    "remaining": {str(n): state.stock[s][n - 1] for n in range(1, 5)},
                    "lost": list(state.lost[s]),
                    "score": state.scores[s],
                    "hand_size": len(state.hands[s]),
                    "buildings": buildings_owned(state.board, s),
                    "points_if_round_ended_now": points_now[s],
                }
            )
        cities = []
        for city in range(1, CITIES + 1):
            rows = []
            for row in range(3):
                sites = []
                for column in range(3):
                    site = state.board[site_index(city, row, column)]
                    sites.append(
                        {
                            "row": row,
                            "column": column,
                            "name": SITE_NAMES[row][column],
                            "storeys": list(site.storeys),
                            "height": site.height,
                            "owner": site.owner,
                        }
                    )
                rows.append(sites)
            cities.append(
                {"city": city, "row": (city - 1) // 3, "column": (city - 1) % 3, "sites": rows}
            )
        totals: list[int] = [0] * PLAYERS
        after_rounds = []
        for number, gained in enumerate(state.round_points, start=1):
            totals = [a + b for a, b in zip(totals, gained)]
            after_rounds.append({"round": number, "points": list(gained), "totals": totals})
        played = [state.played.count(card) for card in range(1, 10)]
        view: JSON = {
            "seat": seat,
            "round": state.round,
            "rounds": ROUNDS,
            "phase": state.phase,
            "start_player": state.start,
            "to_move": list(self.to_move(state)),
            "order": list(state.order()),
            "seats": seats,
            "cities": cities,
            "deck_size": len(state.deck),
            # How many cards of each position 1..9 were played or discarded this
            # round: public, and what a player needs to reason about unseen cards.
            "cards_played": played,
            "last_move": None if state.last is None else _last_move(state.last),
            "after_rounds": after_rounds,
        }
        if seat is not None:
            hand = state.hands[seat]
            view["hand"] = list(hand)
            # Where each card of the hand builds, so a page can highlight the site
            # without knowing how cards are read.
            hand_sites: JSON = {}
            for card in sorted(set(hand)):
                row, column = card_site(state.directions[seat], card)
                hand_sites[str(card)] = {
                    "row": row,
                    "column": column,
                    "name": SITE_NAMES[row][column],
                }
            view["hand_sites"] = hand_sites
        outcome = self.outcome(state)
        if outcome is not None:
            view["outcome"] = outcome.to_json()
        return view


def _and(names: list[Words]) -> Words:
    """``South and North`` (``South, West and North``): the seats that share a win."""
    if len(names) == 1:
        return names[0]
    return words("%(players)s and %(last)s", players=_comma(names[:-1]), last=names[-1])


def _comma(names: list[Words]) -> Words:
    if len(names) == 1:
        return names[0]
    return words("%(first)s, %(rest)s", first=names[0], rest=_comma(names[1:]))


def _last_move(last: tuple[int, str, str]) -> JSON:
    seat, notation, text = last
    move: JSON = {"seat": seat, "notation": notation, "text": text}
    if isinstance(text, Words):
        move["words"] = text.to_json()
    return move


def _words_json(text: str) -> list[JSON]:
    """The words of a log line as template and args, where it has them (none: plain text)."""
    return [text.to_json()] if isinstance(text, Words) else []


def _last_words(last: list[object]) -> str:
    """The last move's text from a serialised state: its words where they were kept."""
    if len(last) > 3 and isinstance(last[3], dict):
        return Words.from_json(last[3])
    return str(last[2])
