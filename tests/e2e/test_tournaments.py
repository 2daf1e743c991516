"""Tournaments through the fake Discord, with the real client: a Swiss of three played to
the end (a bye each round) and an arena of a few minutes on the test's clock, in English
and on a server that speaks Somali. Each pairing plays in a public thread of the
tournament's channel named after it, its players pinged; the standings come as a picture
after each round, the podium at the end, and the games are rated as any other."""

from __future__ import annotations

import io
import itertools
from typing import cast

import pytest
from PIL import Image

from bot.commands.table import BUTTONS
from bot.discord.cogs.notices import Notices
from bot.discord.render import voice
from bot.service.ratings import family_of
from bot.service.replies import Said
from bot.tournaments import notices
from bot.tournaments.notices import PairingToOpen
from bot.words.threads import CHANNEL_GONE, THREADS_BLOCKED
from shax_i18n import translator
from tests.bot.discord.helpers import (
    Scene,
    act_select,
    live_boards,
    mentioned_ids,
    option_values,
    shown,
)
from tests.e2e.conftest import Live, assert_refused, game_version, running
from tests.e2e.processes import (
    ANSWER_SECONDS,
    BotProcess,
    assert_stopped_cleanly,
    process_scene,
    stop_running,
)
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.models import PERMISSION

__all__ = ["process_scene"]  # a fixture

STANDINGS_PICTURE = "standings.png"
PERMISSION_NAME = "Create Public Threads"
JOIN = {"en": "Join", "so": "Ku biir"}
"""The Join button under the opening, in each language."""
ROUND = {"en": "Round 1 · ", "so": "Wareegga 1 · "}
"""How a first round's thread name begins, in each language."""
MANAGE_GUILD = 1 << 5


def tick_of(live: Live) -> Notices:
    # The extension's own module (load_extension imports a fresh copy, hence the cast).
    return cast("Notices", live.bot.get_cog("Notices"))


async def tournaments_tick(live: Live) -> None:
    await tick_of(live).tournaments_tick()
    assert await live.bot.responder.wait_idle(10)


def threads(live: Live) -> list[FakeChannel]:
    """The threads of the tournament's channel, oldest first."""
    return [t for t in live.fake.world.threads() if t.parent_id == live.scene.channel.id]


def in_channel(live: Live) -> list[FakeMessage]:
    return live.fake.messages(live.scene.channel)


def pictures(live: Live) -> list[FakeMessage]:
    return [
        m for m in in_channel(live) if any(a.filename == STANDINGS_PICTURE for a in m.attachments)
    ]


def players_of(live: Live, thread: FakeChannel) -> list[FakeUser]:
    """The two players a thread's first board pings, in the order it names them (white
    first)."""
    first = live.fake.messages(thread)[0]
    scene = live.scene
    pinged = [u for u in (scene.amina, scene.bashir, scene.cawo) if u.id in first.pinged]
    assert len(pinged) == 2 and set(first.pinged) == mentioned_ids(first), first.content
    return sorted(pinged, key=lambda u: first.content.index(u.mention))


async def command(live: Live, user: FakeUser, name: str, **options: str) -> FakeMessage:
    result = await live.fake.slash(user, live.scene.channel, "shax", f"tournament {name}", options)
    return await shown(live.bot, result)


async def gather_three(live: Live, **options: str) -> FakeMessage:
    """Amina makes a tournament here; Bashir joins with the opening's button, Cawo with
    the command. Returns the opening announcement."""
    scene, fake = live.scene, live.fake
    opening = await command(live, scene.amina, "create", **options)
    assert not opening.ephemeral
    [join] = [b for b in opening.buttons() if b["custom_id"].startswith("shax:")]
    assert any(join["custom_id"].startswith(f"shax:{b.kind}:") for b in BUTTONS)
    await shown(live.bot, await fake.click(scene.bashir, opening, join["custom_id"]))
    await command(live, scene.cawo, "join")
    return opening


async def play_round(live: Live, thread: FakeChannel) -> None:
    """The pairing's game in its thread: each side places a stone (so it is rated), then
    black resigns (white wins)."""
    fake = live.fake
    _, black = players_of(live, thread)
    assert len(fake.messages(thread)) == 1, "one board, posted once"
    for _ in range(2):
        board = live_boards(fake, thread)[-1]
        game_id, _version = game_version(board)
        on_turn = await live.service.on_turn(game_id)
        assert on_turn is not None
        action = option_values(act_select(board))[0]
        moved = await fake.slash(on_turn.id, thread, "shax", "move", {"action": action})
        await shown(live.bot, moved)
    await shown(live.bot, await fake.slash(black, thread, "shax", "resign"))
    await tournaments_tick(live)


