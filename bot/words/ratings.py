"""Ratings: the change under a result, a player's rating, the bot's levels, the table."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.service.rating_replies import (
    BOT_RATINGS,
    NO_RATING_YET,
    PROVISIONAL_NOTE,
    RATING_CHANGES,
    RATING_HEADING,
    RATING_LINE,
    RATING_TABLE,
)
from bot.service.statistics import UNKNOWN_TABLE
from bot.words.registry import speaks
from bot.words.terms import level_name
from shax_i18n import Translator


def signed(change: int) -> str:
    """A rating change as players read it: ``+14``, ``−14`` (a true minus), ``±0``."""
    if change > 0:
        return f"+{change}"
    if change < 0:
        return f"\u2212{-change}"
    return "\u00b10"


@speaks(RATING_CHANGES)
def rating_changes(t: Translator, changes: Sequence[tuple[str, str, int]]) -> str:
    """The ratings under a rated game's result: each person's name, rating now as shown
    (``1532``, ``1500?``) and change: ``Ratings: Cali 1532 (+14) · Bashir 1468 (−14).``"""
    listed = " · ".join(
        t.gettext("{player} {rating} ({change})", player=name, rating=shown, change=signed(change))
        for name, shown, change in changes
    )
    return t.gettext("Ratings: {changes}.", changes=listed)


@speaks(RATING_HEADING)
def rating_heading(t: Translator, name: str) -> str:
    return t.gettext("**{player}** — rating on this server (shax and shax-small)", player=name)


@speaks(RATING_LINE)
def rating_line(t: Translator, shown: str, deviation: int, games: int, best: int | None) -> str:
    """A player's rating, its deviation, the rated games and the best rating reached."""
    counted = t.ngettext("{n} rated game", "{n} rated games", games)
    if best is None:
        return t.gettext(
            "Rating {rating} ± {deviation} · {games} · no best yet",
            rating=shown,
            deviation=deviation,
            games=counted,
        )
    return t.gettext(
        "Rating {rating} ± {deviation} · {games} · best {best}",
        rating=shown,
        deviation=deviation,
        games=counted,
        best=best,
    )


@speaks(PROVISIONAL_NOTE)
def provisional_note(t: Translator) -> str:
    return t.gettext(
        "The ? means provisional: the rating settles with more rated games, and then it "
        "shows in /shax leaderboard table:ratings."
    )


@speaks(NO_RATING_YET)
def no_rating_yet(t: Translator, name: str) -> str:
    return t.gettext(
        "{player} has no rating here yet: games of shax and shax-small, against people or "
        "the bot (/shax play-bot), are rated.",
        player=name,
    )


@speaks(BOT_RATINGS)
def bot_ratings(t: Translator, name: str, levels: Sequence[tuple[str, int]]) -> str:
    """The bot's fixed rating at each level."""
    listed = ", ".join(
        t.gettext("{level} {rating}", level=level_name(level, t), rating=rating)
        for level, rating in levels
    )
    return t.gettext(
        "**{player}** plays at a fixed rating for each level: {levels}. A game against it "
        "moves only your rating.",
        player=name,
        levels=listed,
    )


@speaks(RATING_TABLE)
def rating_table(t: Translator, rows: Sequence[tuple[str, int, int]]) -> str:
    """The server's established ratings, highest first: name, rating, rated games."""
    heading = t.gettext("**Ratings** — established ratings on this server (shax and shax-small)")
    nobody = t.gettext("Nobody has an established rating here yet: it takes a few rated games.")
    return ranked_table(
        heading, nobody, rows, lambda n: t.ngettext("{n} rated game", "{n} rated games", n), t
    )


def ranked_table(
    heading: str,
    nobody: str,
    rows: Sequence[tuple[str, object, int]],
    counted: Callable[[int], str],
    t: Translator,
) -> str:
    """A table of ratings under its ``heading``: each player's rank, name, rating and what
    it counts (in words, ``counted``), best first; ``nobody`` when it has no rows."""
    lines = [
        t.gettext(
            "{rank}. {player} — {rating} ({count})",
            rank=rank,
            player=name,
            rating=rating,
            count=counted(count),
        )
        for rank, (name, rating, count) in enumerate(rows, 1)
    ]
    return "\n".join([heading, *(lines or [nobody])])


@speaks(UNKNOWN_TABLE)
def unknown_table(t: Translator, table: str) -> str:
    return t.gettext(
        "Unknown table {table} — choose streaks, ratings, both or puzzles.", table=repr(table)
    )
