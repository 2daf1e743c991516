"""Puzzles and the puzzle of the day (the plain messages are in :mod:`bot.service.messages`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.daily import DAILY_DONE
from bot.service.puzzle_replies import (
    DAILY_POST,
    DAILY_YESTERDAY,
    PUZZLE_FIND_THE_WIN,
    PUZZLE_GIVEN_UP,
    PUZZLE_HEADING,
    PUZZLE_HOW_TO_ANSWER,
    PUZZLE_RATING_CHANGE,
    PUZZLE_RIGHT_STEP,
    PUZZLE_SOLVED,
    PUZZLE_STANDING,
    PUZZLE_STREAK,
    PUZZLE_TASK,
    PUZZLE_WRONG,
)
from bot.service.puzzle_standings import PUZZLE_RECORD, PUZZLE_TABLE
from bot.service.puzzle_themes import NO_THEME_LEFT, PUZZLE_THEMES, THEME_FAR, UNKNOWN_THEME
from bot.service.puzzles import NO_PUZZLE_LEFT, NOT_AN_ACTION
from bot.service.replies import User
from bot.words.ratings import ranked_table, signed
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import color_name, variant_title
from bot.words.voice import Surface, Voice
from engine import Color, Variant
from engine.tables.puzzles import PuzzleTheme
from shax_i18n import N_, Translator

THEME_NAMES: dict[PuzzleTheme, str] = {
    PuzzleTheme.JARE_WINS_STONE: N_("Jare that takes a stone"),
    PuzzleTheme.QUIET_MOVE: N_("Quiet move (no jare)"),
    PuzzleTheme.DOUBLE_THREAT: N_("Double threat"),
    PuzzleTheme.IRMAAN: N_("Irmaan (running jare)"),
    PuzzleTheme.XADHIG: N_("Xadhig (blockade)"),
    PuzzleTheme.OODAN: N_("Oodan (closed jare)"),
    PuzzleTheme.SACRIFICE: N_("Sacrifice"),
    PuzzleTheme.LABA_QAAD: N_("Laba-qaad (two jare at once)"),
    PuzzleTheme.FIRST_JARE: N_("The first jare"),
    PuzzleTheme.PLACEMENT_RACE: N_("Placement race"),
    PuzzleTheme.OPENING_REMOVAL: N_("Opening removal"),
    PuzzleTheme.THREE_IN_A_ROW: N_("Three in a row"),
}
"""Each puzzle theme's name in the game's own words (a choice of ``/shax puzzle theme:``)."""


def theme_name(theme: PuzzleTheme, t: Translator) -> str:
    return t.gettext(THEME_NAMES[theme])


def themes_typed(themes: Sequence[PuzzleTheme], t: Translator) -> str:
    """Themes by name, each with the id to type: ``Irmaan (running jare) (`irmaan`)``."""
    return ", ".join(f"{theme_name(theme, t)} (`{theme.value}`)" for theme in themes)


@speaks(NO_THEME_LEFT)
def no_theme_left(
    t: Translator, theme: PuzzleTheme, variant: Variant, left: Sequence[PuzzleTheme]
) -> str:
    """No puzzle of ``theme`` is left for the player on ``variant``; the themes that are."""
    values = {"theme": theme_name(theme, t), "board": variant_title(t, variant)}
    if not left:
        return t.gettext(
            "No {theme} puzzle of {board} is left for you, nor one of any other theme: "
            "`/shax puzzle` without a theme gives you one.",
            **values,
        )
    return t.gettext(
        "No {theme} puzzle of {board} is left for you. Themes with puzzles left there: {themes}.",
        themes=themes_typed(left, t),
        **values,
    )


@speaks(UNKNOWN_THEME)
def unknown_puzzle_theme(t: Translator, text: str) -> str:
    return t.gettext(
        "Unknown puzzle theme {theme} — choose one of: {themes}.",
        theme=repr(text),
        themes=themes_typed(list(PuzzleTheme), t),
    )


@speaks(PUZZLE_THEMES)
def puzzle_themes(t: Translator, themes: Sequence[PuzzleTheme]) -> str:
    """What a puzzle was about, once its try is over."""
    return t.ngettext(
        "Theme: {themes}.",
        "Themes: {themes}.",
        len(themes),
        themes=", ".join(theme_name(theme, t) for theme in themes),
    )


@speaks(THEME_FAR)
def puzzle_theme_far(t: Translator, theme: PuzzleTheme) -> str:
    return t.gettext(
        "No {theme} puzzle is left near your puzzle rating: this is the nearest one.",
        theme=theme_name(theme, t),
    )


@speaks(PUZZLE_RECORD)
def puzzle_record(
    t: Translator, rating: str, solved: int, tried: int, streak: int, best: int
) -> str:
    """A player's puzzles under ``/shax rating`` (a puzzle rating counts on every server)."""
    return t.ngettext(
        "Puzzles (every server): rating {rating} · {solved} solved of {n} rated try · "
        "streak {streak}, best {best}",
        "Puzzles (every server): rating {rating} · {solved} solved of {n} rated tries · "
        "streak {streak}, best {best}",
        tried,
        rating=rating,
        solved=solved,
        streak=streak,
        best=best,
    )