ENGLISH_ONLY = ("Standings after", "The tournament is over", "joined the tournament")
"""Words of the English announcements that a Somali server must not show."""


def assert_podium(live: Live, language: str) -> None:
    """The last message in the channel is the podium, naming the three players, and every
    announcement speaks the server's language."""
    scene = live.scene
    podium = in_channel(live)[-1]
    names = (scene.amina, scene.bashir, scene.cawo)
    assert all(u.display_name in podium.content for u in names), podium.content
    assert "🥇" in podium.content
    for message in pictures(live):
        with Image.open(io.BytesIO(message.attachment(STANDINGS_PICTURE).data)) as picture:
            assert picture.format == "PNG" and picture.width > 100
        assert message.embeds[0]["image"]["url"].endswith(STANDINGS_PICTURE)
    if language == "so":
        said = "\n".join(m.content for m in in_channel(live))
        assert not [words for words in ENGLISH_ONLY if words in said], said


def said_in(language: str, said: Said) -> str:
    return voice(translator(language)).say(said)


async def ratings(live: Live, *users: FakeUser) -> dict[int, float]:
    family = family_of("shax")
    assert family is not None
    found = await live.service.storage.ratings.of(live.fake.guild_id, family, [u.id for u in users])
    return {user_id: rating.rating for user_id, rating in found.items()}


@pytest.mark.parametrize("language", ["en", "so"])
async def test_a_swiss_of_three_is_paired_played_in_threads_and_ends_with_a_podium(
    scene: Scene, language: str
) -> None:
    async with running(scene, language=language) as live:
        await gather_three(live, format="swiss", rounds="3", turn="5m")
        started = await command(live, scene.amina, "start")
        assert not started.ephemeral
        for round_ in (1, 2, 3):
            await tournaments_tick(live)
            assert len(threads(live)) == round_, f"round {round_} has its thread"
            thread = threads(live)[-1]
            white, black = players_of(live, thread)
            assert thread.name == said_in(
                language, notices.PAIRING_NAME(round_, white.display_name, black.display_name)
            )
            assert thread.name.startswith(ROUND[language].replace("1", str(round_)))
            assert len(pictures(live)) == round_ - 1
            await play_round(live, thread)
            assert len(pictures(live)) == round_, "the standings after each round"
        assert_podium(live, language)
        assert len(threads(live)) == 3, "no round paired twice"
        asked = await command(live, scene.cawo, "standings")
        assert asked.attachment(STANDINGS_PICTURE).data.startswith(b"\x89PNG")
        rated = await ratings(live, scene.amina, scene.bashir, scene.cawo)
        assert len(rated) == 3 and all(r != 1500.0 for r in rated.values())


@pytest.mark.parametrize("language", ["en", "so"])
async def test_an_arena_of_five_minutes_pairs_again_at_once_and_ends_on_the_clock(
    scene: Scene, language: str
) -> None:
    async with running(scene, language=language) as live:
        opening = await gather_three(live, format="arena", minutes="5", turn="1m")
        assert [b["label"] for b in opening.buttons()] == [JOIN[language]]
        await command(live, scene.amina, "start")
        await tournaments_tick(live)
        [first] = threads(live)
        white, black = players_of(live, first)
        assert first.name == said_in(
            language, notices.PAIRING_NAME(None, white.display_name, black.display_name)
        )
        await play_round(live, first)
        assert len(threads(live)) == 2, "a player who finished is paired again at once"
        second = threads(live)[-1]
        assert {u.id for u in players_of(live, second)} != {white.id, black.id}, "a new opponent"
        await play_round(live, second)
        assert len(threads(live)) == 3
        live.clock.advance(minutes=6)
        await tournaments_tick(live)  # time is up: no new game, the one under way goes on
        assert len(threads(live)) == 3 and not pictures(live)
        await play_round(live, threads(live)[-1])
        assert len(threads(live)) == 3, "no game after the end"
        assert_podium(live, language)
        assert len(pictures(live)) == 1, "the final standings"


