"""The Sokoban solver: searches over pushes, within a time and memory budget.

A search node is a box position plus the area the player can walk to, named
by its lowest square (the canonical player square), since positions that
differ only by where the player walks are one position. Each node's children
are the pushes the player can make from that area; the walking between
pushes is filled in with a breadth-first path at the end, when the push
sequence is turned into a LURD string.

Algorithms (``ALGORITHMS``), as in the original program plus the default:

* ``bfs``: breadth-first over pushes; its solution is push-optimal.
* ``dfs``: depth-first; finds some solution, usually a long one.
* ``greedy``: best-first on the lower bound alone; fast, not optimal.
* ``astar``: A* on pushes with the box-to-goal matching bound (admissible),
  so its solution is push-optimal.
* ``best`` (default): A* with PI-corral pruning (which keeps push-optimal
  solutions) and a greedy search from both ends (forwards from the start,
  backwards by pulls from the solved position) take turns; once the greedy
  search has an answer, A* goes on alone for a while, bounded by it, to
  prove it or find a shorter one (see ``_solve_best``). Where the compiled
  core is built (``core.py``), that runs for the first second only; then
  the core's A*, then a portfolio of the core's greedy searches from both
  ends take over (see ``_solve_compiled``). An answer is called optimal
  only when an A* (or the bounded proof) found it.

Every algorithm skips dead squares and freeze deadlocks, and keeps a
transposition table of the positions seen (keyed exactly, by the box set and
the canonical player square packed into one integer, so no two positions can
collide; the core compares box lists and player squares in full behind
its hash). A search that runs out of positions without a solution proves the
level unsolvable: the pruning only removes positions with no solution or
pushes that another order makes just as well.

Limits: the search stops cleanly when the time runs out, when the memory it
has added passes the limit (the growth of the process's resident size, read
cheaply from /proc, or an estimate per stored position if that is larger), or
when ``progress`` asks it to; the result says which.
"""

from __future__ import annotations

import heapq
import os
import re
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Final, NamedTuple, TypedDict

from . import core
from .board import INF, LETTERS, Board, bits, count
from .deadlocks import FrozenTables, pi_corral, push_deadlock
from .levels import Level, parse_level
from .matching import Matcher
from .packing import PackingOrder

ALGORITHMS: Final = ("best", "astar", "greedy", "bfs", "dfs")

# How a run ended.
SOLVED: Final = "solved"
UNSOLVABLE: Final = "unsolvable"  # the search space was exhausted: no solution exists
TIME_LIMIT: Final = "time_limit"
MEMORY_LIMIT: Final = "memory_limit"
CANCELLED: Final = "cancelled"
# (A greedy search of a parallel portfolio stops so: another's answer is in hand.)
_SUPERSEDED: Final = "superseded"

# A progress callback gets the positions expanded so far; returning a true
# value (or raising SolveCancelled) stops the search.
Progress = Callable[[int], object]

PROGRESS_SECONDS: Final = 0.25
# A solve's memory unless told (the server's solve jobs have as much): its
# searches at once share it.
DEFAULT_MEMORY_MB: Final = 2048
# Bytes a stored position costs at most (table entry, key, parent links,
# queue entry): the memory estimate where the resident size cannot be read.
BYTES_PER_POSITION: Final = 400
# How long ``best`` lets A* go on alone, bounded by a greedy answer, before
# returning that answer (a share of the time limit, counted from the start).
OPTIMAL_SHARE: Final = 0.45
# The packing-order penalty (pushes per box filled out of order) of the greedy searches.
PACKING_PENALTY: Final = 3
# A* and the greedy search take turns: A* for one slice, greedy for two in
# the first round, three in the second, and so on.
SLICE_SECONDS: Final = 0.2
# With the compiled core: how long the pure-Python ``best`` runs first, and
# the share of the time limit the core's A* gets before its greedy search.
PYTHON_SECONDS: Final = 1.0
CORE_ASTAR_SHARE: Final = 0.1
# A level of ASTAR_MANY_BOXES boxes or more gives the core's A* only
# CORE_ASTAR_SHARE_MANY, the rest going to the greedy searches: alone, with
# the 12 s of CPU it has at 60 s on two threads, it solved 1 of the 47
# levels of the three classic sets with 15 boxes or more (Holland, Grigr2001
# and SokHard: SokHard 82, 16 boxes, in 5.9 s; docs/benchmarks.md, session
# 49), so those seconds mostly held back the greedy searches and their
# answers there. A short share still proves what is cheap to prove on a
# large level (an open board of 20 boxes in 955 expansions).
ASTAR_MANY_BOXES: Final = 15
CORE_ASTAR_SHARE_MANY: Final = 0.02


# The greedy searches' endgames (GreedyRun's ``endgame``, core.search's): a
# new child whose matching bound is at most this many pushes is searched on
# by the prober, which may finish it. A greedy order takes such a child no
# sooner than any other of its cell and weight: FESS from the pushes' end
# alone reached a position 5 pushes from the end of Holland 20 at 244,514
# expansions and had not finished it at 889,344 (53 s of CPU); with
# endgames it solved Holland 20 in 8.0 s, and from both ends, as the
# portfolio runs it, in 9.1 s against 16.4 s, Grigr2001 19 in 2.8 s against
# 9.2 s (docs/benchmarks.md, session 47). At 4 pushes neither level gained;
# at 12 and 16 (the prober's share capped: see _core.c's ENDGAME_SHARE) FESS
# alone at 5 s of CPU solved no more of Holland and Grigr2001, and at 16 it
# lost Grigr2001 19.
ENDGAME_PUSHES: Final = 8


class GreedyRun(NamedTuple):
    """One compiled greedy search of the portfolio (see _solve_compiled)."""

    share: float  # of the time limit (0: an equal part of what is left)
    penalty: int  # packing-order penalty
    features: bool  # open positions split by feature cells, taken in turn
    box_macros: bool = False  # core.search's ``box_macros``
    plans: bool = False  # core.search's ``plans``
    novelty: bool = False  # core.search's ``novelty``
    weighted: int = 0  # core.search's ``weighted`` (0: a pure greedy search)
    turns: tuple[int, int] = core.TURNS  # core.search's ``turns``: the pushes' and the pulls' share
    box_moves: int = 0  # core.search's ``box_moves``
    order: int = 0  # core.search's ``order``: another packing order of the goal rooms
    endgame: int = ENDGAME_PUSHES  # core.search's ``endgame``
    explore: int = 0  # core.search's ``explore``
    advisors: bool = False  # core.search's ``advisors``
    dual: bool = False  # core.search's ``dual``


