"""The named moments on the move line, in both languages; replies said in whichever
language their reader reads; ``/shax language`` remembered."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.readers import players_language, requester_language
from bot.service.facade import ShaxService
from bot.service.replies import BadOption, NotYourTurn, Place, UserError
from bot.service.server_settings import Setting, SettingsChange
from bot.words.actions import action_events
from engine import Position, replay
from shax_i18n import Translator, translator
from tests.bot.conftest import AMINA, BASHIR, BOT, GUILD, HERE, FakeClock, start_game
from tests.services import Drawn, files, open_service, words

EN, SO = translator("en"), translator("so")
T = TypeVar("T")
LABA_QAAD_RECORD = ["d7", "c5", "g7", "e5", "a4", "c3", "a1", "e3"]
"""White's next placement, a7, completes a7 d7 g7 and a1 a4 a7 at once."""
FAR_BLACK = "c3 e3 d1"


def events(before: Position, text: str, t: Translator = EN) -> list[str]:
    action = before.parse(text)
    return action_events(before, action, before.apply(action), "Amina", "Bashir", t)


def test_laba_qaad_is_named_on_the_move_line_in_both_languages() -> None:
    before = replay("shax", LABA_QAAD_RECORD)
    assert events(before, "a7") == [
        "Amina placed a stone on a7, forming the first jare",
        "Laba-qaad! Amina completed two jare at once",
    ]
    assert (
        events(before, "a7", SO)[1] == "Laba-qaad! Amina wuxuu mar keliya dhammaystiray laba jare"
    )


def test_an_irmaan_that_appears_is_named_and_its_shunts_are_not() -> None:
    before = Position.setup("shax", "a7 d7 g7 b6 f4", FAR_BLACK)
    assert events(before, "f4-f6") == [
        "Amina moved f4-f6",
        "Irmaan! Amina can shunt a stone and form a jare on every move",
    ]
    assert events(before, "f4-f6", SO)[1].startswith("Irmaan! Amina wuxuu leeyahay dhagax")
    standing = Position.setup("shax", "a7 d7 g7 b6 f6", FAR_BLACK)
    assert events(standing, "d7-d6") == ["Amina moved d7-d6, forming a jare"]


def test_a_move_that_frees_the_opponents_irmaan_names_it_for_the_opponent() -> None:
    # Amina (black) moves d5, the only stone that could step into d6, away to c5.
    before = Position.setup("shax", "a7 d7 g7 b6 f6", "d5 c3 e3 a1", to_move="black")
    assert events(before, "d5-c5") == [
        "Amina moved d5-c5",
        "Irmaan! Bashir can shunt a stone and form a jare on every move",
    ]


def test_the_first_line_placed_in_jar_is_named_on_the_move_line() -> None:
    # It wins nothing while placing, but it decides who moves first.
    before = replay("jar", ["a1", "b1", "a2", "b3"])
    assert events(before, "a3") == ["Amina placed a stone on a3, forming the first jare"]
    assert events(replay("jar", ["a1", "b1", "a2", "b3", "a3"]), "b2") == [
        "Amina placed a stone on b2"  # a later line is not the first
    ]


def test_a_near_miss_names_nothing() -> None:
    # A black stone on d5 can step into d6: no irmaan.
    before = Position.setup("shax", "a7 d7 g7 b6 f4", "d5 c3 e3")
    assert events(before, "f4-f6") == ["Amina moved f4-f6"]
    # One line only: the first jare, no laba-qaad.
    assert events(replay("shax", ["d7", "c5", "g7"]), "e5") == ["Amina placed a stone on e5"]


async def test_the_move_line_of_a_played_game_names_laba_qaad(service: ShaxService) -> None:
    await start_game(service)
    for i, action in enumerate(LABA_QAAD_RECORD):
        await service.play(AMINA if i % 2 == 0 else BASHIR, HERE, action)
    reply = await service.play(AMINA, HERE, "a7")
    assert "forming the first jare; Laba-qaad! Amina completed two jare at once." in words(
        reply.text
    )


async def test_a_reply_is_said_in_whichever_language_its_reader_reads(
    service: ShaxService,
) -> None:
    await start_game(service)
    board = await service.play(AMINA, HERE, "d7")
    with pytest.raises(NotYourTurn) as refused:
        await service.play(AMINA, HERE, "d6")
    assert "Amina wuxuu dhagax ku dhigay d7." in words(board.text, "so")
    assert "Amina placed a stone on d7." in words(board.text)
    assert words(refused.value.message) == "It's Bashir's turn — wait for their move."
    assert words(refused.value.message, "so") == "Waa doorka Bashir — sug dhaqaaqiisa."
    assert "Said(not_your_turn, 'Bashir', False)" in str(refused.value)  # a log's words


async def test_the_players_choice_beats_their_app_and_the_server(service: ShaxService) -> None:
    assert await requester_language(service, AMINA.id, None, "en-US") == "en"
    assert await requester_language(service, AMINA.id, None, "de") == "en"
    reply = await service.set_language(AMINA, "so")
    assert reply.ephemeral and words(reply.text, "so").startswith("Luqadda: Soomaali.")
    assert await requester_language(service, AMINA.id, None, "en-US") == "so"
    assert await requester_language(service, BASHIR.id, None, "en-GB") == "en"
    forgot = await service.set_language(AMINA, None)
    assert words(forgot.text).startswith("Language: English")
    assert await requester_language(service, AMINA.id, None) == "en"


async def test_an_unknown_language_is_refused_with_the_choices(service: ShaxService) -> None:
    with pytest.raises(BadOption) as refused:
        await service.set_language(AMINA, "fr")
    assert (
        words(refused.value.message)
        == "Unknown language 'fr' — choose one of: en (English), so (Soomaali)."
    )
    assert await service.chosen_language(AMINA.id) is None