async def test_only_the_creator_or_manage_server_starts_or_cancels_it_and_a_refusal_changes_nothing(
    live: Live,
) -> None:
    scene, fake = live.scene, live.fake
    await gather_three(live)
    bashir = scene.bashir
    for verb in ("start", "cancel"):
        refused = await fake.slash(bashir, scene.channel, "shax", f"tournament {verb}")
        assert_refused(refused, scene.amina.display_name)
    await tournaments_tick(live)
    assert not threads(live), "a refused start paired nobody"
    fake.world.members[bashir.id].permissions |= MANAGE_GUILD
    await command(live, bashir, "start")
    await tournaments_tick(live)
    assert len(threads(live)) == 1


@pytest.mark.parametrize("language", ["en", "so"])
async def test_a_thread_it_may_not_open_is_said_once_and_the_pairing_waits_for_it(
    scene: Scene, language: str
) -> None:
    async with running(scene, language=language) as live:
        fake = live.fake
        await gather_three(live)
        dahir = fake.add_user("dahir", global_name="Dahir")
        await command(live, dahir, "join")
        channel = fake.channel(scene.channel.id)
        channel.bot_permissions &= ~PERMISSION["CREATE_PUBLIC_THREADS"]
        await command(live, scene.amina, "start")  # two games in round 1
        await tournaments_tick(live)
        await tournaments_tick(live)
        assert not threads(live)
        told = [m.content for m in in_channel(live) if PERMISSION_NAME in m.content]
        assert len(told) == 1, told  # once for the tournament, not once a game
        names = [u.display_name for u in (scene.amina, scene.bashir, scene.cawo, dahir)]
        said = {
            said_in(language, THREADS_BLOCKED(notices.PAIRING_NAME(1, a, b), [PERMISSION_NAME]))
            for a, b in itertools.permutations(names, 2)
        }
        assert told[0] in said, told[0]
        channel.bot_permissions |= PERMISSION["CREATE_PUBLIC_THREADS"]
        await tournaments_tick(live)
        assert len(threads(live)) == 2, "the pairings kept their games"


async def test_a_deleted_channel_is_said_to_the_creator_once(live: Live) -> None:
    scene, fake = live.scene, live.fake
    await gather_three(live)
    channel = fake.channel(scene.channel.id)
    channel.bot_permissions &= ~PERMISSION["CREATE_PUBLIC_THREADS"]  # no thread before it goes
    await command(live, scene.amina, "start")
    await tournaments_tick(live)
    fake.world.delete_channel(channel)
    await fake.wait_for(lambda: live.bot.get_channel(channel.id) is None, what="the channel gone")
    await tournaments_tick(live)
    await tournaments_tick(live)
    [told] = fake.messages(fake.dm_channel(scene.amina))
    names = [u.display_name for u in (scene.amina, scene.bashir, scene.cawo)]
    said = {
        said_in("en", CHANNEL_GONE(notices.PAIRING_NAME(1, a, b)))
        for a, b in itertools.permutations(names, 2)
    }
    assert told.content in said, told.content


async def test_a_pairing_offered_again_keeps_its_one_game_and_hides_the_spare_thread(
    live: Live,
) -> None:
    scene, threads_of_bot = live.scene, live.bot.threads
    offered: list[PairingToOpen] = []
    opening = threads_of_bot.open_pairing

    async def seen(pairing: PairingToOpen) -> None:
        offered.append(pairing)
        await opening(pairing)

    threads_of_bot.open_pairing = seen  # type: ignore[method-assign]
    await gather_three(live)
    await command(live, scene.amina, "start")
    await tournaments_tick(live)
    [pairing] = offered
    await opening(pairing)  # another process, or a tick that overlapped, offers it again
    first, spare = threads(live)
    assert len(live.fake.messages(first)) == 1 and not live.fake.messages(spare)
    assert spare.archived and not first.archived
    games = await live.service.storage.games.active_games()
    assert [g.channel_id for g in games] == [first.id], "one game, in the first thread"


async def test_after_a_restart_the_round_goes_on_in_its_thread_and_is_not_paired_again(
    scene: Scene,
) -> None:
    async with running(scene) as live:
        await gather_three(live, rounds="2")
        await command(live, scene.amina, "start")
        await tournaments_tick(live)
        [thread] = threads(live)
    async with running(scene) as live:  # a new bot and service on the same database
        await tournaments_tick(live)
        assert [t.id for t in threads(live)] == [thread.id], "round 1 opened once"
        await play_round(live, thread)
        assert len(threads(live)) == 2 and len(pictures(live)) == 1
        await play_round(live, threads(live)[-1])
        assert_podium(live, "en")