# The compiled greedy searches tried in turn: a short one without feature
# cells, then with feature cells: FESS's box moves and weights (below), a
# short one by packing plans (below), penalty 3, exploring (below), for a
# share of its own, FESS with its explorer and another packing order of the
# goal rooms, for a short share of its own (below), and FESS's search again
# with that other order (below).
# With two threads at 60 s: p3/flat/t1-2 1-7 s, then FESS 7-60 s on one
# thread; the A* 1-13 s, penalty 8 by plans 13-15.4 s, penalty 3 15.4-38.2
# s, FESS's explorer with order 2 38.2-44.2 s, then FESS with order 2
# 44.2-60 s on the other.
# A search with a share of its own stops at its deadline; with two threads
# one without runs to the end once the others without one have a thread
# each. In the whole-set runs at 60 s (session 26) penalty 3 with feature
# cells made nearly every greedy answer.
#
# The short first search gives the pulls two turns for each of the pushes'
# (``turns``): most levels are solved by one end alone, on SokHard mostly
# the pulls. Alone at 15 s of CPU on the 30 panel levels the portfolio
# solves, p3/flat/t1-2 solved 18 (SokHard 16 of 17, 84 and 136 among them,
# and Grigr2001 1 in 2.9 s against 6.5 s) where p3/flat solved 12, and lost
# none (docs/benchmarks.md, session 38); penalty 3 keeps 2:1, which the
# forward-solved Holland levels need (p1/novelty/t1-2 lost three), while
# FESS's search, slower an expansion of the pushes, gives the pulls two
# turns too (alone at 5 s of CPU: 63 of Holland at 1:2, 61 at 2:1).
#
# FESS's search (box moves by FESS's weights, core.search's ``box_moves``
# 2), with novelty and the pulls ahead: alone at 5 s of CPU it is the
# strongest single search on the large levels, where the classic
# collections are hardest: 63 of Holland's 81 against 59 for penalty 3, 95
# of Grigr2001's 100 against 93 for penalty 3 and 94 for penalty 1 with
# novelty, 140 of SokHard's 163 against 141 and 141 (session 41,
# docs/benchmarks.md); Holland 1, 5, 14, 25, 29, 31 and 62 (14 to 30 boxes)
# in 0.2-3.9 s, each slower or not solved by penalty 3. With 5% of the time
# (session 40) it had 6 s of a thread; with a quarter of the rest, 25 s, at
# 60 s it solved Holland 67 and 68 (in 24.4 and 23.3 s), which session 40's
# portfolio left, and Grigr2001 19 in 17.6 s (49.8 s, by penalty 3
# weighted), while penalty 1 with novelty and penalty 3 weighted, the other
# two quarters, made no answer on Holland, Grigr2001 or the SokHard panel;
# alone at 45 s of CPU it solved Holland 20 too (in 20 s). Those two are
# spare searches now: alone at 5 s of CPU they add to FESS and penalty 3
# together one level of the three sets (SokHard 132, penalty 1 with novelty).
#
# Penalty 3 stopped at 44.2 s (a share of 0.24, twice over on its thread),
# and FESS's search with another packing order (``order`` 2) takes that
# thread to the end (session 48). Since session 60 penalty 3 stops at 38.2 s
# (a share of 0.19) for FESS with its explorer and order 2 (below). FESS
# alone with order 2 solves Holland 71 in 8.9 s of CPU, which no search
# solves with the first order in 60 s;
# orders 3 and 4 and penalty 8 by plans with FESS's moves solved none of
# the 15 levels left in 20 s of CPU each. Penalty 3's latest answers on the
# three sets: Holland 17 at 29-33 s on the Intel Xeon of session 43 (which
# cut penalty 3 at 31 s for FESS with order 2, and lost it) and SokHard 84
# at 45.4 s on the Xeon of session 46; alone on the AMD EPYC SokHard 84
# takes it 27.1 s of CPU, 42.5 s in the portfolio (FESS answers it at 41 s).
# The other orders see the goal rooms plainly, as before session 51 (no
# pockets, no parking: packing.entrance_order's ``plain``): with the first
# order's new rooms FESS with order 2 lost Holland 71 and Perfect 89, which
# it solves with the old ones (docs/benchmarks.md, session 51).
# A search with another order is left out where the level has no other: it
# would be FESS's very search, and penalty 3 then runs to the end. It is
# left out on one thread too (the server's default): there its time would
# come out of FESS's, not out of penalty 3's idle end. On one thread at 60 s
# FESS then has about 34 s, after the A* and p3/flat/t1-2, and penalty 3
# the last 14.4 s; with FESS/o2 on the plan, FESS had about 17 s and lost
# SokHard 85 (FESS at 29 s) for Holland 71 (session 48).
#
# Penalty 8 by packing plans, a spare search until session 46 (SPARE_RUNS),
# has a short share of its own: alone at 3 s of CPU it solves 57 of
# Holland's 81 (median 0.04 s), 92 of Grigr2001's 100 and 117 of SokHard's
# 163, Holland 11 in 0.6 s, which no other search of the portfolio solves
# in 60 s of CPU. As a spare it ran only once a thread's search had ended
# early: at 60 s it answered Holland 11 at 42-53 s on the AMD EPYC, when
# FESS's search had filled its memory, and not at all on the Intel Xeon of
# session 46, where no search ended before the time. After FESS on the
# plan, with two threads it runs on the A*'s thread, so that FESS keeps its
# time (docs/benchmarks.md, session 46).
#
# Penalty 3's share explores (core.search's ``explore``): one expansion in
# ten takes a position of its open list at random. A greedy search spends
# itself on a plateau of positions that look alike, where one push off it
# would do (Perfect 11: from one push of YASS's answer penalty 3 solves in
# 1.9 s, from the push before not in 10 s); the draws take it elsewhere
# now and then. Which levels that wins is the seed's draw: over six
# exploring runs (two seeds, three ways to draw) on ten hard Perfect
# levels at 40 s of CPU it made 0.8 answers a run, p3 none (session 53;
# the portfolio's seed answers Perfect 58 and 64 at 25.5 and 25.2 s at
# 60 s, another seed neither). On the development sets at 5 s of CPU it
# trades levels for levels with p3, and beside FESS solves as many in all
# (one more of SokHard, one fewer of Holland; session 52). In the
# portfolio at 60 s Holland and Grigr2001 kept every level and SokHard
# all but 84, on the time limit on a day the machine ran 1.6 times slower
# (docs/benchmarks.md, sessions 52 and 53).
#
# FESS with its explorer (core.search's ``box_moves`` 3: a box move that
# lets the player reach more squares is free too) and packing order 2, for
# 6 s of its thread before FESS with order 2 (session 60). Breaking a
# barrier of boxes often joins a region and cuts off another: the regions
# stay as many and FESS's advisors see nothing, while the player's area
# grows. Alone at 12 s of CPU on the 60 levels of Sokoban Perfect that FESS
# alone leaves at 56 s, it solved Perfect 16 (3.9 s) and 36 (3.4 s, one of
# the levels YASS solves and we did not) and 89, FESS with order 2 only 89;
# on the 52 of Holland, Grigr2001 and SokHard that FESS leaves at 5 s,
# Grigr2001 1 and SokHard 125 more, and not Holland 67, 68 and 71, which
# FESS with order 2 solves (so it keeps its time). As FESS's own search it
# traded levels: at 15 s of CPU 48 of Perfect against 47, at 5 s 293 of the
# three sets against 292 (docs/benchmarks.md, session 60).
#
# Thread 1's FESS takes two open lists in turn (core.search's ``dual``): one
# by FESS's weights, as before, and one of the advisors' picks by their
# weights (each advisor's best move free; FESS, Shoham and Schaeffer 2020).
# In the portfolio at 60 s on 64 Perfect levels (the 60 session 61's
# portfolio solved, with 23, 37, 74 and 96) it solved 60: 74 in 6.1 s,
# which no search of ours had solved, not 39 (FESS alone: 20.4 s of CPU);
# 65 in 12.7 s (FESS 37.1 s), 26 in 12.2 s (30.9 s), 75 in 8.4 s; alone at
# 30 s of CPU it solved none of the 51 others. Holland 17 at 58.4 s, which
# penalty 3 no longer answers within its share; alone at 5 s of CPU on the
# three sets 281 against FESS's 282 (docs/benchmarks.md, session 63). Perfect
# whole at 60 s with it: 61 of 115 on an Intel Xeon (session 64), against
# 60 without it on an AMD EPYC (session 61): 74 and 76 gained, 39 lost. The
# searches with order 2 stay FESS's own: they are there for the levels
# whose first order misleads it.
_FESS: Final = GreedyRun(0, PACKING_PENALTY, True, novelty=True, turns=(1, 2), box_moves=2)
GREEDY_RUNS: Final = (
    GreedyRun(0.05, PACKING_PENALTY, False, turns=(1, 2)),
    _FESS._replace(advisors=True, dual=True),
    GreedyRun(0.02, 8, True, plans=True),
    GreedyRun(0.19, PACKING_PENALTY, True, explore=10),
    _FESS._replace(share=0.05, box_moves=3, order=2),
    _FESS._replace(order=2),
)


