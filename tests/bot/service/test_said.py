"""What to say, as data: a sentence and its values, spoken only when a voice is given."""

from __future__ import annotations

from bot.service import settings_texts, texts
from bot.service.replies import Channel, Reply, Said, User
from bot.service.texts import Surface
from engine import get_variant
from tests.services import voice, words

AMINA = User(101, "Amina")
BOT = User(999, "Shax bot", is_bot=True)
JAR = get_variant("jar")


def test_players_and_channels_are_written_by_the_surface() -> None:
    said = Said(texts.good_game, [AMINA, BOT])
    assert words(said) == "Good game, <@101> and Shax bot!"
    assert words(said, surface=Surface.CONSOLE) == "Good game, @Amina and Shax bot!"
    listed = Said(settings_texts.games_not_here, [Channel(7), Channel(8)])
    assert "played in <#7>, <#8> (and" in words(listed)
    assert "played in #7, #8 (and" in words(listed, surface=Surface.CONSOLE)


def test_nested_sentences_are_said_in_the_same_language() -> None:
    said = Said(texts.bot_game_intro, "Amina", "Shax bot", Said(texts.variant_title, JAR))
    assert words(said) == "Amina vs Shax bot, Jar (children's game)."
    assert words(said, "so") == "Amina iyo Shax bot, Jar (ciyaarta carruurta)."
    joined = Said.join([Said(texts.thinking, "Shax bot"), Said.message(texts.NO_DRAW_OFFER)])
    assert words(joined, "so") == (
        "Shax bot wuu fekerayaa… Ma jirto barbaro la soo jeediyay oo la diido."
    )


def test_the_surface_reaches_only_the_sentences_that_name_controls() -> None:
    stale = Said(texts.stale)
    assert "the latest board below" in words(stale)
    assert "/shax board" in words(stale, surface=Surface.CONSOLE)
    assert "meanwhile" in words(stale, surface=Surface.CONSOLE)
    assert Said(texts.events_sentence, ("a", "b")).words(voice()) == "a; b."  # takes no t


def test_a_reply_is_a_value_and_its_log_names_no_language() -> None:
    one = Reply(text=Said(texts.where_to, "a7", ["a7-d7"]))
    assert one == Reply(text=Said(texts.where_to, "a7", ["a7-d7"]))
    assert hash(one) == hash(Reply(text=Said(texts.where_to, "a7", ["a7-d7"])))
    assert str(one.text) == "Said(where_to, 'a7', ['a7-d7'])"
