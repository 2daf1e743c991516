"""The teacher: hints and reviews."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.streaks import GABAD, GAL
from bot.words.registry import sentence
from bot.words.terms import EN, option_list, theme_name
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


@sentence
def reason_words(reason: str, points: Sequence[str], t: Translator = EN, moves: int = 0) -> str:
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


@sentence
def answer_words(played: str, reply: str, why: str, t: Translator = EN) -> str:
    """Why the action played was worse: the answer it allows, and what that answer does
    (``why``, from :func:`reason_words`)."""
    return t.gettext(
        "after {played} they answer **{reply}**, and {why}", played=played, reply=reply, why=why
    )


@sentence
def hint_line(action: str, why: str, used: int, limit: int, t: Translator = EN) -> str:
    return t.gettext(
        "Hint {used} of {limit}: **{action}** — {why}.",
        used=used,
        limit=limit,
        action=action,
        why=why,
    )


@sentence
def no_hints_left(limit: int, t: Translator = EN) -> str:
    return t.ngettext(
        "You have used the {n} hint of this game — the rest is yours to find.",
        "You have used all {n} hints of this game — the rest is yours to find.",
        limit,
    )


@sentence
def hints_used(used: int, limit: int, t: Translator = EN) -> str:
    return t.gettext("Hints used: {used} of {limit}.", used=used, limit=limit)


REVIEWING = N_("Reviewing the game…")


@sentence
def review_heading(white: str, black: str, actions: int, t: Translator = EN) -> str:
    return t.ngettext(
        "**Review of {white} vs {black}** ({n} action): the curve shows who stood "
        "better after each action — above the line {white}, below it {black}.",
        "**Review of {white} vs {black}** ({n} actions): the curve shows who stood "
        "better after each action — above the line {white}, below it {black}.",
        actions,
        white=white,
        black=black,
    )


@sentence
def loss_words(loss: int, gave_away_win: bool, walked_into_loss: bool, t: Translator = EN) -> str:
    """What an action lost, in stones (100 centi-stones) or in the game's result."""
    if gave_away_win:
        return t.gettext("let a won game go")
    if walked_into_loss:
        return t.gettext("walked into a lost game")
    return t.gettext("lost {stones} stones", stones=f"{loss / 100:.1f}")


@sentence
def turning_point(
    number: int,
    action_number: int,
    name: str,
    played: str,
    lost: str,
    best: str,
    why: str,
    t: Translator = EN,
) -> str:
    return t.gettext(
        "{number}. Action {action}: {name} played **{played}** and {lost}; "
        "better **{best}** — {why}.",
        number=number,
        action=action_number,
        name=name,
        played=played,
        lost=lost,
        best=best,
        why=why,
    )


@sentence
def turning_point_caption(
    number: int, action_number: int, played: str, best: str, t: Translator = EN
) -> str:
    return t.gettext(
        "{number}. Action {action}: better {best} than {played}",
        number=number,
        action=action_number,
        best=best,
        played=played,
    )


@sentence
def series_stones(name: str, stones: int, t: Translator = EN) -> str:
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


@sentence
def theme_chosen(theme: str, t: Translator = EN) -> str:
    # Translators: The answer to /shax theme; {theme} is the theme's name ("dark", "light").
    return t.gettext("Your boards are now drawn in the {theme} theme.", theme=theme_name(theme, t))


@sentence
def theme_current(theme: str, themes: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Your boards are drawn in the {theme} theme; choose with /shax theme: {themes}.",
        theme=theme_name(theme, t),
        themes=option_list(themes, theme_name, t),
    )


@sentence
def unknown_theme(theme: str, themes: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Unknown theme {theme} — choose one of: {themes}.",
        theme=repr(theme),
        themes=option_list(themes, theme_name, t),
    )