# With two threads or more, a thread whose search ends before the time is up
# (its half of the memory filled, or out of positions after macros) and
# finds no search of GREEDY_RUNS left takes these in turn, each to the end,
# rather than sit idle: at 60 s, penalty 1 filled its gigabyte on Holland 25
# at 50 s (session 31). Penalty 8 by packing plans and penalty 3 with
# novelty solved levels of the 47 hard ones alone that the portfolio's
# searches solve less often (docs/benchmarks.md, session 30). Penalty 1 with
# novelty (Grigr2001 19, session 30; SokHard 132 alone at 5 s, session 41)
# and penalty 3 weighted (pushes + 2 x the bound, core.search's ``weighted``;
# 5 of the 47 at 15 s of CPU, session 32) were GREEDY_RUNS' until session 41.
# Penalty 8 by plans has a short share in GREEDY_RUNS too (session 46); as a
# spare it starts afresh and runs on to the end.
SPARE_RUNS: Final = (
    GreedyRun(0, 8, True, plans=True),
    GreedyRun(0, 1, True, novelty=True),
    GreedyRun(0, PACKING_PENALTY, True, weighted=2),
    GreedyRun(0, PACKING_PENALTY, True, novelty=True),
)
# A spare search is not begun with less time than this left.
SPARE_SECONDS: Final = 2.0


class _Run(NamedTuple):
    """A search of the portfolio as scheduled: its weight (1: A*), its settings and its deadline."""

    weight: int
    settings: GreedyRun
    deadline: float


# A*'s settings: no packing penalty (its bound stays admissible), nothing else.
_ASTAR = GreedyRun(0, 0, False)


class _Flags(TypedDict, total=False):
    """GreedyRun's fields that a modifier of a search's name sets."""

    features: bool
    box_macros: bool
    plans: bool
    novelty: bool
    box_moves: int
    advisors: bool
    dual: bool


# A greedy search's modifiers as its name spells them (``p3/novelty``): each
# a GreedyRun field and its value. The benchmarks read names so too. ``moves``
# and ``fess`` are core.search's ``box_moves`` 1 and 2, ``explorer`` its 3
# (FESS with its explorer); ``advisors`` its ``advisors`` (each of FESS's
# advisors makes its best move free, not every move it would take), ``dual``
# its ``dual`` (FESS's weights and the advisors' in two lanes taken in turn).
MODIFIERS: Final[dict[str, _Flags]] = {
    "flat": {"features": False}, "macros": {"box_macros": True}, "plans": {"plans": True},
    "novelty": {"novelty": True}, "moves": {"box_moves": 1}, "fess": {"box_moves": 2},
    "explorer": {"box_moves": 3}, "advisors": {"advisors": True}, "dual": {"dual": True},
}


def search_name(weight: int, settings: GreedyRun) -> str:
    """``A*`` (weight 1), or the greedy search's packing penalty and modifiers, such as
    ``p3/novelty``; a weighted one ends with its weight, such as ``p3/w3``, one whose
    ends share the turns otherwise than 2:1 with its shares, such as ``p3/t1-2``, one
    with another packing order with its number, such as ``p3/o2``, one whose endgames
    differ from ENDGAME_PUSHES with their pushes, such as ``p3/e0`` (none), and one that
    explores with its share in a hundred, such as ``p3/x30``."""
    if weight:
        return "A*"
    modifiers = [name for name, fields in MODIFIERS.items()
                 if all(getattr(settings, field) == value for field, value in fields.items())]
    if settings.weighted:
        modifiers.append(f"w{settings.weighted}")
    if settings.turns != core.TURNS:
        modifiers.append("t{}-{}".format(*settings.turns))
    if settings.order:
        modifiers.append(f"o{settings.order}")
    if settings.endgame != ENDGAME_PUSHES:
        modifiers.append(f"e{settings.endgame}")
    if settings.explore:
        modifiers.append(f"x{settings.explore}")
    return "/".join([f"p{settings.penalty}", *modifiers])


def greedy_run(name: str) -> GreedyRun:
    """The greedy search (with feature cells unless ``flat``) that ``search_name`` calls
    ``name``, such as ``p3/novelty``; ValueError says what does not read."""
    penalty, *modifiers = name.split("/")
    if not penalty.startswith("p") or not penalty[1:].isdigit():
        raise ValueError(f"{name}: a search's name starts with its packing penalty, such as p3")
    greedy = GreedyRun(0, int(penalty[1:]), True)
    for modifier in modifiers:
        if modifier[:1] == "w" and modifier[1:].isdigit() and 0 < int(modifier[1:]) <= core.WEIGHTED_MAX:
            greedy = greedy._replace(weighted=int(modifier[1:]))
            continue
        turns = re.fullmatch(r"t(\d+)-(\d+)", modifier)
        if turns and all(0 < int(part) <= core.TURNS_MAX for part in turns.groups()):
            greedy = greedy._replace(turns=(int(turns[1]), int(turns[2])))
            continue
        if re.fullmatch(r"o[1-9]\d{0,5}", modifier):
            greedy = greedy._replace(order=int(modifier[1:]))
            continue
        if re.fullmatch(r"e\d{1,2}", modifier) and int(modifier[1:]) <= core.ENDGAME_PUSHES_MAX:
            greedy = greedy._replace(endgame=int(modifier[1:]))
            continue
        if re.fullmatch(r"x[1-9]\d?|x100", modifier):
            greedy = greedy._replace(explore=int(modifier[1:]))
            continue
        if modifier not in MODIFIERS:
            raise ValueError(f"{name}: unknown modifier {modifier!r} (known: {', '.join(MODIFIERS)},"
                             f" w1 to w{core.WEIGHTED_MAX}, t1-1 to t{core.TURNS_MAX}-{core.TURNS_MAX}, o1 to o999999"
                             f", e0 to e{core.ENDGAME_PUSHES_MAX} and x1 to x100)")
        greedy = greedy._replace(**MODIFIERS[modifier])
    if greedy.box_moves >= 2 and (not greedy.features or greedy.weighted):
        # (The core takes FESS's weights in feature cells only, in place of any other order.)
        raise ValueError(f"{name}: fess and explorer take feature cells (not flat) and no weight")
    if greedy.advisors and greedy.box_moves < 2:
        raise ValueError(f"{name}: advisors weigh FESS's moves: fess or explorer")
    if greedy.dual and not greedy.advisors:
        raise ValueError(f"{name}: dual takes FESS's weights and the advisors' in turn: advisors")
    return greedy


def core_options(weight: int, settings: GreedyRun) -> dict[str, Any]:
    """core.search's options, but for the board, memory and check, for a search of the
    portfolio with ``weight`` (1: A*) and ``settings``: from both ends when greedy. The
    benchmarks of the greedy searches (bench/sokoban_searches.py) run them so too."""
    return {
        "weight": weight, "packing": settings.penalty, "features": settings.features,
        "corrals": core.PI_CORRALS, "backward": not weight, "tunnels": True, "goal_rooms": True,
        "box_macros": settings.box_macros, "plans": settings.plans, "novelty": settings.novelty,
        "weighted": settings.weighted, "turns": settings.turns, "box_moves": settings.box_moves,
        "order": settings.order, "endgame": settings.endgame, "explore": settings.explore,
        "advisors": settings.advisors, "dual": settings.dual, **_deadlocks(weight),
    }


def _core_search(
    prepared: core.CoreBoard, run: _Run, memory_bytes: int, check: Callable[[int], object]
) -> tuple[str, list[int], int, int]:
    """core.search for one search of the portfolio."""
    return core.search(prepared, memory_bytes=memory_bytes, check=check, **core_options(run.weight, run.settings))