async def test_a_timed_start_is_reminded_then_begins_by_itself_on_the_clock(live: Live) -> None:
    await gather_three(live, start="10m")
    before = len(in_channel(live))
    live.clock.advance(minutes=6)
    await tournaments_tick(live)
    await tournaments_tick(live)
    [reminder] = in_channel(live)[before:]
    assert "begins in 4 minutes, with 3 players" in reminder.content, reminder.content
    assert not threads(live), "reminded once, not begun"
    live.clock.advance(minutes=5)
    await tournaments_tick(live)
    assert len(threads(live)) == 1, "round 1 began by itself"


async def test_python_m_bot_opens_a_swiss_round_in_a_thread_as_soon_as_it_starts(
    process_scene: Scene,
) -> None:
    """The real entry point: the tournaments' tick runs in the bot process as soon as a
    start gives it work (not at the clock's next run, 30 s away)."""
    scene, fake = process_scene, process_scene.fake
    bot = await BotProcess(scene, "bot").start()
    try:
        await fake.wait_for(lambda: fake.commands(fake.guild_id), what="the commands synced")
        for user, verb in ((scene.amina, "create"), (scene.bashir, "join"), (scene.cawo, "join")):
            result = await fake.slash(user, scene.channel, "shax", f"tournament {verb}")
            await result.wait_for_response(timeout=ANSWER_SECONDS)
        await fake.slash(scene.amina, scene.channel, "shax", "tournament start")
        thread = await fake.wait_for(
            lambda: next((t for t in fake.world.threads() if fake.messages(t)), None),
            timeout=ANSWER_SECONDS,
            what="round 1's thread with its board",
        )
        assert len(fake.messages(thread)[0].pinged) == 2
    finally:
        await stop_running(bot)
    assert_stopped_cleanly(bot)
    fake.assert_clean()


async def test_a_late_player_joins_an_arena_with_the_opening_s_button_and_plays_at_once(
    live: Live,
) -> None:
    scene, fake = live.scene, live.fake
    opening = await gather_three(live, format="arena", minutes="30")
    await command(live, scene.amina, "start")
    await tournaments_tick(live)
    assert len(threads(live)) == 1  # one of the three waits
    dahir = fake.add_user("dahir", global_name="Dahir")
    [join] = opening.buttons()
    await shown(live.bot, await fake.click(dahir, opening, join["custom_id"]))
    await tournaments_tick(live)
    assert len(threads(live)) == 2, "the late player is paired with the one who waited"
    assert dahir.id in fake.messages(threads(live)[-1])[0].pinged


async def test_a_player_who_leaves_a_swiss_mid_game_loses_it_in_its_thread(live: Live) -> None:
    scene, fake = live.scene, live.fake
    await gather_three(live)
    await command(live, scene.amina, "start")
    await tournaments_tick(live)
    [thread] = threads(live)
    white, black = players_of(live, thread)
    left = await command(live, black, "leave")
    assert not left.ephemeral and black.mention in left.content
    await tournaments_tick(live)
    board = fake.messages(thread)[-1]
    assert not board.selects(), "the game is over"
    assert fake.channel(thread.id).archived, "its thread is closed"
    result = [m.content for m in in_channel(live) if thread.mention in m.content]
    assert len(result) == 1 and white.display_name in result[0], result


async def test_a_player_who_never_moves_loses_the_tournament_game_on_the_clock(
    live: Live,
) -> None:
    scene, fake = live.scene, live.fake
    await gather_three(live, rounds="1", turn="1m")
    await command(live, scene.amina, "start")
    await tournaments_tick(live)
    [thread] = threads(live)
    white, black = players_of(live, thread)  # white is on turn first and never moves
    for _ in range(4):  # the warning, then the forfeit
        live.clock.advance(minutes=1)
        await tick_of(live).tick()
    await tournaments_tick(live)
    assert not fake.messages(thread)[-1].selects(), "the game is over"
    [result] = [m.content for m in in_channel(live) if thread.mention in m.content]
    assert result.startswith(f"**{black.display_name} wins"), result  # a loss, not an abort
    standings = pictures(live)[-1].content
    assert f"{black.display_name} — 1 point" in standings, standings
    assert f"{white.display_name} — 0 points" in standings, standings
    assert_podium(live, "en")
