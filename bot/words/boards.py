"""Words that depend on the board in play: notation examples, its points, the rules.

Every example is derived from the variant's own data (its points and lines), so a
message about the 3×3 jar board says ``b2`` and ``a1-a2`` and never mentions removals,
and one about the small Shax board names only the points a1–e5 that it has. The rules
text says what the picture of the board shows: the file letters and rank numbers on its
edges, from which every point's name follows.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.service.compose import RULES_TEXT
from bot.words.registry import speaks
from bot.words.terms import variant_title
from engine import Variant
from shax_i18n import N_, Translator


class Examples(NamedTuple):
    """Notation examples that exist on one board: a point to place on, a move along one
    of its lines, and a removal (``None`` where nothing is ever removed: jar)."""

    place: str
    move: str
    remove: str | None


def examples(variant: Variant) -> Examples:
    """Examples from the board's own data: its middle point (in name order), its first
    line segment, and a removal on its last point (only in the Shax family)."""
    names = variant.points
    a, b = variant.edges[0]
    remove = "x" + names[-1] if variant.family == "shax" else None
    return Examples(names[len(names) // 2], f"{names[a]}-{names[b]}", remove)


def point_names(variant: Variant) -> str:
    """Every point of the board: ``"a1 a2 a3 b1 b2 b3 c1 c2 c3"``."""
    return " ".join(variant.points)


# -- the rules ----------------------------------------------------------------------

_SHAX_RULES = N_(
    """\
**{title}** — {pieces} stones each, {points} points. {lines} {series}
1. **Placement.** Take turns placing one stone on any empty point until all are placed. \
A line of three (a **jare**) captures nothing yet; the game only remembers who formed the \
**first jare**.
2. **Opening removals.** The board is full. The first-jare player removes any one of the \
opponent's stones, then the opponent removes one of the first-jare player's (if nobody formed \
a jare, black removes first).
3. **Movement.** Whoever removed first moves first: one stone along a line to the next empty \
point. No flying, ever.
4. **Captures.** A move that forms a jare — also one formed again by moving a stone out and \
back — removes one opponent stone from **anywhere**; stones in a jare are not protected.
5. **Blockade — jid i sii aan jar aheyn.** If you cannot move, your opponent moves instead \
to open a way for you, and keeps moving until one opens; these freeing moves are **oodan** \
(closed): they never capture.
6. **End.** Down to **two** stones, you lose. You may resign.
7. **Draws.** By agreement; when neither player can move; on the third repetition of a \
position; after 100 moves without a capture.
Notation: place `{place}`, move `{move}`, remove `{remove}`. {names}"""
)

_JAR_RULES = N_(
    """\
**{title}** — {pieces} stones each on the {grid}×{grid} grid. {lines} {series}
1. Take turns placing your {pieces} stones on empty points. A line of three made while \
placing wins nothing: whoever makes the first one moves first (if nobody does, black).
2. Then take turns moving one stone to the next empty point along a line.
3. The first to **form** three in a row by a move wins at once; a line left from the \
placement counts only when formed again, by moving a stone out and back. Nothing is captured.
4. Blockade and draws as in Shax: a blocked player's opponent must open a way \
(jid i sii aan jar aheyn), moving on until one opens, and those freeing moves never win; \
drawn by agreement, when neither can move, on the third repetition, or after 100 moves.
Notation: place `{place}`, move `{move}`. {names}"""
)


def lines_sentence(variant: Variant, t: Translator) -> str:
    """Which lines of the board make a jare (three in a row): never a diagonal."""
    if variant.family == "jar":
        return t.gettext("Lines are the rows and the columns: no diagonals.")
    if variant.id == "shax-small":
        return t.gettext(
            "Only the squares' sides make a jare (the four joins are for moving): no diagonals."
        )
    return t.gettext("Lines run along the squares' sides and the midpoint joins: no diagonals.")


def series_sentence(t: Translator) -> str:
    """Who places first, in a game and in a series of games between the same players."""
    return t.gettext(
        "White places first: in a series (games between the same two), the last winner; "
        "after a draw, whoever placed second; in a new series, the challenger."
    )


@speaks(RULES_TEXT)
def rules_text(t: Translator, variant: Variant) -> str:
    """The rules in short, with notation examples that exist on this board, in the
    language of ``t``."""
    template = _JAR_RULES if variant.family == "jar" else _SHAX_RULES
    ex = examples(variant)
    return t.gettext(
        template,
        title=variant_title(t, variant),
        pieces=variant.pieces,
        points=variant.size,
        grid=variant.grid,
        lines=lines_sentence(variant, t),
        series=series_sentence(t),
        place=ex.place,
        move=ex.move,
        remove=ex.remove,
        names=board_key(variant, t),
    )


def board_key(variant: Variant, t: Translator) -> str:
    """How to read the picture of the board: exactly what it labels, no more."""
    return t.gettext(
        "The picture labels the files a–{last_file} along the bottom and the ranks "
        "1–{grid} up the side; a point is named by its file and rank. "
        "The points: {points}.",
        last_file=chr(ord("a") + variant.grid - 1),
        grid=variant.grid,
        points=point_names(variant),
    )