async def test_the_server_default_is_the_environments_language(tmp_path: Path) -> None:
    async with open_service(tmp_path / "so.db", bot_user=BOT, language="so") as somali:
        assert await somali.server_language(None) == "so"
        assert await requester_language(somali, AMINA.id, None) == "so"
        assert await requester_language(somali, AMINA.id, None, "en-US") == "en"


async def test_a_server_set_to_somali_speaks_somali_in_its_games(
    service: ShaxService, clock: FakeClock
) -> None:
    await service.settings(HERE, SettingsChange(language="so"), may_change=True)
    assert await requester_language(service, AMINA.id, GUILD) == "so"
    assert await requester_language(service, AMINA.id, GUILD, "en-US") == "en"
    assert await requester_language(service, AMINA.id, GUILD + 1) == "en"
    await start_game(service)
    board = await service.play(AMINA, HERE, "d7")
    assert board.players == (AMINA.id, BASHIR.id)
    assert await players_language(service, board.players, GUILD) == "so"
    # What the bot says on its own there (the clock) is a game's message too.
    await service.challenges.challenge(AMINA, BASHIR, Place(GUILD, 501))
    clock.advance(minutes=10)
    [expired] = await service.tick()
    assert expired.guild_id == GUILD and expired.reply.players == (AMINA.id, BASHIR.id)
    language = await players_language(service, expired.reply.players, expired.guild_id)
    assert words(expired.reply.text, language) == (
        "Loolankii Amina u diray Bashir waqtigiisii wuu dhammaaday."
    )
    # Back to the bot's default (SHAX_LANGUAGE).
    await service.settings(HERE, SettingsChange(reset=Setting.LANGUAGE), may_change=True)
    assert await requester_language(service, AMINA.id, GUILD) == "en"


async def test_both_players_choosing_one_language_makes_it_their_games(
    service: ShaxService,
) -> None:
    players = (AMINA.id, BASHIR.id)
    await service.set_language(AMINA, "so")
    assert await players_language(service, players, GUILD) == "en"  # Bashir chose none
    await service.set_language(BASHIR, "en")
    assert await players_language(service, players, GUILD) == "en"  # they differ
    await service.set_language(BASHIR, "so")
    assert await players_language(service, players, GUILD) == "so"
    # Against the bot, the one person's choice is the game's.
    assert await players_language(service, (AMINA.id, service.bot_user.id), GUILD) == "so"


async def test_the_settings_answer_in_the_askers_language(service: ShaxService) -> None:
    reply = await service.settings(HERE, SettingsChange(turn_timeout="12h"), may_change=True)
    with pytest.raises(UserError) as refused:
        await service.settings(HERE, SettingsChange(theme="blue"), may_change=True)
    somali = words(reply.text, "so")
    assert reply.ephemeral and somali.startswith("**Dejinta waa la keydiyay.**")
    assert "• Waqtiga doorka: 12 saac" in somali
    assert words(refused.value.message, "so").startswith(
        "`blue` kama mid aha doorashooyinka midabada shaxda"
    )


async def test_a_board_carries_its_readers_choices_read_in_one_trip(
    service: ShaxService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.set_language(AMINA, "so")
    await start_game(service)
    storage = service.storage
    trips: list[str] = []
    reads = (
        (storage.games, "beside_board"),
        (storage.settings, "player_prefs"),
        (storage.standings, "series"),
        (storage.ratings, "of"),
    )
    for repository, name in reads:
        monkeypatch.setattr(repository, name, counted(getattr(repository, name), name, trips))
    board = await service.play(AMINA, HERE, "d7")
    assert trips == ["beside_board"]
    assert dict(board.chosen) == {AMINA.id: "so", BASHIR.id: None}
    # Whoever speaks the board (the players' language, the clicker's) asks nothing more.
    known = dict(board.chosen)
    assert await players_language(service, board.players, GUILD, known) == "en"
    assert await requester_language(service, AMINA.id, GUILD, "en-US", known) == "so"
    assert trips == ["beside_board"]
    # Without it they ask: Bashir's choice, made since, is heard.
    await service.set_language(BASHIR, "so")
    assert await players_language(service, board.players, GUILD) == "so"
    assert trips[1:] == ["player_prefs"] * 2  # one read for each player


def counted(
    call: Callable[..., Awaitable[T]], name: str, trips: list[str]
) -> Callable[..., Awaitable[T]]:
    async def counting(*args: Any, **kwargs: Any) -> T:
        trips.append(name)
        return await call(*args, **kwargs)

    return counting


async def test_the_bot_is_named_in_somali_in_somali_text_and_pictures_as_in_the_streak_list(
    make_service: Callable[..., Awaitable[ShaxService]],
) -> None:
    """A Somali reader reads "Bot-ka (fudud)" in a game's words, on its pictures and in the
    streak list alike; an English one reads the bot's own name with its level."""
    drawn = Drawn()
    service = await make_service(render_board=drawn)
    reply = await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    assert "Shax bot (easy)" in words(reply.text)
    somali = words(reply.text, "so")
    assert "Bot-ka (fudud)" in somali and "Shax bot" not in somali, somali
    ended = await service.turns.resign(AMINA, HERE)
    said = words(ended.text, "so")
    assert "Bot-ka (fudud)" in said and "Shax bot" not in said, said
    for language, name in (("en", "Shax bot (easy)"), ("so", "Bot-ka (fudud)")):
        await files(ended, language)
        assert drawn.views[-1].black_name == name and drawn.views[-1].language == language
    streaks = words((await service.statistics.streak(HERE, AMINA)).text, "so")
    assert "Bot-ka (fudud)" in streaks, streaks
