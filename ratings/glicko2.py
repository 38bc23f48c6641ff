"""Glicko-2 ratings, as in Glickman's "Example of the Glicko-2 system" (2012).

Every player has a rating ``r``, a deviation ``RD`` (how unsure the rating is)
and a volatility ``sigma`` (how erratic the player's results are). Games are
rated in rating periods: all games of a period count as if played at once,
against the opponents' ratings from before the period. The step numbers in the
comments below are the paper's.

House rules on top of the paper:

- A deviation never exceeds ``DEFAULT_DEVIATION`` (350), the deviation of a
  player nobody knows anything about: a long absence cannot make a player more
  uncertain than a newcomer.
- A game of three or more seats is one rating period for each seat, played
  against every other seat: a better place is a win, an equal place a draw
  (``rate_by_places``).
- A rating is *provisional* while its deviation is at least
  ``PROVISIONAL_DEVIATION`` (110), lichess's threshold: a 95% interval of
  about +-220 points. A newcomer leaves it after 10-12 games against
  established players, each game its own rating period.

This module is pure Python: no Django, so the rating rules can be tested and
reused without a database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06

# tau bounds how fast the volatility may change. The paper suggests 0.3 to
# 1.2 and advises tuning it on real results for predictive accuracy; we have
# no results yet, so we take the paper's own example value, in the middle of
# that range. Smaller would make the volatility (already slow to move with
# one game per period) all but frozen; larger lets a few upsets swing ratings.
TAU = 0.5

PROVISIONAL_DEVIATION = 110.0

# Step 2: the Glicko-2 scale is the Glicko scale divided by 400 / ln(10).
SCALE = 173.7178

# Step 5: the paper's convergence tolerance for the volatility's root finding.
CONVERGENCE_TOLERANCE = 0.000001

# The Illinois iteration converges in a few steps (at most 11, 2.6 on
# average, over 20,000 random updates); the cap only guards against a float
# pathology turning a rating update into an endless loop.
MAX_ITERATIONS = 100

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    """Step 3: how much an opponent's uncertainty dampens what a game says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_g: float) -> float:
    """Step 3: the expected score against an opponent."""
    return 1.0 / (1.0 + math.exp(-opponent_g * (mu - opponent_mu)))


def _new_volatility(sigma: float, phi: float, variance: float, delta: float, tau: float) -> float:
    """Step 5: the volatility that zeroes the paper's f, by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - variance - ex) / (2.0 * (phi2 + variance + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi2 + variance:
        high = math.log(delta * delta - phi2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= CONVERGENCE_TOLERANCE:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        # "<= 0", not "< 0": when f(c) is exactly zero this still moves the
        # bracket (and ends the loop), where "< 0" would only halve f(low) and
        # compute the same c again and again.
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """One rating period: each game is (opponent's rating before the period, score 1 / 0.5 / 0).
    No games: only the deviation grows (step 6 of the paper), capped at DEFAULT_DEVIATION."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    max_phi = DEFAULT_DEVIATION / SCALE

    if not games:
        grown = min(math.sqrt(phi * phi + sigma * sigma), max_phi)
        return Rating(player.rating, grown * SCALE, sigma)

    # Steps 3 and 4: the variance of the rating from the games alone, and the
    # improvement those games suggest (``delta`` is variance * improvement).
    # The games of a period have no order, so the sums are exact (fsum) and
    # the same whatever order the seats or games come in.
    information_terms: list[float] = []
    improvement_terms: list[float] = []
    for opponent, score in games:
        opponent_g = _g(opponent.deviation / SCALE)
        expected = _expected(mu, (opponent.rating - DEFAULT_RATING) / SCALE, opponent_g)
        information_terms.append(opponent_g * opponent_g * expected * (1.0 - expected))
        improvement_terms.append(opponent_g * (score - expected))
    variance = 1.0 / math.fsum(information_terms)
    improvement = math.fsum(improvement_terms)
    delta = variance * improvement

    new_sigma = _new_volatility(sigma, phi, variance, delta, tau)
    # Steps 6 and 7. Only the result is capped: games against very uncertain
    # opponents tell almost nothing, so a newcomer's deviation could otherwise
    # come out a hair above 350.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    new_mu = mu + new_phi * new_phi * improvement
    new_phi = min(new_phi, max_phi)
    # Step 8.
    return Rating(SCALE * new_mu + DEFAULT_RATING, SCALE * new_phi, new_sigma)


def _score(place: int, other_place: int) -> float:
    if place < other_place:
        return WIN
    if place == other_place:
        return DRAW
    return LOSS


def rate_by_places(ratings: Sequence[Rating], places: Sequence[int], *, tau: float = TAU) -> list[Rating]:
    """Every seat of one finished game, rated in one period against every other seat:
    a better (smaller) place is a win, an equal place a draw. All from the ratings before."""
    if len(ratings) != len(places):
        raise ValueError(f"{len(ratings)} ratings but {len(places)} places")
    return [
        rate(
            rating,
            [(ratings[other], _score(place, places[other])) for other in range(len(ratings)) if other != seat],
            tau=tau,
        )
        for seat, (rating, place) in enumerate(zip(ratings, places))
    ]