# Box-set deadlocks in the compiled greedy searches (core.search's ``box_sets``:
# the box just pushed and its nearest boxes, 2 then up to this many, searched
# alone; 0: off). On the classic levels the greedy searches spend most of
# their positions below a lost one; these prune some of them, at the price of
# fewer expansions a second (bench/sokoban_box_sets.py: of the 34 levels the
# whole-set runs left unsolved, 3 solved at 20 s of CPU against none; where
# they prune nothing, 7-30% more CPU; docs/benchmarks.md). A* keeps to what
# it had, so its proofs are as before.
BOX_SETS: Final = 4
# Learned deadlock patterns in the compiled greedy searches (core.search's
# ``patterns``): each lost box set is shrunk to a minimal lost set and kept,
# and every later child holding one is pruned before it is stored; the box
# sets are then searched at every fourth expansion only. A few dozen patterns
# a level do the work of tens of thousands of box-set searches (see _core.c,
# learn_pattern, and docs/benchmarks.md, session 24, for what it solved).
# A* keeps to what it had, so its proofs are as before.
DEADLOCK_PATTERNS: Final = True
# Whole-board probes in the compiled greedy searches (core.search's ``probes``
# and ``probe_limit``): every BOARD_PROBE_EVERY-th expanded position is searched with
# all its boxes for at most BOARD_PROBE_LIMIT expansions; one found lost is pruned,
# and its loss shrunk and learned as a pattern (_core.c, board_probe; 0: off).
# See docs/benchmarks.md, session 25, for what they cost and solve.
BOARD_PROBE_EVERY: Final = 1024
BOARD_PROBE_LIMIT: Final = 30


class _Deadlocks(TypedDict):
    """core.search's deadlock settings."""

    box_sets: int
    patterns: int
    probes: int
    probe_limit: int


def _deadlocks(weight: int) -> _Deadlocks:
    """core.search's ``box_sets``, ``patterns``, ``probes`` and ``probe_limit`` for a search
    of the portfolio: all in the greedy searches (weight 0), none in A*, whose proofs
    stay as they were."""
    if weight:
        return {"box_sets": 0, "patterns": 0, "probes": 0, "probe_limit": 0}
    return {"box_sets": BOX_SETS, "patterns": int(DEADLOCK_PATTERNS), "probes": BOARD_PROBE_EVERY,
            "probe_limit": BOARD_PROBE_LIMIT}


class SolveCancelled(Exception):
    """Raised by a progress callback to stop a search (returning a true value does too)."""


@dataclass(frozen=True)
class SolveResult:
    algorithm: str
    status: str
    solution: str = ""
    moves: int = 0
    pushes: int = 0
    expanded: int = 0
    generated: int = 0
    seconds: float = 0.0
    # True when the solution is proved to have the fewest pushes possible.
    optimal: bool = False
    title: str = ""
    # Which search of ``best`` found the answer: "python" (the pure-Python
    # first second), "A*" (the core's), or a greedy search of the portfolio
    # by its packing penalty and modifiers, such as "p1/novelty" (search_name).
    search: str = ""

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["solved"] = self.solved
        data["seconds"] = round(self.seconds, 3)
        return data


def machine_threads() -> int:
    """The cores this process may run on: the command line's and the benchmark's searches at once.

    A level solved alone on the machine has them all; the server keeps its
    own setting (SOKOBAN_SOLVER_THREADS, one by default), its other cores
    serving the players.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (no affinity on this system)
        return max(1, os.cpu_count() or 1)


class _Stop(Exception):
    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


class _Budget:
    """Time, memory and cancellation, checked every so many expansions."""

    def __init__(
        self, time_limit: float, memory_limit_mb: float, progress: Progress | None
    ) -> None:
        self.start = time.monotonic()
        self.deadline = self.start + time_limit
        self.memory_limit = memory_limit_mb * 1024 * 1024
        self.progress = progress
        self.next_report = self.start + PROGRESS_SECONDS
        self.base_rss = _rss_bytes()
        self.expanded = 0
        self.generated = 0
        # Positions of searches that are paused but kept (``best`` takes
        # turns between A* and the greedy search): they hold memory too.
        self.held = 0

    def check(self, positions: int) -> None:
        """Stop the search (_Stop) when its time, memory or caller says so.

        ``positions`` is how many the running search keeps. The estimate from
        it is checked on every call, as it costs nothing: a small limit then
        stops a search at once, however fast the machine gets through the
        quarter second until the resident size is read.
        """
        now = time.monotonic()
        if now >= self.deadline:
            raise _Stop(TIME_LIMIT)
        used = (positions + self.held) * BYTES_PER_POSITION
        if used > self.memory_limit:
            raise _Stop(MEMORY_LIMIT)
        if now >= self.next_report:
            self.next_report = now + PROGRESS_SECONDS
            # The resident size misses memory Python reuses from earlier
            # work in the same process, the estimate misses everything else:
            # take whichever is larger.
            rss = _rss_bytes()
            if rss is not None and self.base_rss is not None:
                used = max(used, rss - self.base_rss)
            if used > self.memory_limit:
                raise _Stop(MEMORY_LIMIT)
            if self.progress is not None:
                try:
                    stop = self.progress(self.expanded)
                except SolveCancelled:
                    raise _Stop(CANCELLED) from None
                if stop:
                    raise _Stop(CANCELLED)

    def memory_left(self) -> int:
        """Bytes the search may still allocate before it passes the memory limit."""
        rss = _rss_bytes()
        used = 0 if rss is None or self.base_rss is None else rss - self.base_rss
        return int(self.memory_limit - max(0, used))

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start


def _rss_bytes() -> int | None:
    """The process's resident size, or None where /proc is not there."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


# A push in the node table: the box's square before it and the direction
# (index into LURD).
def _code(cell: int, direction: int) -> int:
    return (cell << 2) | direction


