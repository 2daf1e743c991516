"""The game's own words and the outcomes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.service.compose import PLAYER_NAME
from bot.service.kernel import VARIANT_TITLE
from bot.service.replies import BOT_PLAYER
from bot.words.registry import speaks
from bot.words.voice import Surface as Surface
from engine import (
    Color,
    Outcome,
    Termination,
    Variant,
)
from renderer.text import OUTCOME_REASONS
from shax_i18n import Translator, translator

EN = translator("en")
"""English: the language of a sentence asked for without a translator (tests, logs)."""

STONE = {Color.WHITE: "○", Color.BLACK: "●"}


# -- the game's own words ---------------------------------------------------------------


def color_name(color: Color, t: Translator) -> str:
    """``"white"`` / ``"black"``: a colour as a word in a sentence."""
    return t.pgettext("color", "white") if color is Color.WHITE else t.pgettext("color", "black")


@speaks(VARIANT_TITLE)
def variant_title(t: Translator, variant: Variant) -> str:
    """The variant's title (``"Shax (small board)"``) in the reply's language."""
    if variant.id == "shax":
        return t.pgettext("variant", "Shax")
    if variant.id == "shax-small":
        return t.pgettext("variant", "Shax (small board)")
    if variant.id == "jar":
        return t.pgettext("variant", "Jar (children's game)")
    return variant.title


def level_name(level: str, t: Translator) -> str:
    """A bot level as a word (``"hard"``); an unknown one as it is."""
    if level == "easy":
        return t.pgettext("level", "easy")
    if level == "medium":
        return t.pgettext("level", "medium")
    if level == "hard":
        return t.pgettext("level", "hard")
    if level == "master":
        return t.pgettext("level", "master")
    return level


@speaks(BOT_PLAYER)
def bot_player(t: Translator, bot: str, level: str) -> str:
    """The bot playing at ``level``, named as a player: to an English reader by its own
    name with the level (``Shax bot (easy)``, as a game stores it); in another language
    by that language's word for the bot, as the streak list names it (Somali
    ``Bot-ka (fudud)``): the bot's own name is English."""
    if t.language == EN.language:
        return f"{bot} ({level_name(level, t)})"
    return t.pgettext("player", "The bot ({level})", level=level_name(level, t))


@speaks(PLAYER_NAME)
def player_name(t: Translator, name: str) -> str:
    """A player's name as its reader reads it (the voice writes a bot's in their words)."""
    return name


def theme_name(theme: str, t: Translator) -> str:
    """A board theme as a word (``"dark"``); an unknown one as it is."""
    if theme == "dark":
        return t.pgettext("theme", "dark")
    if theme == "light":
        return t.pgettext("theme", "light")
    return theme


def option_list(
    values: Sequence[str], name: Callable[[str, Translator], str], t: Translator
) -> str:
    """Values a player types, each in the reader's words with the value to type beside it
    where they differ: ``"fudud (easy), adag (hard)"``; in English ``"easy, hard"``."""
    return ", ".join(n if (n := name(v, t)) == v else f"{n} ({v})" for v in values)


def duration(seconds: float, t: Translator) -> str:
    """``600`` → ``"10 minutes"``; ``86400`` → ``"24 hours"``; ``1209600`` → ``"14 days"``;
    ``45`` → ``"45 seconds"``."""
    s = round(seconds)
    if s >= 2 * 86_400 and s % 86_400 == 0:
        return t.ngettext("{n} day", "{n} days", s // 86_400)
    if (s >= 3_600 and s % 3_600 == 0) or s >= 7_200:
        return t.ngettext("{n} hour", "{n} hours", round(s / 3_600))
    if (s >= 60 and s % 60 == 0) or s >= 120:
        return t.ngettext("{n} minute", "{n} minutes", round(s / 60))
    return t.ngettext("{n} second", "{n} seconds", s)


LEGAL_LIMIT = 25


def legal_list(legal: list[str], t: Translator) -> str:
    """The legal actions, the first :data:`LEGAL_LIMIT` of them and how many in all."""
    shown = sorted(legal)
    text = ", ".join(shown[:LEGAL_LIMIT])
    if len(shown) <= LEGAL_LIMIT:
        return text or "none"
    return t.gettext("{actions}, … ({n} in all)", actions=text, n=len(shown))


# -- outcomes ---------------------------------------------------------------------------


def outcome_headline(outcome: Outcome, t: Translator) -> str:
    """``"White wins"``, ``"Black wins"``, ``"Draw"`` or ``"Game aborted"``."""
    if outcome.termination is Termination.ABORTED:
        return t.gettext("Game aborted")
    if outcome.winner is Color.WHITE:
        return t.gettext("White wins")
    if outcome.winner is Color.BLACK:
        return t.gettext("Black wins")
    return t.gettext("Draw")


def outcome_reason(
    outcome: Outcome, t: Translator, white: str | None = None, black: str | None = None
) -> str:
    """Why the game ended, naming the loser (by colour when no names are given)."""
    white = color_name(Color.WHITE, t) if white is None else white
    black = color_name(Color.BLACK, t) if black is None else black
    loser = black if outcome.winner is Color.WHITE else white
    return t.gettext(OUTCOME_REASONS[outcome.termination], loser=loser)


def result_sentence(outcome: Outcome, white_name: str, black_name: str, t: Translator) -> str:
    """The ending with names: ``"Amina wins: Bashir has only two stones left"``."""
    reason = outcome_reason(outcome, t, white_name, black_name)
    if outcome.termination is Termination.ABORTED:
        return t.gettext("Game aborted: {reason}; it counts for nobody", reason=reason)
    if outcome.winner is None:
        return t.gettext("Draw: {reason}", reason=reason)
    winner = white_name if outcome.winner is Color.WHITE else black_name
    return t.gettext("{winner} wins: {reason}", winner=winner, reason=reason)
