"""The three boards, as data: points, adjacency and lines of three (jare).

Points are named like chess squares (file letter, rank number). Each point has
an index; a set of points is an int with bit ``i`` set for point ``i``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

RuleFamily = Literal["shax", "jar"]


class UnknownVariantError(ValueError):
    """Raised for a variant id that is not one of :data:`VARIANT_IDS`."""


@dataclass(frozen=True)
class Variant:
    """A board and its piece count: everything the rules need to know about it.

    Build one with :func:`make_variant`; use the ready ones in :data:`VARIANTS`.
    """

    id: str
    title: str
    family: RuleFamily
    pieces: int
    grid: int
    points: tuple[str, ...]
    lines: tuple[int, ...]
    """Each line of three as a bitmask."""
    edges: tuple[tuple[int, int], ...]
    """Adjacent pairs (i < j): the segments a picture draws."""
    adjacent: tuple[int, ...] = field(repr=False)
    """``adjacent[i]``: bitmask of the points next to point ``i``."""
    lines_through: tuple[tuple[int, ...], ...] = field(repr=False)
    """``lines_through[i]``: the line masks that contain point ``i``."""
    index: dict[str, int] = field(repr=False, compare=False, hash=False)
    all_points: int = field(repr=False)

    @property
    def size(self) -> int:
        """Number of points on the board."""
        return len(self.points)

    def point(self, name: str) -> int:
        """Index of a point name such as ``'d7'``; raises ``KeyError`` if absent."""
        return self.index[name]

    def coords(self, i: int) -> tuple[int, int]:
        """Grid coordinates ``(file, rank)`` of point ``i``, both from 0 (a1 is (0, 0))."""
        name = self.points[i]
        return ord(name[0]) - ord("a"), int(name[1:]) - 1

    def names(self, mask: int) -> list[str]:
        """The point names in a bitmask, in board order."""
        return [self.points[i] for i in iter_bits(mask)]

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Variants are singletons: pickling by id keeps process pools cheap.
        return get_variant, (self.id,)


def iter_bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def make_variant(
    id: str,
    title: str,
    family: RuleFamily,
    pieces: int,
    grid: int,
    lines: list[str],
    extra_edges: list[str] = (),  # type: ignore[assignment]
) -> Variant:
    """Build a variant from its lines (``"a7 d7 g7"``) and any joins that are not on a line."""
    names = sorted({p for line in lines for p in line.split()}, key=lambda n: (n[0], int(n[1:])))
    index = {n: i for i, n in enumerate(names)}
    line_masks: list[int] = []
    pairs: set[tuple[int, int]] = set()
    for line in lines:
        a, b, c = (index[p] for p in line.split())
        line_masks.append((1 << a) | (1 << b) | (1 << c))
        pairs.update({(min(a, b), max(a, b)), (min(b, c), max(b, c))})
    for join in extra_edges:
        a, b = (index[p] for p in join.split("-"))
        pairs.add((min(a, b), max(a, b)))
    adjacent = [0] * len(names)
    for a, b in pairs:
        adjacent[a] |= 1 << b
        adjacent[b] |= 1 << a
    through = tuple(tuple(m for m in line_masks if m >> i & 1) for i in range(len(names)))
    return Variant(
        id=id,
        title=title,
        family=family,
        pieces=pieces,
        grid=grid,
        points=tuple(names),
        lines=tuple(line_masks),
        edges=tuple(sorted(pairs)),
        adjacent=tuple(adjacent),
        lines_through=through,
        index=index,
        all_points=(1 << len(names)) - 1,
    )


SHAX = make_variant(
    "shax",
    "Shax",
    "shax",
    pieces=12,
    grid=7,
    lines=[
        "a7 d7 g7",
        "b6 d6 f6",
        "c5 d5 e5",
        "a4 b4 c4",
        "e4 f4 g4",
        "c3 d3 e3",
        "b2 d2 f2",
        "a1 d1 g1",
        "a1 a4 a7",
        "b2 b4 b6",
        "c3 c4 c5",
        "d7 d6 d5",
        "d3 d2 d1",
        "e3 e4 e5",
        "f2 f4 f6",
        "g1 g4 g7",
    ],
)

SHAX_SMALL = make_variant(
    "shax-small",
    "Shax (small board)",
    "shax",
    pieces=8,
    grid=5,
    lines=[
        "a1 a3 a5",
        "a5 c5 e5",
        "e5 e3 e1",
        "e1 c1 a1",
        "b2 b3 b4",
        "b4 c4 d4",
        "d4 d3 d2",
        "d2 c2 b2",
    ],
    extra_edges=["a3-b3", "c5-c4", "e3-d3", "c1-c2"],
)

JAR = make_variant(
    "jar",
    "Jar (children's game)",
    "jar",
    pieces=3,
    grid=3,
    lines=["a1 b1 c1", "a2 b2 c2", "a3 b3 c3", "a1 a2 a3", "b1 b2 b3", "c1 c2 c3"],
)

VARIANTS: dict[str, Variant] = {v.id: v for v in (SHAX, SHAX_SMALL, JAR)}
VARIANT_IDS: tuple[str, ...] = tuple(VARIANTS)


def get_variant(variant: str | Variant) -> Variant:
    """The variant with this id (a :class:`Variant` passes through)."""
    if isinstance(variant, Variant):
        return variant
    try:
        return VARIANTS[variant]
    except KeyError:
        known = ", ".join(VARIANT_IDS)
        raise UnknownVariantError(f"unknown variant {variant!r}; choose one of: {known}") from None


class Color(Enum):
    """A player: white places first."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def label(self) -> str:
        return self.name.lower()