class _Search:
    """The node table and move generation shared by every algorithm."""

    def __init__(
        self,
        board: Board,
        budget: _Budget,
        *,
        corrals: bool = False,
        backward: bool = False,
        target: int = 0,
        packing: int = 0,
    ) -> None:
        self.board = board
        self.budget = budget
        self.corrals = corrals
        # A backward search pulls boxes from the goals towards the start.
        self.backward = backward
        self.shift = max(1, board.size.bit_length())
        self.player_mask = (1 << self.shift) - 1
        self.table: dict[int, int] = {}
        self.keys: list[int] = []
        self.parent = array("i")
        self.move = array("i")
        self.depth = array("i")
        self.closed = bytearray()
        self.bounds: dict[int, int] = {}
        # Greedy searches add ``packing`` to the bound for each box filled
        # out of packing order (see packing.py); 0 keeps the bound admissible.
        self.packing = packing
        self.order: PackingOrder | None = None
        if packing:
            if backward:
                self.order = PackingOrder(
                    board, board.start_boxes, board.start_player, pulls=False
                )
            else:
                self.order = PackingOrder(board, board.goal_mask, -1, pulls=True)
            if not self.order.groups:
                self.order = None
        # Where a box may go, and the distances the bound adds up: to the
        # goals forwards, to the start squares backwards, to ``target`` (a
        # box set) for a probe aimed at one position.
        if target:
            self.dist, self.targets = _distances_to(board, target, backward)
        elif backward:
            self.dist, self.targets = board.start_distances()
        else:
            self.dist, self.targets = board.dist, board.live
        self.matcher = Matcher(self.dist)
        self.frozen_tables: FrozenTables = {}

    # --- nodes -------------------------------------------------------------

    def key(self, boxes: int, player: int) -> int:
        reach = self.board.reach(1 << player, boxes)
        low = reach & -reach
        return (boxes << self.shift) | (low.bit_length() - 1)

    def roots(self) -> list[int]:
        """The start positions: forwards one; backwards the solved box set with
        the player in each area he may have finished in."""
        board = self.board
        if not self.backward:
            return [self.key(board.start_boxes, board.start_player)]
        keys = []
        free = board.floor & ~board.goal_mask
        while free:
            area = board.reach(free & -free, board.goal_mask)
            free &= ~area
            low = area & -area
            keys.append((board.goal_mask << self.shift) | (low.bit_length() - 1))
        return keys

    def add(self, key: int, parent: int, code: int, depth: int) -> int:
        node = len(self.keys)
        self.table[key] = node
        self.keys.append(key)
        self.parent.append(parent)
        self.move.append(code)
        self.depth.append(depth)
        self.closed.append(0)
        return node

    def bound(self, boxes: int) -> int:
        """The matching lower bound of a box set (INF: deadlock), memoised per box set."""
        found = self.bounds.get(boxes)
        if found is None:
            found = self.matcher.bound(boxes)
            if self.order is not None and found < INF:
                found += self.packing * self.order.out_of_order(boxes)
            self.bounds[boxes] = found
        return found

    # --- moves -------------------------------------------------------------

    def children(self, key: int, reach: int = 0) -> list[tuple[int, int, int]]:
        """(push code, child key, child's player area) for each push worth trying.

        ``reach``: the node's player area if the caller kept it.
        """
        board = self.board
        boxes = key >> self.shift
        free = board.floor & ~boxes
        if not reach:
            reach = board.reach(1 << (key & self.player_mask), boxes)
        self.matcher.expand(boxes)
        targets = self.targets & free
        movable = boxes
        if self.corrals and free & ~reach:
            fence = pi_corral(board, boxes, reach)
            if fence is not None:
                movable = fence
        result = []
        live = board.live
        width = board.width
        for direction, step in enumerate(board.steps):
            if step > 0:
                pushable = movable & (reach << step) & (targets >> step)
            else:
                pushable = movable & (reach >> -step) & (targets << -step)
            for cell in bits(pushable):
                after = cell + step
                child = boxes ^ (1 << cell) ^ (1 << after)
                # A box with free squares on both sides along some axis can
                # still move: skip the freeze test (most pushes).
                open_ = board.floor & ~child
                if not (
                    ((open_ >> (after - 1)) & 5 == 5 and (live >> (after - 1)) & 5)
                    or (
                        (open_ >> (after - width)) & 1
                        and (open_ >> (after + width)) & 1
                        and ((live >> (after - width)) & 1 or (live >> (after + width)) & 1)
                    )
                ) and push_deadlock(board, child, after, self.frozen_tables):
                    continue
                if (reach >> after) & 1:
                    child_reach = board.reach(1 << (after - step), child)
                else:
                    # The box went somewhere the player could not go: he keeps
                    # all he could reach, and gains what opens behind it.
                    child_reach = board.reach(reach | (1 << cell), child)
                low = child_reach & -child_reach
                result.append(
                    (
                        _code(cell, direction),
                        (child << self.shift) | (low.bit_length() - 1),
                        child_reach,
                    )
                )
        return result

    def pulls(self, key: int, reach: int = 0) -> list[tuple[int, int, int]]:
        """Backwards: (the push that undoes it, child key, its player area) for each pull.

        The player stands next to a box with a free square behind him, steps
        back onto it and draws the box onto the square he left.
        """
        board = self.board
        boxes = key >> self.shift
        free = board.floor & ~boxes
        if not reach:
            reach = board.reach(1 << (key & self.player_mask), boxes)
        self.matcher.expand(boxes)
        targets = self.targets & free
        result = []
        for direction, step in enumerate(board.steps):
            # The box moves by ``step``, towards the player.
            if step > 0:
                pullable = boxes & (reach >> step) & (reach >> 2 * step) & (targets >> step)
            else:
                pullable = boxes & (reach << -step) & (reach << -2 * step) & (targets << -step)
            for cell in bits(pullable):
                after = cell + step
                child = boxes ^ (1 << cell) ^ (1 << after)
                child_reach = board.reach(1 << (after + step), child)
                low = child_reach & -child_reach
                undo = _code(after, (direction + 2) % 4)
                result.append((undo, (child << self.shift) | (low.bit_length() - 1), child_reach))
        return result

    # --- solutions ---------------------------------------------------------

    def pushes_from(self, node: int) -> list[int]:
        """Backwards: the pushes that lead from a node to the solution (undoing its pulls)."""
        codes = []
        while self.parent[node] >= 0:
            codes.append(self.move[node])
            node = self.parent[node]
        return codes

    def pushes_to(self, node: int) -> list[int]:
        """Forwards: the pushes that lead from the start to a node."""
        return self.pushes_from(node)[::-1]


def _distances_to(board: Board, target: int, backward: bool) -> tuple[list[tuple[int, ...]], int]:
    """Per square, pushes to each square of the box set ``target`` (backwards: from it)."""
    pairs = board.pair_distances()
    cells = list(bits(target))
    dist: list[tuple[int, ...]] = [()] * board.size
    reachable = 0
    for cell in board.cells:
        if backward:
            row = tuple(pairs[cell][t] for t in cells)
        else:
            row = tuple(pairs[t][cell] for t in cells)
        dist[cell] = row
        if min(row) < INF:
            reachable |= 1 << cell
    return dist, reachable


class _Bidirectional:
    """Greedy best-first from both ends at once, resumable after a time limit.

    The two searches take turns expanding their most promising position and
    stop when one generates a position the other has stored: the forward
    pushes to it, then the backward pulls from it undone, solve the level.
    Pulling boxes out of a goal room needs no packing order, so the backward
    half finds easily what the forward half finds hard, and the other way
    round for boxes that must leave a crowded start. Either half running out
    of positions proves the level unsolvable.

    Two greedy halves can pass each other without meeting, each stuck on the
    last boxes of its own end (packing the goal room forwards, packing the
    start backwards). So every so often each half's most advanced position
    becomes the target of a short probe from the other end: a search aimed
    at exactly that position, which from there is often a few easy pushes.
    """

    def __init__(self, forward: _Search, backward: _Search) -> None:
        self.forward = forward
        self.backward = backward
        # Open positions: (bound, -pushes, node, player area).
        self.heaps: list[list[tuple[int, int, int, int]]] = []
        # The most advanced position of each half: (bound, node).
        self.best: list[tuple[int, int]] = []
        self.probed = [-1, -1]
        self.rounds = 0
        self.next_probe = PROBE_EVERY
        self.meeting: list[int] | None = None
        shift = forward.shift
        for search in (forward, backward):
            heap = []
            for key in search.roots():
                h = search.bound(key >> shift)
                node = search.add(key, -1, 0, 0)
                if h < INF:
                    heap.append((h, 0, node, 0))
            heapq.heapify(heap)
            self.heaps.append(heap)
            self.best.append(min(((h, node) for h, _, node, _ in heap), default=(INF, -1)))
        for key in forward.keys:
            if key in backward.table:
                self.meeting = backward.pushes_from(backward.table[key])

    def run(self) -> list[int] | None:
        """The pushes of a solution, None if there is none; _Stop when the budget ends."""
        if self.meeting is not None:
            return self.meeting
        forward, backward = self.forward, self.backward
        budget = forward.budget
        shift = forward.shift
        best = self.best
        sides = ((forward, backward, self.heaps[0]), (backward, forward, self.heaps[1]))
        while True:
            if budget.expanded & 63 == 0:
                budget.check(len(forward.table) + len(backward.table))
            # The forward half, with its corral and frozen-goal pruning, is the
            # stronger one: it gets FORWARD_TURNS expansions for each backward one.
            side = 0 if self.rounds % (FORWARD_TURNS + 1) else 1
            self.rounds += 1
            search, other, heap = sides[side]
            if not heap:
                return None
            _, _, node, reach = heapq.heappop(heap)
            budget.expanded += 1
            depth = search.depth[node]
            moves = search.pulls if search.backward else search.children
            for code, key, child_reach in moves(search.keys[node], reach):
                if key in search.table:
                    continue
                h = search.bound(key >> shift)
                if h >= INF:
                    search.table[key] = -1
                    continue
                budget.generated += 1
                child = search.add(key, node, code, depth + 1)
                meet = other.table.get(key, -1)
                if meet >= 0:
                    if search.backward:
                        return forward.pushes_to(meet) + backward.pushes_from(child)
                    return forward.pushes_to(child) + backward.pushes_from(meet)
                if h < best[side][0]:
                    best[side] = (h, child)
                heapq.heappush(heap, (h, -depth, child, child_reach))
            if budget.expanded >= self.next_probe and len(forward.board.cells) <= PROBE_SQUARES:
                self.next_probe = budget.expanded + PROBE_EVERY
                found = _probes(forward, backward, best, self.probed)
                if found is not None:
                    return found


