"""The AI's levels and its evaluation weights, as data."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

WEIGHTS: MappingProxyType[str, int] = MappingProxyType(
    {
        # tuned by engine.ai.tune on 3000 self-play games at depth 7 (centi-stones)
        "mat": 100,
        "mob": 4,
        "blocked": 10,
        "stuck": -10,
        "threat": 71,
        "threat_tomove": 98,
        "opp_unblockable": -22,
        "opp_double": 20,
        "two": 17,
        "irmaan": 50,
        "jare_open": 46,
        "few": 43,
        "freeing": 8,
        "own_double": 22,
        "p_first": 62,
        "p_first_now": 50,
        "p_first_lost": -54,
        "p_two_open": 10,
        "p_two_blocked": 30,
        "p_jare": 27,
        "p_deg3": 12,
        "p_deg4": 24,
        "p_lib": -6,
        "p_fork": 6,
        "p_tempo": 1,
        "p_pairs": -7,
        "p_early_first": 70,
        "p_early_first_now": 47,
        "p_early_first_lost": -23,
        "p_early_two_open": 18,
        "p_early_two_blocked": 0,
        "p_early_jare": 6,
        "p_early_deg3": -16,
        "p_early_deg4": -22,
        "p_early_lib": 19,
        "p_early_fork": 2,
        "p_early_tempo": 29,
        "p_early_pairs": 0,
    }
)
"""The evaluation weights of the compiled core (names as in ``core.WEIGHT_NAMES``)."""

VARIANT_WEIGHTS: MappingProxyType[str, MappingProxyType[str, int]] = MappingProxyType({})
"""Weights tuned for one board; others use :data:`WEIGHTS`."""


def weights_for(variant: str) -> MappingProxyType[str, int]:
    """The evaluation weights for a variant id."""
    return VARIANT_WEIGHTS.get(variant, WEIGHTS)


@dataclass(frozen=True)
class Level:
    """How one level plays.

    ``max_depth`` caps the iterative deepening; ``temperature`` (centi-stones) picks a
    root action by a softmax over the exact scores of every action (0: the best one,
    with the full alpha-beta window saving); ``tt_log2`` sizes the transposition table.
    """

    name: str
    max_depth: int
    temperature: float
    movetime: float
    tt_log2: int
    soft_fraction: float = 0.55
    """Once the best move has held for a few iterations, start no new one after this
    fraction of the time budget; before that, an iteration starts when it will likely
    finish in the budget, or when the last one changed the best move (see
    ``core_keep_going`` in ``_core.c``)."""
    jare_salience: int = 0
    """Centi-stones added, for the noisy choice only, to actions that close a jare: the
    capture a human sees at a glance."""
    tables: bool = False
    """Play by the endgame tables where they are built (engine.tables): perfectly; and
    end the placement on the full-board values where they are (engine.tables.fullboard)."""
    eager_fraction: float = 0.0
    """Before this fraction of the time budget a new iteration always starts, even one
    that will not finish: it searches the best move first and keeps a move that beats it,
    so the budget is spent rather than left over."""
    keep_tt: bool = False
    """Timed searches start from what the process's earlier searches left in the
    transposition table (most of a move's tree was searched for the move before)."""
    rating: int = 1500
    """The level's fixed Glicko-2 rating, against which games with the bot are rated
    (measured: see the figures above :data:`LEVEL_TABLE`)."""
    extend: float = 1.0
    """Up to this multiple of the time budget for a move that is not settled (the last
    iteration changed the best move); a move whose best held stops at the budget, and
    one settled for several iterations at ``soft_fraction`` of it. The time left over
    on forced, decided and settled moves goes to the moves still in doubt."""

    @property
    def noisy(self) -> bool:
        return self.temperature > 0


# Measured with ``python -m engine.arena`` (40 games each, shax, each level at its own
# time unless said): easy beats a random player 100%, medium beats easy 90%, hard beats
# medium 97.5%, master at 1 s a move beats hard 81%.
# The levels' ratings (``rating``; games against the bot are rated against them) come
# from matches of each level against the one below, at the levels' own settings:
# ``python -m engine.arena --a A --b B --games 40 --variant shax --workers 1 --seed 28``,
# 40 games (20 colour-swapped pairs) a match, on a shared machine (load average about 12
# during the master match, so master's 4.5 s searched less deep than on an idle one):
#   easy   vs random  40-0-0   100%    (Elo > +2000; 95% from +407)
#   medium vs easy    38-0-2   95.0%   Elo +512 (95% +282 .. +741; by pairs +304 .. >+2000)
#   hard   vs medium  36-1-3   91.2%   Elo +407 (95% +225 .. +589; by pairs +259 .. >+2000)
#   master vs hard    38-0-2   95.0%   Elo +512 (95% +282 .. +741; by pairs +350 .. >+2000)
# easy is fixed at 1000 (the scale needs an anchor; a newcomer starts at 1500, between
# easy and medium), and each level above adds its measured difference: medium 1512, hard
# 1919, master 2431. With scores of 91-95% the differences are lower bounds as much as
# estimates, their intervals are wide, and they stack up the ladder. There is no
# stronger engine than master to measure it against: benchmarks/ names a C++ mill engine
# only by its speed (it is not in the repository), and on the boards solved whole
# (jar, shax-small) master already plays perfectly.
# Master's extend (up to twice the budget on a move not settled) against the clock
# before it (baseline@e618d2f, colour-swapped pairs, on a shared busy machine): at
# 0.3 s, 120 games, 57.9% (Elo +55; by pairs, 95% +17 .. +96), 0.248 s a move against
# 0.237-0.263 s; at 1 s, 60 games, 50.8% (Elo +6; by pairs, 95% -42 .. +54).
# The core at 1.68x the nodes per second of the one before (``benchmarks/bench_ai.py
# --against 977c696``, the same tree node for node) against it, master at 0.3 s, 40 games
# (two seeds, colour-swapped pairs, a busy machine): +25 =1 -14, 63.8%, Elo +98 (95% -12
# .. +208).
# Hard is capped at nine plies rather than given its whole 1.8 s: between two full-time
# searches the game is mostly decided by who places first (white won 70% of games
# between equals), and master at 4.5 s scored only 57.5% against hard at 1.8 s.
LEVEL_TABLE: MappingProxyType[str, Level] = MappingProxyType(
    {
        "easy": Level(
            "easy",
            max_depth=2,
            temperature=45.0,
            movetime=0.3,
            tt_log2=14,
            jare_salience=100,
            rating=1000,
        ),
        "medium": Level(
            "medium", max_depth=4, temperature=12.0, movetime=0.7, tt_log2=16, rating=1512
        ),
        "hard": Level("hard", max_depth=9, temperature=0.0, movetime=1.8, tt_log2=20, rating=1919),
        "master": Level(
            "master",
            max_depth=99,
            temperature=0.0,
            movetime=4.5,
            tt_log2=21,
            tables=True,
            keep_tt=True,
            soft_fraction=0.9,
            eager_fraction=1.0,
            extend=2.0,
            rating=2431,
        ),
    }
)