@speaks(PUZZLE_TABLE)
def puzzle_table(t: Translator, rows: Sequence[tuple[str, str, int]]) -> str:
    """A server's puzzle leaderboard: name, puzzle rating as shown, puzzles solved."""
    heading = t.gettext("**Puzzles** — the puzzle ratings of those who tried puzzles here")
    nobody = t.gettext("Nobody here has a puzzle rating yet: `/shax puzzle` gives you one.")
    return ranked_table(
        heading, nobody, rows, lambda n: t.ngettext("{n} solved", "{n} solved", n), t
    )


@speaks(NO_PUZZLE_LEFT)
def no_puzzle_left(t: Translator, variant: Variant, other: Variant | None) -> str:
    """No puzzle of ``variant`` is left to try, and what to do next: the command for
    ``other``, a board with one left, else the puzzle of the day."""
    board = variant_title(t, variant)
    if other is None:
        return t.gettext(
            "You have tried every puzzle there is, {board} and the other boards: "
            "the puzzle of the day brings one each day.",
            board=board,
        )
    return t.gettext(
        "You have tried every puzzle of {board}: try one of {other} with "
        "`/shax puzzle variant:{id}`, or the puzzle of the day.",
        board=board,
        other=variant_title(t, other),
        id=other.id,
    )


@speaks(NOT_AN_ACTION)
def puzzle_not_an_action(t: Translator, text: str, legal: Sequence[str]) -> str:
    return t.gettext(
        "`{text}` is not an action you can take in this puzzle. You can take: {legal}.",
        text=text,
        legal=", ".join(legal),
    )


@speaks(PUZZLE_TASK)
def puzzle_task(t: Translator, color: Color, moves: int | None) -> str:
    """What the puzzle asks (also the picture's caption): ``"White to play and win in 2"``;
    with no ``moves`` (a puzzle of the placement or an opening removal), the one action
    that keeps the win."""
    if moves is None:
        if color is Color.WHITE:
            return t.gettext("White to play: only one move keeps the win")
        return t.gettext("Black to play: only one move keeps the win")
    if color is Color.WHITE:
        return t.ngettext(
            "White to play and win in {n} move", "White to play and win in {n} moves", moves
        )
    return t.ngettext(
        "Black to play and win in {n} move", "Black to play and win in {n} moves", moves
    )


@speaks_with_voice(PUZZLE_HOW_TO_ANSWER)
def puzzle_how_to_answer(voice: Voice, in_game_here: bool) -> str:
    """How to answer, and, where ``/shax move`` means the player's game, that it does."""
    t = voice.t
    if in_game_here:
        return t.gettext(
            "You are playing a game in this channel, so `/shax move` plays there: answer the "
            "puzzle with `/shax puzzle answer:`."
        )
    if voice.surface is Surface.DISCORD:
        return t.gettext("Answer with the menu or `/shax move` (only you see this puzzle).")
    return t.gettext("Answer with `/shax move`, or `/shax puzzle give-up:true` for the solution.")


@speaks(PUZZLE_HEADING)
def puzzle_heading(
    t: Translator, number: int, variant: Variant, rating: float, resumed: bool
) -> str:
    if resumed:
        return t.gettext(
            "**Puzzle {number}** · {board} · rated {rating} · still open",
            number=number,
            board=variant_title(t, variant),
            rating=round(rating),
        )
    return t.gettext(
        "**Puzzle {number}** · {board} · rated {rating}",
        number=number,
        board=variant_title(t, variant),
        rating=round(rating),
    )


@speaks(PUZZLE_FIND_THE_WIN)
def puzzle_find_the_win(t: Translator, color: Color, moves: int | None) -> str:
    """The task at the start; with no ``moves``, the one action that keeps the win."""
    if moves is None:
        return t.gettext(
            "You play {color}: find the only move that keeps the win.",
            color=color_name(color, t),
        )
    return t.ngettext(
        "You play {color}: find the only move that wins, in {n} move.",
        "You play {color}: find the only move that wins, in {n} moves.",
        moves,
        color=color_name(color, t),
    )


