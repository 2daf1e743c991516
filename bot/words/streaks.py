"""Streaks, the leaderboard and the language."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.compose import STREAK_CHANGE
from bot.service.facade import LANGUAGE_RESET, LANGUAGE_SET, UNKNOWN_LANGUAGE
from bot.service.statistics import (
    AGAINST_BOT,
    AGAINST_PEOPLE,
    BOT_NO_GAMES_YET,
    BOT_RECORD_HEADING,
    BOT_RECORD_LINE,
    LEADERBOARD,
    NO_GAMES_YET,
    STREAKS_HEADING,
)
from bot.service.streaks import GABAD, GAL, Tally
from bot.words.registry import speaks
from bot.words.terms import level_name
from shax_i18n import LANGUAGES, Translator

# -- streaks ---------------------------------------------------------------------------


def streak_phrase(streak: int, t: Translator) -> str:
    """How a winning streak sounds: ``"3 in a row — one more for a gal"``."""
    if streak <= 0:
        return t.gettext("no wins in a row yet")
    if streak < GAL:
        more = GAL - streak
        if more == 1:
            return t.gettext("{n} in a row — one more for a gal", n=streak)
        if more == 2:
            return t.gettext("{n} in a row — two more for a gal", n=streak)
        return t.gettext("{n} in a row — three more for a gal", n=streak)
    if streak == GAL:
        return t.gettext("{n} in a row: a gal!", n=streak)
    if streak == GABAD:
        return t.gettext("{n} in a row: a gabad!", n=streak)
    return t.gettext("{n} in a row — past a gabad!", n=streak)


@speaks(STREAK_CHANGE)
def change_text(
    t: Translator,
    winner_name: str | None,
    winner_after: Tally | None,
    loser_name: str | None,
    loser_before: Tally | None,
) -> str:
    """The streak line under a result; ``winner_name=None`` for a draw.

    A missing tally (the bot's side) is left out.
    """
    if winner_name is None:
        return t.gettext("A draw breaks nobody's streak.")
    parts = []
    if winner_after is not None:
        parts.append(
            t.gettext(
                "{player}: {streak}.",
                player=winner_name,
                streak=streak_phrase(winner_after.streak, t),
            )
        )
    if loser_before is not None and loser_before.streak > 0:
        parts.append(
            t.gettext("{player}'s run of {n} ends.", player=loser_name, n=loser_before.streak)
        )
    return " ".join(parts)


def _badges(tally: Tally, t: Translator) -> str:
    extra = t.gettext(" · gal ×{n}", n=tally.gal) if tally.gal else ""
    return extra + (t.gettext(" · gabad ×{n}", n=tally.gabad) if tally.gabad else "")


def _counts(won: int, lost: int, drawn: int, t: Translator) -> dict[str, str]:
    """Games won, lost and drawn, each counted with its noun's plural after a number."""
    return {
        "won": t.npgettext("tally", "{n} won", "{n} won", won),
        "lost": t.npgettext("tally", "{n} lost", "{n} lost", lost),
        "drawn": t.npgettext("tally", "{n} drawn", "{n} drawn", drawn),
    }


def tally_line(tally: Tally, t: Translator) -> str:
    now = streak_phrase(tally.streak, t) if tally.streak else t.gettext("no current streak")
    return t.gettext(
        # Translators: {won}, {lost} and {drawn} are the counted "{n} won" and so on.
        "{won}, {lost}, {drawn} — {streak}; best {best} in a row",
        **_counts(tally.wins, tally.losses, tally.draws, t),
        streak=now,
        best=tally.best,
    ) + _badges(tally, t)


@speaks(NO_GAMES_YET)
def no_games_yet(t: Translator, name: str) -> str:
    return t.gettext("{player} hasn't finished a game here yet.", player=name)


@speaks(STREAKS_HEADING)
def streaks_heading(t: Translator, name: str) -> str:
    return t.gettext("**{player}** — streaks on this server", player=name)


@speaks(AGAINST_PEOPLE)
def against_people(t: Translator, tally: Tally) -> str:
    return t.gettext("Against people: {tally}", tally=tally_line(tally, t))


@speaks(AGAINST_BOT)
def against_bot(t: Translator, level: str, tally: Tally) -> str:
    return t.gettext(
        "Against the {level} bot: {tally}", level=level_name(level, t), tally=tally_line(tally, t)
    )


@speaks(BOT_RECORD_HEADING)
def bot_record_heading(t: Translator, name: str) -> str:
    return t.gettext("**{player}** — its games on this server", player=name)


@speaks(BOT_RECORD_LINE)
def bot_record_line(t: Translator, level: str, won: int, lost: int, drawn: int) -> str:
    return t.gettext(
        # Translators: {won}, {lost} and {drawn} are the counted "{n} won" and so on.
        "As the {level} bot: {won}, {lost}, {drawn}",
        level=level_name(level, t),
        **_counts(won, lost, drawn, t),
    )


@speaks(BOT_NO_GAMES_YET)
def bot_no_games_yet(t: Translator, name: str) -> str:
    return t.gettext(
        "{player} hasn't finished a game here yet: challenge it with /shax play-bot.",
        player=name,
    )


@speaks(LEADERBOARD)
def leaderboard(
    t: Translator, current: Sequence[tuple[str, Tally]], best: Sequence[tuple[str, Tally]]
) -> str:
    lines = [
        t.gettext(
            "**Leaderboard** — streaks against people (games against the bot show in /shax streak)"
        )
    ]
    if not best:
        lines.append(t.gettext("Nobody has won a game against a person here yet."))
        return "\n".join(lines)
    lines.append(t.gettext("Current streaks:"))
    lines += [
        t.gettext("{rank}. {player} — {n} in a row", rank=i, player=name, n=tally.streak)
        for i, (name, tally) in enumerate(current, 1)
    ] or [t.gettext("(no running streaks)")]
    lines.append(t.gettext("All-time best:"))
    lines += [
        t.gettext("{rank}. {player} — {n} in a row", rank=i, player=name, n=tally.best)
        + _badges(tally, t)
        for i, (name, tally) in enumerate(best, 1)
    ]
    return "\n".join(lines)


# -- the language -----------------------------------------------------------------------


@speaks(LANGUAGE_SET)
def language_set(t: Translator) -> str:
    """The answer to ``/shax language``, read in the language just chosen."""
    return t.gettext(
        "Language: {language}. Choose another with /shax language.",
        language=LANGUAGES[t.language],
    )


@speaks(LANGUAGE_RESET)
def language_reset(t: Translator) -> str:
    """The answer to ``/shax language`` without one, read in the language now in force."""
    return t.gettext(
        "Language: {language}, as your Discord app or the server says. Choose one with "
        "/shax language.",
        language=LANGUAGES[t.language],
    )


@speaks(UNKNOWN_LANGUAGE)
def unknown_language(t: Translator, language: str) -> str:
    return t.gettext(
        "Unknown language {language} — choose one of: {languages}.",
        language=repr(language),
        languages=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items()),
    )