# The forward half's expansions for each backward one.
FORWARD_TURNS: Final = 2
# How often the two halves probe towards each other (expansions between),
# and how long a probe may run.
PROBE_EVERY: Final = 2000
PROBE_EXPANSIONS: Final = 1000
# Probes need push distances between every two squares, a pull search per
# square: on boards with more squares than this that costs more than it earns.
PROBE_SQUARES: Final = 300


def _probes(
    forward: _Search, backward: _Search, best: list[tuple[int, int]], probed: list[int]
) -> list[int] | None:
    """Aim a short search from each end at the other half's most advanced position."""
    board = forward.board
    budget = forward.budget
    for side, owner in enumerate((backward, forward)):
        # Side 0: a forward probe towards the backward half's best position;
        # side 1: a backward probe towards the forward half's.
        _, node = best[1 - side]
        if node < 0 or node == probed[side]:
            continue
        probed[side] = node
        goal_key = owner.keys[node]
        probe = _Search(board, budget, backward=side == 1, target=goal_key >> owner.shift)
        found = _greedy_to(probe, goal_key, PROBE_EXPANSIONS)
        if found is None:
            continue
        if side == 0:
            return probe.pushes_to(found) + backward.pushes_from(node)
        return forward.pushes_to(node) + probe.pushes_from(found)
    return None


def _greedy_to(search: _Search, goal_key: int, limit: int) -> int | None:
    """Greedy best-first towards one exact position, for at most ``limit`` expansions."""
    budget = search.budget
    shift = search.shift
    heap = []
    for key in search.roots():
        h = search.bound(key >> shift)
        node = search.add(key, -1, 0, 0)
        if key == goal_key:
            return node
        if h < INF:
            heap.append((h, 0, node))
    heapq.heapify(heap)
    moves = search.pulls if search.backward else search.children
    for _ in range(limit):
        if not heap:
            return None
        _, _, node = heapq.heappop(heap)
        budget.expanded += 1
        if budget.expanded & 63 == 0:
            budget.check(len(search.table))
        depth = search.depth[node]
        for code, key, _ in moves(search.keys[node]):
            if key in search.table:
                continue
            h = search.bound(key >> shift)
            if h >= INF:
                search.table[key] = -1
                continue
            child = search.add(key, node, code, depth + 1)
            if key == goal_key:
                return child
            heapq.heappush(heap, (h, -depth, child))
    return None


def to_lurd(board: Board, codes: list[int]) -> str:
    """The full LURD string of a push sequence: the player walks by BFS between pushes."""
    boxes = board.start_boxes
    player = board.start_player
    letters: list[str] = []
    for code in codes:
        direction = code & 3
        cell = code >> 2
        step = board.steps[direction]
        letters.append(_walk(board, player, cell - step, boxes))
        letters.append(LETTERS[direction].upper())
        boxes ^= (1 << cell) | (1 << (cell + step))
        player = cell
    return "".join(letters)


def _walk(board: Board, start: int, goal: int, boxes: int) -> str:
    if start == goal:
        return ""
    free = board.floor & ~boxes
    came: dict[int, int] = {start: -1}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for direction, step in enumerate(board.steps):
            nxt = cell + step
            if nxt in came or not (free >> nxt) & 1:
                continue
            came[nxt] = direction
            if nxt == goal:
                path = []
                while nxt != start:
                    way = came[nxt]
                    path.append(LETTERS[way])
                    nxt -= board.steps[way]
                return "".join(reversed(path))
            queue.append(nxt)
    raise AssertionError("the solver asked for a walk the player cannot make")


# --- the algorithms ----------------------------------------------------------


def _breadth_first(search: _Search, depth_first: bool) -> int | None:
    """BFS (push-optimal) or DFS; the goal is tested when a position is generated."""
    board = search.board
    budget = search.budget
    goal = board.goal_mask
    start = search.key(board.start_boxes, board.start_player)
    search.add(start, -1, 0, 0)
    if board.start_boxes == goal:
        return 0
    frontier: deque[int] = deque([0])
    pop = frontier.pop if depth_first else frontier.popleft
    table = search.table
    shift = search.shift
    while frontier:
        node = pop()
        budget.expanded += 1
        if budget.expanded & 63 == 0:
            budget.check(len(table))
        depth = search.depth[node]
        for code, key, _ in search.children(search.keys[node]):
            if key in table:
                continue
            budget.generated += 1
            child = search.add(key, node, code, depth + 1)
            if key >> shift == goal:
                return child
            frontier.append(child)
    return None


def _best_first(search: _Search, weight: int, upper: int = INF) -> int | None:
    """Run a best-first search to the end (see _BestFirst)."""
    return _BestFirst(search, weight, upper).run()


class _BestFirst:
    """A* (weight 1, goal tested when a position is expanded) or greedy (weight 0).

    With weight 1 the priority is pushes so far plus the matching bound, ties
    going to the deeper position; the bound never overestimates and positions
    reached by a shorter way are reopened, so the first goal expanded is
    push-optimal. Greedy orders by the bound alone and stops at the first
    goal generated.

    ``upper``: A* only looks for solutions shorter than this (a solution of
    that many pushes is known), so positions that cannot lead to one are not
    kept; None then means that the known solution is push-optimal.

    ``run`` may stop with _Stop when the budget runs out and be called again
    later to go on where it stopped.
    """

    def __init__(self, search: _Search, weight: int, upper: int = INF) -> None:
        self.search = search
        self.weight = weight
        self.upper = upper
        board = search.board
        start = search.key(board.start_boxes, board.start_player)
        h = search.bound(board.start_boxes)
        search.add(start, -1, 0, 0)
        self.done = h >= INF or board.start_boxes == board.goal_mask
        self.found: int | None = 0 if board.start_boxes == board.goal_mask else None
        # Open positions carry their player area, so that it is not flooded again.
        self.heap: list[tuple[int, int, int, int]] = [] if self.done else [(h, h, 0, 0)]

    def run(self) -> int | None:
        if self.done:
            return self.found
        search = self.search
        budget = search.budget
        goal = search.board.goal_mask
        shift = search.shift
        weight = self.weight
        optimal = weight > 0
        heap = self.heap
        table = search.table
        depths = search.depth
        closed = search.closed
        while heap:
            if budget.expanded & 63 == 0:
                budget.check(len(table))
            priority, h, node, reach = heapq.heappop(heap)
            if optimal:
                if priority >= self.upper:
                    # Nothing left can beat the known solution.
                    heap.clear()
                    return None
                if closed[node]:
                    continue
                closed[node] = 1
                if search.keys[node] >> shift == goal:
                    return node
            budget.expanded += 1
            depth = depths[node]
            for code, key, child_reach in search.children(search.keys[node], reach):
                g = depth + 1
                found = table.get(key)
                if found is not None:
                    if found < 0 or not optimal or g >= depths[found]:
                        continue
                    # A shorter way to a known position: (re)open it. The
                    # bound is admissible but not consistent (a push can bring
                    # a box next to the side the player needs), so even an
                    # expanded position can be reached more cheaply later.
                    closed[found] = 0
                    search.parent[found] = node
                    search.move[found] = code
                    depths[found] = g
                    child = found
                    hc = search.bound(key >> shift)
                else:
                    hc = search.bound(key >> shift)
                    if optimal and hc < INF and g + hc >= self.upper:
                        continue
                    if hc >= INF:
                        # No matching of boxes to goals: a deadlock; remember
                        # it so it is not scored again.
                        table[key] = -1
                        continue
                    budget.generated += 1
                    child = search.add(key, node, code, g)
                    if not optimal and key >> shift == goal:
                        return child
                priority = g * weight + hc if optimal else hc
                heapq.heappush(heap, (priority, hc, child, child_reach))
        return None


