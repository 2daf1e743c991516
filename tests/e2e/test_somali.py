"""A whole game in Somali through the fake Discord: a server that speaks Somali, and a
player who chose Somali on a server that speaks English (``/shax language``)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest_asyncio

from bot.discord.custom_ids import accept_id
from tests.bot.discord.helpers import Scene, act_select, live_boards, option_values, shown
from tests.e2e.conftest import (
    Live,
    assert_board_png,
    assert_refused,
    challenge_of,
    game_state,
    running,
)
from tests.fakediscord import FakeMessage

# Amina (white) places a3 b2 c2, Bashir a2 a1 c3; Amina's a3-b3 makes three in a row.
JAR_GAME = ["a3", "a2", "b2", "a1", "c1", "c3", "c3-c2", "c1-b1", "c2-c3", "a3-b3"]
YOUR_TURN_SO = re.compile(r"<@(\d+)> — waa doorkaaga")


@pytest_asyncio.fixture
async def somali_server(scene: Scene) -> AsyncIterator[Live]:
    """A bot whose servers speak Somali (``SHAX_LANGUAGE=so``)."""
    async with running(scene, language="so") as live:
        yield live


def labels(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons()]


async def test_a_whole_jar_game_on_a_somali_server(somali_server: Live) -> None:
    live = somali_server
    scene, fake = live.scene, live.fake
    challenge = await fake.slash(
        scene.amina,
        scene.channel,
        "shax",
        "challenge",
        {"opponent": scene.bashir, "variant": "jar"},
    )
    posted = await shown(live.bot, challenge)
    assert "Amina wuxuu kuugu yeerayaa ciyaar Jar (ciyaarta carruurta) ah!" in posted.content
    assert "Aqbal ama diid muddo 10 daqiiqo gudaheed." in posted.content
    assert labels(posted) == ["Aqbal", "Diid"]
    accepted = await fake.click(scene.bashir, posted, accept_id(challenge_of(posted)))
    board = await shown(live.bot, accepted)
    assert "Bashir wuxuu aqbalay loolanka Amina." in board.content
    assert f"{scene.amina.mention} — waa doorkaaga (cad ○): dhig dhagax (3 ayaa kuu hadhay)." in (
        board.content
    )
    assert labels(board) == ["Isdhiib", "Soo jeedi barbaro"]
    assert act_select(board)["placeholder"] == "Dooro meel aad dhigto"
    assert_board_png(board, "jar")

    players = {scene.amina.id: scene.amina, scene.bashir.id: scene.bashir}
    for action in JAR_GAME:
        found = YOUR_TURN_SO.search(board.content)
        assert found, board.content
        player = players[int(found.group(1))]
        select = act_select(board)
        assert action in option_values(select)
        result = await fake.select(player, board, select["custom_id"], [action])
        after = await shown(live.bot, result)
        assert not after.ephemeral, after.content
        boards = live_boards(fake, scene.channel)
        board = boards[-1] if boards else after

    final = fake.messages(scene.channel)[-1]
    assert "Amina wuxuu dhaqaajiyay a3-b3." in final.content
    assert "**Waxaa guuleystay Amina: saddex isku xariiq ah.**" in final.content
    assert "Amina: 1 isku xiga — saddex kale ayaa gal ka dhiman." in final.content
    assert "Ciyaar wanaagsan," in final.content
    assert labels(final) == ["Ciyaar kale", "Eeg ciyaarta"]
    record, _, status = game_state(scene.db_path, 1)
    assert list(record) == JAR_GAME and status == "over"
    for english in ("your turn", "wins", "challenge", "Good game"):
        assert english not in final.content and english not in posted.content

    # Her own request speaks her language: her Discord app's (English) until she chooses.
    streak = await shown(live.bot, await fake.slash(scene.amina, scene.channel, "shax", "streak"))
    assert "Against people: 1 won, 0 lost, 0 drawn" in streak.content
    await fake.slash(scene.amina, scene.channel, "shax", "language", {"language": "so"})
    streak = await shown(live.bot, await fake.slash(scene.amina, scene.channel, "shax", "streak"))
    assert "Ciyaaraha dadka: 1 guul, 0 guuldarro, 0 barbaro" in streak.content


async def test_a_player_who_chose_somali_reads_somali_where_only_they_read(live: Live) -> None:
    scene, fake = live.scene, live.fake
    chosen = await fake.slash(scene.bashir, scene.channel, "shax", "language", {"language": "so"})
    assert "Luqadda: Soomaali. Mid kale ku dooro /shax language." in assert_refused(chosen)
    # Their refusals are Somali; the English server's public messages stay English.
    nothing = await fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "d7"})
    assert "Kanaalkan ciyaar kuma socoto." in assert_refused(nothing)
    posted = await shown(
        live.bot,
        await fake.slash(
            scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
        ),
    )
    assert "challenges you to a game of Shax" in posted.content
    assert [b["label"] for b in posted.buttons()] == ["Accept", "Decline"]
    mine = await fake.click(scene.bashir, posted, accept_id(challenge_of(posted)))
    board = await shown(live.bot, mine)
    wrong_turn = await fake.select(
        scene.bashir, board, act_select(board)["custom_id"], [option_values(act_select(board))[0]]
    )
    assert "Waa doorka Amina — sug dhaqaaqiisa." in assert_refused(wrong_turn)
    # Amina chose nothing: her English Discord app decides.
    early = await fake.slash(scene.amina, scene.channel, "shax", "draw")
    assert "offers a draw" in (await shown(live.bot, early)).content
    back = await fake.slash(scene.bashir, scene.channel, "shax", "language", {"language": "en"})
    assert "Language: English." in assert_refused(back)
