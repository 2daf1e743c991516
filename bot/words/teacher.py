"""The teacher: hints and reviews."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.compose import SERIES_STONES
from bot.service.facade import THEME_CHOSEN, THEME_CURRENT, UNKNOWN_THEME
from bot.service.replies import Said
from bot.service.streaks import GABAD, GAL
from bot.service.teacher import (
    ANSWER_WORDS,
    HINT_LINE,
    HINTS_USED,
    LOSS_WORDS,
    NO_HINTS_LEFT,
    REASON_WORDS,
    REVIEW_HEADING,
    TURNING_POINT,
    TURNING_POINT_CAPTION,
)
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import option_list, theme_name
from bot.words.voice import Voice
from shax_i18n import N_, Translator

# -- the teacher: hints and reviews ----------------------------------------------------


def line_words(points: Sequence[str]) -> str:
    """A line or a pair of points as players write them: ``"a4 b4 c4"``."""
    return " ".join(points)


REASONS = {
    "wins": N_("it wins the game"),
    "laba_qaad": N_("it makes two jare at once, a laba-qaad ({points})"),
    "first_jare": N_("it makes the first jare ({points}), so you remove first"),
    "closes_jare": N_("it closes a jare on {points}: one of their stones comes off"),
    "only_action": N_("it is the only legal action"),
    "takes_irmaan": N_("it breaks their irmaan ({points})"),
    "takes_threat": N_("it takes a stone from their line {points} before they close it"),
    "stops_jare": N_("it stops their jare on {points}"),
    "haarig": N_("it leaves them no move (hārig)"),
    "makes_irmaan": N_("it builds an irmaan: the stone between {points} closes a jare every move"),
    "frees_safely": N_("it frees them without giving an irmaan or a jare"),
    "threatens_jare": N_("it threatens a jare on {points}"),
    "table_draw": N_("it holds the draw with perfect play, by the endgame tables"),
}
"""Why an action is good, by :class:`engine.explain.Reason` value."""
BALANCED = N_("it keeps the position best balanced")


@speaks(REASON_WORDS)
def reason_words(t: Translator, reason: str, points: Sequence[str], moves: int) -> str:
    """Why an action is good, from an :class:`engine.explain.Reason` value, its points
    and, for a proven win, its moves."""
    if reason == "table_win":
        return t.ngettext(
            "it wins in {n} move with perfect play, by the endgame tables",
            "it wins in {n} moves with perfect play, by the endgame tables",
            moves,
        )
    if reason == "forced_win":
        return t.ngettext(
            "it forces a win in at most {n} move", "it forces a win in at most {n} moves", moves
        )
    return t.gettext(REASONS.get(reason, BALANCED), points=line_words(points))


@speaks_with_voice(ANSWER_WORDS)
def answer_words(voice: Voice, played: str, reply: str, why: Said) -> str:
    """Why the action played was worse: the answer it allows, and what that answer does
    (``why``, :func:`reason_words`)."""
    return voice.t.gettext(
        "after {played} they answer **{reply}**, and {why}",
        played=played,
        reply=reply,
        why=voice.say(why),
    )


@speaks_with_voice(HINT_LINE)
def hint_line(voice: Voice, action: str, why: Said, used: int, limit: int) -> str:
    return voice.t.gettext(
        "Hint {used} of {limit}: **{action}** — {why}.",
        used=used,
        limit=limit,
        action=action,
        why=voice.say(why),
    )


@speaks(NO_HINTS_LEFT)
def no_hints_left(t: Translator, limit: int) -> str:
    return t.ngettext(
        "You have used the {n} hint of this game — the rest is yours to find.",
        "You have used all {n} hints of this game — the rest is yours to find.",
        limit,
    )


@speaks(HINTS_USED)
def hints_used(t: Translator, used: int, limit: int) -> str:
    return t.gettext("Hints used: {used} of {limit}.", used=used, limit=limit)


REVIEWING = N_("Reviewing the game…")


@speaks(REVIEW_HEADING)
def review_heading(t: Translator, white: str, black: str, actions: int) -> str:
    return t.ngettext(
        "**Review of {white} vs {black}** ({n} action): the curve shows who stood "
        "better after each action — above the line {white}, below it {black}.",
        "**Review of {white} vs {black}** ({n} actions): the curve shows who stood "
        "better after each action — above the line {white}, below it {black}.",
        actions,
        white=white,
        black=black,
    )


@speaks(LOSS_WORDS)
def loss_words(t: Translator, loss: int, gave_away_win: bool, walked_into_loss: bool) -> str:
    """What an action lost, in stones (100 centi-stones) or in the game's result."""
    if gave_away_win:
        return t.gettext("let a won game go")
    if walked_into_loss:
        return t.gettext("walked into a lost game")
    return t.gettext("lost {stones} stones", stones=f"{loss / 100:.1f}")


@speaks_with_voice(TURNING_POINT)
def turning_point(
    voice: Voice,
    number: int,
    action_number: int,
    name: str,
    played: str,
    lost: Said,
    best: str,
    why: Said,
) -> str:
    return voice.t.gettext(
        "{number}. Action {action}: {name} played **{played}** and {lost}; "
        "better **{best}** — {why}.",
        number=number,
        action=action_number,
        name=name,
        played=played,
        lost=voice.say(lost),
        best=best,
        why=voice.say(why),
    )


@speaks(TURNING_POINT_CAPTION)
def turning_point_caption(
    t: Translator, number: int, action_number: int, played: str, best: str
) -> str:
    return t.gettext(
        "{number}. Action {action}: better {best} than {played}",
        number=number,
        action=action_number,
        best=best,
        played=played,
    )


@speaks(SERIES_STONES)
def series_stones(t: Translator, name: str, stones: int) -> str:
    """The series stones on the picture, explained: whose, how many, what comes next."""
    if stones < GAL:
        return t.ngettext(
            "Series stones: {name}, {n} win in a row; {more} more for a gal.",
            "Series stones: {name}, {n} wins in a row; {more} more for a gal.",
            stones,
            name=name,
            more=GAL - stones,
        )
    if stones < GABAD:
        return t.gettext(
            "Series stones: {name}, {n} wins in a row (a gal); one more for a gabad.",
            name=name,
            n=stones,
        )
    return t.gettext("Series stones: {name}, {n} wins in a row (a gabad).", name=name, n=stones)


@speaks(THEME_CHOSEN)
def theme_chosen(t: Translator, theme: str) -> str:
    # Translators: The answer to /shax theme; {theme} is the theme's name ("dark", "light").
    return t.gettext("Your boards are now drawn in the {theme} theme.", theme=theme_name(theme, t))


@speaks(THEME_CURRENT)
def theme_current(t: Translator, theme: str, themes: Sequence[str]) -> str:
    return t.gettext(
        "Your boards are drawn in the {theme} theme; choose with /shax theme: {themes}.",
        theme=theme_name(theme, t),
        themes=option_list(themes, theme_name, t),
    )


@speaks(UNKNOWN_THEME)
def unknown_theme(t: Translator, theme: str, themes: Sequence[str]) -> str:
    return t.gettext(
        "Unknown theme {theme} — choose one of: {themes}.",
        theme=repr(theme),
        themes=option_list(themes, theme_name, t),
    )
