"""Who plays whom: a Swiss round and an arena's next games, by maximum-weight matching.

Pure and deterministic (the same players in any order give the same pairs); no I/O.

Both formats put the players in a graph, an edge between every two of them, and take
``networkx``'s :func:`~networkx.max_weight_matching` with ``maxcardinality=True``: as many
games as possible, and among those the pairs that cost least. An edge's cost is a list of
criteria, most important first, and the weights are built so that a matching better on one
criterion beats any matching worse on it, whatever the criteria after it say
(:func:`_weights`).

**Swiss** (one round; scores in half-points: a win 2, a draw 1, a bye 2):

1. no rematch (allowed only when no round without one exists, so a small event pairs);
2. no absolute colour breach: a third game in a row with the same colour, or whites and
   blacks more than 2 apart (FIDE's Dutch system keeps these above the score groups too);
3. equal scores: the squared difference of the two scores;
4. each player the colour they had less (or, as many of each, the other one from last);
5. inside a score group, the top half against the bottom half by seed, as the Dutch system
   pairs a first round.

The bye is chosen before the matching, so it runs on an even set: the lowest score without
a bye, then the lowest seed; when that player's absence leaves no round without a rematch,
the next in that order whose absence does (among the first :data:`BYE_TRIES`).

**Arena** (the players free now): never the last opponent, near in score, neighbours in
the order of score and seed, colours evened out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import networkx as nx

__all__ = [
    "ArenaPairs",
    "ArenaPlayer",
    "Colour",
    "PlayerId",
    "SwissPlayer",
    "SwissRound",
    "arena_pairs",
    "bye_order",
    "swiss_round",
]

PlayerId = int
"""A player of a tournament: the user id."""
Colour = Literal["white", "black"]
Pair = tuple[PlayerId, PlayerId]
"""``(white, black)``."""

P = TypeVar("P", "SwissPlayer", "ArenaPlayer")

MAX_COLOUR_DIFFERENCE = 2
"""Whites and blacks of a Swiss player may differ by this much, not more."""
BYE_TRIES = 6
"""The players, in the bye's order, whose absence is tried for a round without rematches
(each try is a matching: a bound on the work of a large event at its end)."""


@dataclass(frozen=True)
class SwissPlayer:
    """A Swiss player as the next round sees them."""

    id: PlayerId
    score: int
    """Half-points: a win 2, a draw 1, a bye 2."""
    opponents: tuple[PlayerId, ...] = ()
    """Everyone met, in round order (a bye meets nobody)."""
    colours: tuple[Colour | None, ...] = ()
    """The colour of each round played, in order; ``None`` for a bye."""
    had_bye: bool = False
    seed: float = 0.0
    """The rating at the start: orders players inside a score group (higher first)."""
    withdrawn: bool = False
    """Left the event: never paired again."""

    @property
    def colour_balance(self) -> int:
        """Whites minus blacks."""
        return self.colours.count("white") - self.colours.count("black")

    @property
    def last_colours(self) -> tuple[Colour, ...]:
        """The colours of the games played, byes left out."""
        return tuple(c for c in self.colours if c is not None)


@dataclass(frozen=True)
class SwissRound:
    """A round's games, the top board first, and who has the bye (``None`` when even)."""

    pairs: tuple[Pair, ...]
    bye: PlayerId | None


@dataclass(frozen=True)
class ArenaPlayer:
    """An arena player free for a game now."""

    id: PlayerId
    score: int
    """Arena points (:func:`bot.tournaments.scoring.arena_points`)."""
    seed: float = 0.0
    """The rating: orders players of equal score (higher first)."""
    last_opponent: PlayerId | None = None
    colour_balance: int = 0
    """Whites minus blacks so far."""


@dataclass(frozen=True)
class ArenaPairs:
    """The games to start, ``(white, black)`` each, and who waits for the next turn."""

    pairs: tuple[Pair, ...]
    waiting: tuple[PlayerId, ...]


# -- Swiss ----------------------------------------------------------------------