@speaks(PUZZLE_RIGHT_STEP)
def puzzle_right_step(t: Translator, action: str, defence: Sequence[str], moves_left: int) -> str:
    """A right action: the removal is next, or the defence answered and ``moves_left``
    remain."""
    if not defence:
        return t.gettext("**{action}** is right: now the removal it earns.", action=action)
    return t.ngettext(
        "**{action}** is right. The defence answers **{reply}**: now win in {n} move.",
        "**{action}** is right. The defence answers **{reply}**: now win in {n} moves.",
        moves_left,
        action=action,
        reply=" ".join(defence),
    )


@speaks(PUZZLE_SOLVED)
def puzzle_solved(t: Translator, action: str) -> str:
    return t.gettext("**{action}** wins. Solved!", action=action)


def line(steps: Sequence[tuple[str, bool]], t: Translator) -> str:
    """A line of play: the solver's actions in bold, the defence's plain."""
    return " ".join(f"**{a}**" if mine else a for a, mine in steps)


@speaks(PUZZLE_WRONG)
def puzzle_wrong(t: Translator, action: str, steps: Sequence[tuple[str, bool]], first: bool) -> str:
    """A wrong action, not played, and the line that wins from there. On the first step
    every other action draws or loses; later, another may still win, but not as soon."""
    if first:
        return t.gettext(
            "**{action}** lets the win go: with the best defence it draws or loses, by the "
            "endgame tables. The win was {line}.",
            action=action,
            line=line(steps, t),
        )
    return t.gettext(
        "**{action}** misses the quickest win: with the best defence it wins later or not "
        "at all, by the endgame tables. The win was {line}.",
        action=action,
        line=line(steps, t),
    )


@speaks(PUZZLE_GIVEN_UP)
def puzzle_given_up(t: Translator, steps: Sequence[tuple[str, bool]]) -> str:
    return t.gettext("The win was {line}.", line=line(steps, t))


@speaks(PUZZLE_RATING_CHANGE)
def puzzle_rating_change(t: Translator, before: str, after: str, change: int) -> str:
    """The puzzle rating a try moved, each side as shown (``1500?`` while provisional),
    and the change as under a game's result: ``Puzzle rating: 1500? → 1347? (−153).``"""
    return t.gettext(
        "Puzzle rating: {before} → {after} ({change}).",
        before=before,
        after=after,
        change=signed(change),
    )


@speaks(PUZZLE_STREAK)
def puzzle_streak(t: Translator, streak: int, ended: int, best: int) -> str:
    """The puzzle streak after a try: ``streak`` solved in a row now, or, after a failure,
    the run of ``ended`` it ends (nothing to say when there was none)."""
    if streak > 0:
        return t.ngettext(
            "Puzzle streak: {n} solved in a row.", "Puzzle streak: {n} solved in a row.", streak
        )
    if ended == 0:
        return ""
    return t.ngettext(
        "Your run of {n} solved puzzle ends (best: {best}).",
        "Your run of {n} solved puzzles ends (best: {best}).",
        ended,
        best=best,
    )


@speaks(PUZZLE_STANDING)
def puzzle_standing(t: Translator, rating: str, streak: int) -> str:
    return t.ngettext(
        "Your puzzle rating: {rating} · streak {n}.",
        "Your puzzle rating: {rating} · streak {n}.",
        streak,
        rating=rating,
    )


@speaks(DAILY_POST)
def daily_post(t: Translator, day: str, color: Color, moves: int | None) -> str:
    return t.gettext(
        "**Puzzle of the day**, {day}: {task}. Press *Solve it*: your answers are yours alone.",
        day=day,
        task=puzzle_task(t, color, moves),
    )


@speaks_with_voice(DAILY_YESTERDAY)
def daily_yesterday(voice: Voice, tried: int, solved_by: int, first: User | None) -> str:
    """Yesterday's puzzle of the day: how many solved it, and who first."""
    t = voice.t
    if first is None:
        return t.ngettext(
            "Yesterday's puzzle: nobody solved it ({n} tried).",
            "Yesterday's puzzle: nobody solved it ({n} tried).",
            tried,
        )
    return t.ngettext(
        "Yesterday's puzzle: solved by {n} of {tried}, first by {player}.",
        "Yesterday's puzzle: solved by {n} of {tried}, first by {player}.",
        solved_by,
        tried=tried,
        player=voice.player(first),
    )


@speaks(DAILY_DONE)
def daily_done(t: Translator, solved: bool) -> str:
    if solved:
        return t.gettext("You solved this puzzle of the day already. Well done!")
    return t.gettext("You tried this puzzle of the day already: tomorrow brings another.")