def solve(
    level: Level | str,
    algorithm: str = "best",
    time_limit: float = 30.0,
    memory_limit_mb: float = DEFAULT_MEMORY_MB,
    progress: Progress | None = None,
    threads: int = 1,
) -> SolveResult:
    """Solve a level (a Level or its text) with one of ``ALGORITHMS``.

    ``threads`` > 1: ``best`` runs that many of the compiled core's searches
    at once, one a core (see ``_parallel_portfolio``); the others search alone.

    Never raises for a hard level: running out of time or memory, or being
    cancelled through ``progress``, is a result with ``solved`` false and a
    status saying which. ``progress(expanded)`` is called about every
    quarter second; return a true value or raise SolveCancelled to stop.
    Raises LevelError for a bad level text and ValueError for an unknown
    algorithm.
    """
    if isinstance(level, str):
        level = parse_level(level)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    budget = _Budget(time_limit, memory_limit_mb, progress)
    title = level.title
    try:
        board = Board(level, check=lambda: budget.check(0))
    except _Stop as stop:
        return _unsolved(algorithm, stop.status, budget, title)
    if board.unsolvable is not None:
        return SolveResult(algorithm, UNSOLVABLE, seconds=budget.seconds, title=title)
    if algorithm == "best":
        if core.AVAILABLE:
            return _solve_compiled(board, budget, title, time_limit, threads)
        return _solve_best(board, budget, title, time_limit)
    search = _Search(board, budget)
    try:
        if algorithm in ("bfs", "dfs"):
            node = _breadth_first(search, algorithm == "dfs")
        else:
            node = _best_first(search, 1 if algorithm == "astar" else 0)
    except _Stop as stop:
        return _unsolved(algorithm, stop.status, budget, title)
    optimal = algorithm in ("bfs", "astar")
    return _result(algorithm, search, node, budget, title, optimal)


def _solve_best(board: Board, budget: _Budget, title: str, time_limit: float) -> SolveResult:
    """A* and a greedy search from both ends, taking turns; A* alone once greedy has an answer.

    Most levels are over within A*'s first slice, with a push-optimal answer.
    A level that A* finds hard may still be easy for the greedy search, whose
    slices grow each round while A*'s stay short. Its answer then bounds A*,
    which only keeps positions that can lead to something shorter and goes
    on alone for up to OPTIMAL_SHARE of the time: if it runs out of positions
    first the greedy answer is proved push-optimal, otherwise it is returned
    as it is.
    """
    start = budget.start
    end = start + time_limit
    search = _Search(board, budget, corrals=True)
    astar = _BestFirst(search, 1)
    forward = _Search(board, budget, corrals=True, packing=PACKING_PENALTY)
    backward = _Search(board, budget, backward=True, packing=PACKING_PENALTY)
    greedy = _Bidirectional(forward, backward)
    known: list[int] | None = None
    rounds = 0
    try:
        while known is None:
            rounds += 1
            for turn in (0, 1):
                # A* has its best chances early: the greedy slices grow, A*'s do not.
                seconds = SLICE_SECONDS * (rounds + 1 if turn else 1)
                budget.deadline = min(end, time.monotonic() + seconds)
                budget.held = len(forward.table) + len(backward.table) if turn == 0 else len(search.table)
                try:
                    if turn == 0:
                        node = astar.run()
                        if node is None:
                            return _unsolved("best", UNSOLVABLE, budget, title)
                        return _result("best", search, node, budget, title, True, "python")
                    known = greedy.run()
                    if known is None:
                        return _unsolved("best", UNSOLVABLE, budget, title)
                    break
                except _Stop as stop:
                    if stop.status != TIME_LIMIT or budget.deadline >= end:
                        return _unsolved("best", stop.status, budget, title)
    finally:
        # (Whichever way the turns end, no search is paused after them.)
        budget.held = 0
    del greedy, forward, backward
    astar.upper = len(known)
    budget.deadline = max(time.monotonic(), start + time_limit * OPTIMAL_SHARE)
    budget.deadline = min(budget.deadline, end)
    try:
        node = astar.run()
    except _Stop as stop:
        if stop.status == CANCELLED:
            return _unsolved("best", stop.status, budget, title)
        return _solution("best", board, known, budget, title, False, "python")
    if node is not None:
        return _result("best", search, node, budget, title, True, "python")
    # Nothing shorter exists: the greedy answer is optimal.
    return _solution("best", board, known, budget, title, True, "python")


def _solve_compiled(board: Board, budget: _Budget, title: str, time_limit: float, threads: int = 1) -> SolveResult:
    """``best`` with the compiled core: the Python searches first, then the core's A*, then its greedy.

    The pure-Python ``best`` keeps its first PYTHON_SECONDS: easy levels are
    over in that time with the same push-optimal answers as without the
    core. Then the core's A* (with PI-corral pruning) gets CORE_ASTAR_SHARE
    of the time (CORE_ASTAR_SHARE_MANY on a level of ASTAR_MANY_BOXES boxes or
    more), so that medium levels still come out push-optimal (and an
    answer the Python greedy search found in its second but could not prove
    is replaced by a proved one when A* finishes). Then the core's greedy
    searches take the rest: from both ends (pushes from the start, pulls
    from the solved position, until they meet), with the packing-order
    penalty. On the development sample of the classic sets the two ends
    solved a fifth more levels than the forward search alone.

    No one setting of the greedy search is best, so the rest of the time is
    a portfolio of fresh searches in turn (GREEDY_RUNS): a short one as it
    is (the fastest on most levels), then in equal parts with the open
    positions split by feature (boxes packed, free regions) and taken in
    turn, which made some sample levels several times faster and others
    slower: one by FESS's box moves and weights (the strongest on the large
    levels) and one with packing penalty 3, with a short one by packing
    plans between them. The greedy searches prune
    box-set deadlocks (BOX_SETS) and the deadlock patterns they learn from
    them (DEADLOCK_PATTERNS) and from whole-board probes (BOARD_PROBE_EVERY);
    A* does not, so its proofs are as before.
    """
    end = budget.start + time_limit
    first = _solve_best(board, budget, title, min(time_limit, PYTHON_SECONDS))
    if first.optimal or first.status not in (SOLVED, TIME_LIMIT) or time.monotonic() >= end:
        return first
    expanded = budget.expanded

    def check(core_expanded: int) -> None:
        budget.expanded = expanded + core_expanded
        budget.check(0)

    def first_answer() -> SolveResult:
        """The Python search's answer, given now (with the time and positions spent since)."""
        return replace(first, expanded=budget.expanded, generated=budget.generated, seconds=budget.seconds)

    # The goal rooms' packing orders (entrance_order's searches, which check
    # the budget now and then) take their time from the whole solve, not from
    # the Python search's slice.
    budget.deadline = end
    try:
        prepared = core.CoreBoard(board)
        # A search with another packing order where the level has no other
        # would be the very search made with the first: it is left out. So it
        # is on one thread, where its time would come out of FESS's (with two,
        # out of the end of penalty 3's thread): see GREEDY_RUNS. (Only A*
        # runs after an answer of the Python search.)
        greedies = [greedy for greedy in GREEDY_RUNS if first.solved or not greedy.order
                    or (threads > 1 and prepared.targets(greedy.order) != prepared.forward)]
    except _Stop as stop:
        return first_answer() if first.solved else _unsolved("best", stop.status, budget, title)

    # Each search in turn, with its deadline: its share of the time limit, or
    # an equal part of what the shares leave.
    astar_share = CORE_ASTAR_SHARE if count(board.start_boxes) < ASTAR_MANY_BOXES else CORE_ASTAR_SHARE_MANY
    runs = [_Run(1, _ASTAR, min(end, time.monotonic() + time_limit * astar_share))]
    shares = sum(greedy.share for greedy in greedies) * time_limit
    part = max(0.0, end - runs[0].deadline - shares) / max(1, sum(1 for greedy in greedies if not greedy.share))
    for greedy in greedies:
        runs.append(_Run(0, greedy, min(end, runs[-1].deadline + (greedy.share * time_limit or part))))
    runs[-1] = runs[-1]._replace(deadline=end)
    if threads > 1 and not first.solved:
        return _parallel_portfolio(board, prepared, budget, title, runs, threads)
    memory_stop = False
    for run in runs:
        weight = run.weight
        if weight == 0 and first.solved:
            # A* could not prove the Python search's answer: it stands.
            return first_answer()
        budget.deadline = run.deadline
        if budget.memory_left() <= 0:
            # The Python searches before used it all: the core would have none.
            memory_stop = True
            break
        try:
            status, codes, searched, budget.generated = _core_search(prepared, run, budget.memory_left(), check)
        except _Stop as stop:
            if stop.status != TIME_LIMIT or budget.deadline >= end:
                return first_answer() if first.solved else _unsolved("best", stop.status, budget, title)
            expanded = budget.expanded
            continue
        except MemoryError:
            # Its tables did not fit in what was left: that is the memory limit too.
            memory_stop = True
            continue
        budget.expanded = expanded + searched
        expanded = budget.expanded
        if status == core.SOLVED:
            return _solution("best", board, codes, budget, title, weight == 1, search_name(weight, run.settings))
        if status == core.EXHAUSTED:
            # (Never with an answer in hand; if it were, the answer would stand.)
            return first_answer() if first.solved else _unsolved("best", UNSOLVABLE, budget, title)
        if status == core.INCOMPLETE:
            # Its macros skipped the way, if there is one: the next search looks afresh.
            continue
        # Out of memory: the next search starts afresh with all of it.
        memory_stop = True
    if first.solved:
        return first_answer()
    return _unsolved("best", MEMORY_LIMIT if memory_stop else TIME_LIMIT, budget, title)


