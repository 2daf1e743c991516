"""What to say, as data: a sentence and its values, spoken only when a voice is given."""

from __future__ import annotations

from pathlib import Path

import mypy.api
import pytest

from bot.service import messages
from bot.service.bot_turns import BOT_GAME_INTRO
from bot.service.challenges import GAMES_NOT_HERE
from bot.service.compose import EVENTS, GOOD_GAME, THINKING
from bot.service.kernel import STALE, VARIANT_TITLE
from bot.service.puzzles import NO_PUZZLE_LEFT
from bot.service.replies import Channel, Reply, Said, User
from bot.service.turns import WHERE_TO
from bot.words.registry import speaks
from bot.words.terms import Surface
from engine import get_variant
from shax_i18n import translator
from tests.services import voice, words

AMINA = User(101, "Amina")
BOT = User(999, "Shax bot", is_bot=True)
JAR = get_variant("jar")


def test_players_and_channels_are_written_by_the_surface() -> None:
    said = GOOD_GAME([AMINA, BOT])
    assert words(said) == "Good game, <@101> and Shax bot!"
    assert words(said, surface=Surface.CONSOLE) == "Good game, @Amina and Shax bot!"
    listed = GAMES_NOT_HERE([Channel(7), Channel(8)])
    assert "played in <#7>, <#8> (and" in words(listed)
    assert "played in #7, #8 (and" in words(listed, surface=Surface.CONSOLE)


def test_nested_sentences_are_said_in_the_same_language() -> None:
    said = BOT_GAME_INTRO("Amina", "Shax bot", VARIANT_TITLE(JAR))
    assert words(said) == "Amina vs Shax bot, Jar (children's game)."
    assert words(said, "so") == "Amina iyo Shax bot, Jar (ciyaarta carruurta)."
    joined = Said.join([THINKING("Shax bot"), Said.message(messages.NO_DRAW_OFFER)])
    assert words(joined, "so") == (
        "Shax bot wuu fekerayaa… Ma jirto barbaro la soo jeediyay oo la diido."
    )


def test_the_surface_reaches_only_the_sentences_that_name_controls() -> None:
    stale = STALE()
    assert "the latest board below" in words(stale)
    assert "/shax board" in words(stale, surface=Surface.CONSOLE)
    assert "meanwhile" in words(stale, surface=Surface.CONSOLE)
    events = EVENTS((Said.message("a"), Said.message("b")))
    assert voice().say(events) == "a; b."  # each event said in the same voice


def test_a_reply_is_a_value_and_its_log_names_no_language() -> None:
    one = Reply(text=WHERE_TO("a7", ["a7-d7"]))
    assert one == Reply(text=WHERE_TO("a7", ["a7-d7"]))
    assert hash(one) == hash(Reply(text=WHERE_TO("a7", ["a7-d7"])))
    assert str(one.text) == "Said(where_to, 'a7', ['a7-d7'])"


def test_a_plain_message_is_said_by_its_catalogue_id() -> None:
    said = Said.message(messages.GAME_GONE)
    assert said == Said.message("That game doesn't exist any more.")
    assert words(said) == messages.GAME_GONE
    assert words(said, "so") == translator("so").gettext(messages.GAME_GONE) != words(said)
    assert str(said) == 'Said(message, "That game doesn\'t exist any more.")'


@pytest.mark.slow  # mypy reads the bot's whole import graph, from an empty cache
def test_mypy_refuses_a_sentence_with_wrong_values_or_no_reader(tmp_path: Path) -> None:
    """A sentence said through a :class:`~bot.service.replies.Saying` has its values
    checked by mypy: a board's name where the board is wanted was a crash in front of a
    player. Its words are held to the same values and take the reader first, required:
    words that forget the reader, or take other values, are refused where they are
    registered, and words called without a reader do not speak English silently."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "from bot.service.kernel import NOT_YOUR_TURN\n"
        "from bot.service.puzzles import NO_PUZZLE_LEFT\n"
        "from bot.words.games import not_your_turn\n"
        "from bot.words.registry import speaks\n"
        "from engine import get_variant\n"
        "from shax_i18n import Translator\n"
        "NO_PUZZLE_LEFT(get_variant('jar'), None)\n"
        "NO_PUZZLE_LEFT('jar', None)\n"
        "not_your_turn('Amina', False)\n"
        "def words(t: Translator, them: str) -> str:\n"
        "    return them\n"
        "speaks(NOT_YOUR_TURN)(words)\n",
        encoding="utf-8",
    )
    out, _, status = mypy.api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), str(wrong)]
    )
    errors = [
        line.split(": error: ")[0].rsplit(":", 1)[1]
        for line in out.splitlines()
        if ": error:" in line
    ]
    assert status == 1 and sorted(set(errors)) == ["12", "8", "9"], out
    assert ':8: error: Argument 1 to "__call__" of "Saying" has incompatible type "str"; ' in out


def test_words_registered_for_another_sentence_are_refused() -> None:
    def puzzle_lost() -> str:
        return "lost"

    with pytest.raises(ValueError, match="puzzle_lost does not speak no_puzzle_left"):
        speaks(NO_PUZZLE_LEFT)(puzzle_lost)  # type: ignore[arg-type]