def swiss_round(players: Iterable[SwissPlayer]) -> SwissRound:
    """The next round of a Swiss: withdrawn players left out, the bye (when the players
    are odd in number) chosen first, the rest paired by the criteria above. Raises
    ``ValueError`` if two players share an id."""
    everyone = _by_id(players)
    active = [p for p in _seeded(everyone) if not p.withdrawn]
    if not active:
        return SwissRound((), None)
    if len(active) % 2 == 0:
        return SwissRound(_swiss_pairs(active), None)
    candidates = bye_order(active)
    first: tuple[Pair, ...] | None = None
    for bye in candidates[:BYE_TRIES]:
        if bye.had_bye and not candidates[0].had_bye:
            break  # a rematch rather than a second bye while someone has had none
        rest = [p for p in active if p.id != bye.id]
        pairs = _swiss_pairs(rest)
        if not _has_rematch(pairs, everyone):
            return SwissRound(pairs, bye.id)
        first = pairs if first is None else first
    assert first is not None
    return SwissRound(first, candidates[0].id)


def bye_order(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Who gets the bye, first choice first: those without a bye before those with one,
    then the lowest score, then the lowest seed (then the highest id). A second bye
    goes only where every player has had one (more rounds than players)."""
    return sorted(players, key=lambda p: (p.had_bye, p.score, p.seed, -p.id))


def _swiss_pairs(players: Sequence[SwissPlayer]) -> tuple[Pair, ...]:
    """The games of an even set of players, the top board first."""
    order = {p.id: k for k, p in enumerate(players)}
    groups: dict[int, list[PlayerId]] = {}
    for p in players:
        groups.setdefault(p.score, []).append(p.id)

    def criteria(a: SwissPlayer, b: SwissPlayer) -> tuple[Pair, tuple[int, ...]]:
        white, black, breaches, misses = _colours(a, b)
        rematch = int(b.id in a.opponents or a.id in b.opponents)
        fold = 0
        if a.score == b.score:
            group = groups[a.score]
            gap = abs(group.index(a.id) - group.index(b.id))
            fold = abs(gap - len(group) // 2)
        return (white.id, black.id), (rematch, breaches, (a.score - b.score) ** 2, misses, fold)

    pairs = _match(players, criteria)
    by_id = {p.id: p for p in players}
    return tuple(
        sorted(
            pairs,
            key=lambda pair: (
                -max(by_id[pair[0]].score, by_id[pair[1]].score),
                -(by_id[pair[0]].score + by_id[pair[1]].score),
                min(order[pair[0]], order[pair[1]]),
            ),
        )
    )


def _colour_cost(p: SwissPlayer, colour: Colour) -> tuple[int, int]:
    """``(breach, miss)`` of giving ``p`` ``colour``: a breach is a third same colour in a
    row or a colour difference over :data:`MAX_COLOUR_DIFFERENCE`; a miss is not the
    colour ``p`` is due (the one they had less, else the other one from last time)."""
    played = p.last_colours
    after = p.colour_balance + (1 if colour == "white" else -1)
    three = len(played) >= 2 and played[-1] == played[-2] == colour
    breach = int(three or abs(after) > MAX_COLOUR_DIFFERENCE)
    due = _due_colour(p)
    return breach, int(due is not None and due != colour)


def _due_colour(p: SwissPlayer) -> Colour | None:
    balance = p.colour_balance
    if balance > 0:
        return "black"
    if balance < 0:
        return "white"
    played = p.last_colours
    if not played:
        return None
    return "black" if played[-1] == "white" else "white"


def _colours(a: SwissPlayer, b: SwissPlayer) -> tuple[SwissPlayer, SwissPlayer, int, int]:
    """Who of ``a`` and ``b`` has white: the way with fewer breaches, then fewer misses;
    then the player with more whites (than blacks) takes black; then the one who had white
    last takes black; then the higher seed has white. Returns white, black and the
    breaches and misses of that way."""

    def way(white: SwissPlayer, black: SwissPlayer) -> tuple[int, int, int, int, float, int]:
        wb, wm = _colour_cost(white, "white")
        bb, bm = _colour_cost(black, "black")
        last_white = white.last_colours[-1:] == ("white",)
        last_black = black.last_colours[-1:] == ("black",)
        return (
            wb + bb,
            wm + bm,
            white.colour_balance - black.colour_balance,
            int(last_white) + int(last_black),
            -white.seed,
            white.id,
        )

    one, other = way(a, b), way(b, a)
    if one <= other:
        return a, b, one[0], one[1]
    return b, a, other[0], other[1]


def _has_rematch(pairs: Iterable[Pair], players: dict[PlayerId, SwissPlayer]) -> bool:
    return any(black in players[white].opponents for white, black in pairs)


# -- arena ------------------------------------------------------------------------


def arena_pairs(free_players: Iterable[ArenaPlayer]) -> ArenaPairs:
    """Games for the arena players free now: as many as can be made; never a player's last
    opponent where any other pairing makes as many games; then the smallest score gaps
    (squared); then neighbours in the order of score and seed; the player with more whites
    than blacks takes black (ties: the higher seed has white). When they are odd in
    number, one waits. Raises ``ValueError`` if two players share an id."""
    players = sorted(_by_id(free_players).values(), key=lambda p: (-p.score, -p.seed, p.id))
    rank = {p.id: k for k, p in enumerate(players)}

    def criteria(a: ArenaPlayer, b: ArenaPlayer) -> tuple[Pair, tuple[int, ...]]:
        again = int(a.last_opponent == b.id or b.last_opponent == a.id)
        white, black = _arena_colours(a, b)
        uneven = abs(white.colour_balance + 1) + abs(black.colour_balance - 1)
        return (white.id, black.id), (
            again,
            (a.score - b.score) ** 2,
            abs(rank[a.id] - rank[b.id]),
            uneven,
        )

    pairs = _match(players, criteria)
    paired = {i for pair in pairs for i in pair}
    return ArenaPairs(
        tuple(sorted(pairs, key=lambda pair: min(rank[pair[0]], rank[pair[1]]))),
        tuple(p.id for p in players if p.id not in paired),
    )


def _arena_colours(a: ArenaPlayer, b: ArenaPlayer) -> tuple[ArenaPlayer, ArenaPlayer]:
    if a.colour_balance != b.colour_balance:
        return (a, b) if a.colour_balance < b.colour_balance else (b, a)
    return (a, b) if (-a.seed, a.id) <= (-b.seed, b.id) else (b, a)


# -- the matching -------------------------------------------------------------------


def _by_id(players: Iterable[P]) -> dict[PlayerId, P]:
    found: dict[PlayerId, P] = {}
    for p in players:
        if p.id in found:
            raise ValueError(f"player {p.id} is listed twice")
        found[p.id] = p
    return found


def _seeded(players: dict[PlayerId, SwissPlayer]) -> list[SwissPlayer]:
    """Highest score first, then highest seed, then lowest id."""
    return sorted(players.values(), key=lambda p: (-p.score, -p.seed, p.id))


def _match(
    players: Sequence[P], criteria: Callable[[P, P], tuple[Pair, tuple[int, ...]]]
) -> list[Pair]:
    """The pairs of a maximum-cardinality matching of least cost over every pair of
    ``players`` (in their given order, which makes the result deterministic)."""
    edges: list[tuple[int, int, Pair, tuple[int, ...]]] = []
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            pair, cost = criteria(a, players[j])
            edges.append((i, j, pair, cost))
    if not edges:
        return []
    weights = _weights([cost for *_, cost in edges], len(players) // 2)
    graph: Any = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for (i, j, _, _), w in zip(edges, weights, strict=True):
        graph.add_edge(i, j, weight=w)
    chosen = {frozenset(e) for e in nx.max_weight_matching(graph, maxcardinality=True)}
    return [pair for i, j, pair, _ in edges if frozenset((i, j)) in chosen]


def _weights(costs: Sequence[tuple[int, ...]], games: int) -> list[int]:
    """Positive integer weights, one per edge, such that among matchings of ``games``
    edges the heaviest is the least costly in the order of the criteria: each criterion's
    unit is worth more than all later criteria can add up to over ``games`` edges."""
    width = len(costs[0])
    units = [0] * width
    below = 0
    for k in range(width - 1, -1, -1):
        units[k] = below + 1
        below += units[k] * games * max(c[k] for c in costs)
    totals = [sum(u * c for u, c in zip(units, cost, strict=True)) for cost in costs]
    top = max(totals) + 1
    return [top - t for t in totals]