def _parallel_portfolio(
    board: Board,
    prepared: core.CoreBoard,
    budget: _Budget,
    title: str,
    runs: list[_Run],
    threads: int,
) -> SolveResult:
    """The core's searches of ``runs`` in turn, ``threads`` at once.

    The core lets go of the interpreter's lock while it expands, so each
    search has a core of its own. Each takes ``threads`` times the time it
    had in turn, the next search going to whichever thread is free first, and
    the last one each thread takes runs to the end: the plan's last one, and
    a greedy search with no share of its own taken when fewer such searches
    are left than threads (with the plan's last one alone running to the
    end, at 60 s one of two threads sat idle for the last 14 s). A thread
    whose search ends early with none of ``runs`` left takes the SPARE_RUNS
    in turn. The first answer (or proof that there is none) stops the
    others. But a greedy answer found while A* still runs only stops the
    greedy searches: A* keeps its time, as it would have had it before any
    greedy search in turn, and its answer, when it finds one, is the one
    given, proved optimal. Memory is split evenly between the searches
    running at once. Time, memory and cancellation are checked as in turn,
    under one lock.
    """
    end = runs[-1].deadline
    began = time.monotonic()
    # Each search with the seconds it may run: ``threads`` times its time in turn.
    plan: deque[tuple[_Run, float]] = deque()
    previous = began
    for run in runs:
        plan.append((run, (run.deadline - previous) * threads))
        previous = run.deadline
    spares: deque[_Run] = deque(_Run(0, greedy, end) for greedy in SPARE_RUNS)
    memory_each = budget.memory_left() // threads
    lock = threading.Lock()
    over = threading.Event()
    # A greedy answer is in hand while A* runs on: the greedy searches stop.
    held = threading.Event()
    proving = 0  # A* searches running
    outcome: dict[str, Any] = {}
    stops: list[str] = []
    faults: list[BaseException] = []

    def lane() -> None:
        nonlocal proving
        while True:
            with lock:
                if over.is_set() or held.is_set():
                    return
                if plan:
                    run, seconds = plan.popleft()
                    weight = run.weight
                    # (A greedy search with no share of its own runs to the end
                    # once the others of the plan with none have a thread each.)
                    last = not plan or (not weight and not run.settings.share and sum(
                        1 for later, _ in plan if not later.settings.share) < threads)
                    deadline = end if last else min(end, time.monotonic() + seconds)
                elif spares and end - time.monotonic() >= SPARE_SECONDS:
                    run, weight, deadline = spares.popleft(), 0, end
                else:
                    return
                proving += weight
            counted = 0

            def check(core_expanded: int) -> None:
                nonlocal counted
                if over.is_set():
                    raise _Stop(CANCELLED)
                if held.is_set() and not weight:
                    raise _Stop(_SUPERSEDED)
                if time.monotonic() >= deadline:
                    raise _Stop(TIME_LIMIT)
                with lock:
                    budget.expanded += core_expanded - counted
                    counted = core_expanded
                    budget.check(0)

            try:
                status, codes, searched, generated = _core_search(prepared, run, memory_each, check)
            except _Stop as stop:
                with lock:
                    proving -= weight
                if stop.status not in (TIME_LIMIT, _SUPERSEDED) and not over.is_set():
                    # Cancelled, or the whole solve's memory spent: everyone stops.
                    stops.append(stop.status)
                    over.set()
                continue
            except MemoryError:
                with lock:
                    proving -= weight
                stops.append(MEMORY_LIMIT)
                continue
            except BaseException as error:  # a fault: stop everyone, raise it in the caller's thread
                faults.append(error)
                over.set()
                return
            with lock:
                proving -= weight
                budget.expanded += searched - counted
                budget.generated += generated
                if status in (core.SOLVED, core.EXHAUSTED) and not over.is_set():
                    if not held.is_set() or (weight and status == core.SOLVED):
                        outcome.update(status=status, codes=codes, optimal=weight == 1,
                                       search=search_name(weight, run.settings))
                    if weight or not proving:
                        over.set()
                    else:
                        held.set()
                elif status == core.MEMORY:
                    stops.append(MEMORY_LIMIT)  # this search's share ran out; the next starts afresh
                # (INCOMPLETE: its macros skipped the way, if there is one; the next search looks afresh.)

    budget.deadline = end
    workers = [threading.Thread(target=lane, name=f"solver-{i}") for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if faults:
        raise faults[0]
    if outcome.get("status") == core.SOLVED:
        return _solution("best", board, outcome["codes"], budget, title, outcome["optimal"], outcome["search"])
    if outcome.get("status") == core.EXHAUSTED:
        return _unsolved("best", UNSOLVABLE, budget, title)
    if CANCELLED in stops:
        return _unsolved("best", CANCELLED, budget, title)
    return _unsolved("best", MEMORY_LIMIT if stops else TIME_LIMIT, budget, title)


def _unsolved(algorithm: str, status: str, budget: _Budget, title: str) -> SolveResult:
    return SolveResult(
        algorithm,
        status,
        expanded=budget.expanded,
        generated=budget.generated,
        seconds=budget.seconds,
        title=title,
    )


def _result(
    algorithm: str,
    search: _Search,
    node: int | None,
    budget: _Budget,
    title: str,
    optimal: bool,
    name: str = "",
) -> SolveResult:
    if node is None:
        return _unsolved(algorithm, UNSOLVABLE, budget, title)
    return _solution(algorithm, search.board, search.pushes_to(node), budget, title, optimal, name)


def _solution(
    algorithm: str, board: Board, codes: list[int], budget: _Budget, title: str, optimal: bool, search: str = ""
) -> SolveResult:
    lurd = to_lurd(board, codes)
    return SolveResult(
        algorithm,
        SOLVED,
        solution=lurd,
        moves=len(lurd),
        pushes=sum(1 for letter in lurd if letter.isupper()),
        expanded=budget.expanded,
        generated=budget.generated,
        seconds=budget.seconds,
        optimal=optimal,
        title=title,
        search=search,
    )


def verify_level(
    level: Level, time_limit: float = 10.0, memory_limit_mb: float = 512
) -> SolveResult:
    """For the upload service: ``status`` UNSOLVABLE means refuse the level.

    SOLVED means it is proved solvable (the solution is in the result); any
    other status means the solver could not decide within the limit, and the
    level is accepted unverified.
    """
    return solve(level, "best", time_limit, memory_limit_mb)
