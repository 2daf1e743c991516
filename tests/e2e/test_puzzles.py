"""Puzzles through the fake Discord: ``/shax puzzle`` shows the player alone a picture, the
task and a menu of the legal actions; each pick replaces the message with the defence's
answer, to the win; ``/shax move`` (its autocomplete offering the puzzle's actions)
answers the puzzle where the player has no game, and plays in their game where they do;
a wrong answer shows the winning line and touches no game. The puzzle of the day is
posted in the channel the server chose, once, with a button that opens each player's own
try. A theme chosen, the puzzle table and rating, and a typed answer sent again."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import cast

from PIL import Image

from bot.discord.cogs.notices import Notices
from bot.discord.custom_ids import daily_id, giveup_id, nextpuzzle_id, parse_custom_id
from bot.service.puzzles import Try
from bot.service.replies import BOARD_FILENAME, User
from engine.tables.puzzles import PuzzleTheme
from tests.bot.discord.helpers import button_ids, option_values, shown
from tests.bot.service.test_puzzle_themes import only_themes, repeat_legal_again, repeating
from tests.e2e.conftest import (
    Live,
    assert_refused,
    board_size,
    db_rows,
    game_state,
    game_version,
    stale_click,
    start_game,
)
from tests.fakediscord import FakeMessage, FakeUser

MANAGE_GUILD = 1 << 5


def assert_puzzle_png(message: FakeMessage, variant: str) -> None:
    """The message shows a real PNG of the board as its embed's image, with the task in a
    strip under it."""
    attachment = message.attachment(BOARD_FILENAME)
    with Image.open(io.BytesIO(attachment.data)) as image:
        image.load()
        width, height = board_size(variant)
        assert image.format == "PNG" and image.width == width and image.height > height
    assert message.embeds and message.embeds[0]["image"]["url"] == attachment.url


def puzzle_select(message: FakeMessage) -> dict[str, object]:
    selects = [s for s in message.selects() if s["custom_id"].startswith("shax:puzzle:")]
    assert len(selects) == 1, message.custom_ids()
    return selects[0]


async def open_try(live: Live, user: FakeUser) -> Try:
    found = await live.service.puzzles.desk.open_try(user.id)
    assert found is not None
    return found


async def test_a_puzzle_solved_by_its_menu_only_its_player_sees(live: Live) -> None:
    scene, fake = live.scene, live.fake
    asked = await fake.slash(scene.amina, scene.channel, "shax", "puzzle", {"variant": "shax"})
    message = await shown(live.bot, asked)
    assert message.ephemeral
    assert_puzzle_png(message, "shax")
    found = await open_try(live, scene.amina)
    assert f"**Puzzle {found.puzzle.id}**" in message.content
    assert sorted(option_values(puzzle_select(message))) == sorted(found.position.legal_notations())
    assert giveup_id(found.attempt.id) in button_ids(message)
    while (current := await live.service.puzzles.desk.open_try(scene.amina.id)) is not None:
        action = current.puzzle.solution[len(current.attempt.played)]
        picked = await fake.select(
            scene.amina, message, str(puzzle_select(message)["custom_id"]), [action]
        )
        message = await shown(live.bot, picked)
        assert message.ephemeral
    assert "Solved!" in message.content and "Puzzle rating: 1500? →" in message.content
    assert button_ids(message) == [nextpuzzle_id(found.attempt.id)] and not message.selects()
    # Nobody else saw anything: nothing public was posted.
    assert [m for m in fake.messages(scene.channel) if not m.ephemeral] == []
    # The next puzzle comes as a new private message.
    nxt = await shown(
        live.bot, await fake.click(scene.amina, message, nextpuzzle_id(found.attempt.id))
    )
    assert nxt.ephemeral and nxt.id != message.id and puzzle_select(nxt)


async def test_move_answers_the_puzzle_only_where_the_player_has_no_game(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)  # Amina and Bashir play in #shax
    game_id, version = game_version(board)
    await shown(live.bot, await fake.slash(scene.cawo, scene.channel, "shax", "puzzle", {}))
    found = await open_try(live, scene.cawo)
    offered = await fake.autocomplete(
        scene.cawo, scene.channel, "shax", "move", {"action": ""}, focused="action"
    )
    assert sorted(c["value"] for c in offered) == sorted(found.position.legal_notations())
    wrong = next(a for a in found.position.legal_notations() if a != found.puzzle.solution[0])
    before = db_rows(scene.db_path)
    answered = await shown(
        live.bot, await fake.slash(scene.cawo, scene.channel, "shax", "move", {"action": wrong})
    )
    assert answered.ephemeral and "lets the win go" in answered.content
    assert found.puzzle.solution[0] in answered.content
    assert db_rows(scene.db_path) == before  # no game, tally or series changed
    assert game_state(scene.db_path, game_id)[1] == version
    # Amina, with a puzzle open too, plays in her game here with /shax move.
    await shown(live.bot, await fake.slash(scene.amina, scene.channel, "shax", "puzzle", {}))
    mine = await open_try(live, scene.amina)
    moved = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "d7"})
    assert not (await shown(live.bot, moved)).ephemeral
    assert game_state(scene.db_path, game_id)[0] == ("d7",)
    assert (await open_try(live, scene.amina)).attempt == mine.attempt


async def test_the_puzzle_of_the_day_is_posted_once_and_each_player_solves_their_own(
    live: Live,
) -> None:
    scene, fake = live.scene, live.fake
    live.clock.moment = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)
    fake.world.members[scene.amina.id].permissions |= MANAGE_GUILD
    chose = await fake.slash(
        scene.amina,
        scene.channel,
        "shax",
        "settings",
        {"puzzle-channel": scene.channel, "puzzle-hour": 9},
    )
    assert "Puzzle of the day" in (await shown(live.bot, chose)).content
    notices = cast("Notices", live.bot.get_cog("Notices"))
    live.clock.advance(hours=1)

    def public() -> list[FakeMessage]:
        return [m for m in fake.messages(scene.channel) if not m.ephemeral]

    for _ in range(3):  # the bot's own clock may tick meanwhile: still one post
        for notice in await live.service.tick():
            await notices.show(notice)
    await fake.wait_for(public, what="the puzzle of the day")
    assert await live.bot.responder.wait_idle(10)
    posts = public()
    assert len(posts) == 1
    post = posts[0]
    assert "**Puzzle of the day**, 2026-11-26" in post.content
    assert_puzzle_png(post, "shax")
    [solve] = button_ids(post)
    parsed = parse_custom_id(solve)
    assert parsed is not None and parsed.daily_id is not None and solve == daily_id(parsed.daily_id)
    mine = await shown(live.bot, await fake.click(scene.bashir, post, solve))
    assert mine.ephemeral and puzzle_select(mine)
    again = await fake.click(scene.cawo, post, solve)
    assert (await shown(live.bot, again)).ephemeral
    assert (await open_try(live, scene.bashir)).puzzle == (await open_try(live, scene.cawo)).puzzle
    # Someone else's menu is theirs alone, even from a tampered client.
    found = await open_try(live, scene.bashir)
    forged = await stale_click(
        fake, scene.cawo, mine, str(puzzle_select(mine)["custom_id"]), [found.puzzle.solution[0]]
    )
    assert_refused(forged, "someone else's")
    assert (await open_try(live, scene.bashir)).attempt == found.attempt


async def test_a_puzzle_of_a_theme_the_puzzle_table_and_a_typed_answer_sent_again(
    live: Live,
) -> None:
    """``/shax puzzle theme:`` (a choice of the synced command) gives one of that theme,
    whose theme is said once solved; ``/shax leaderboard table:puzzles`` and
    ``/shax rating`` show the puzzles; a Somali reader is refused a theme with none left
    in Somali; a ``/shax move`` sent again after its answer, legal again, changes nothing."""
    scene, fake = live.scene, live.fake
    storage, desk = live.service.storage, live.service.puzzles.desk
    await desk.ready()
    rows = [
        await storage.puzzles.get_puzzle(i) for i in await storage.puzzles.puzzle_ids("shax-small")
    ]
    stored = [r for r in rows if r is not None]
    row = min(stored, key=lambda r: abs(r.glicko.rating - 1500))
    await only_themes(live.service, {row.id: [PuzzleTheme.IRMAAN]})
    synced = fake.world.find_command("shax", scene.channel.guild_id)
    assert synced is not None
    [puzzle] = [o for o in synced["options"] if o["name"] == "puzzle"]
    [theme] = [o for o in puzzle["options"] if o["name"] == "theme"]
    assert [c["value"] for c in theme["choices"]] == [t.value for t in PuzzleTheme]
    assert theme["choices"][3]["name"] == "Irmaan (running jare)"
    options = {"variant": "shax-small", "theme": "irmaan"}
    asked = await shown(
        live.bot, await fake.slash(scene.amina, scene.channel, "shax", "puzzle", options)
    )
    assert asked.ephemeral and (await open_try(live, scene.amina)).puzzle.id == row.id
    while (current := await desk.open_try(scene.amina.id)) is not None:
        action = current.puzzle.solution[len(current.attempt.played)]
        moved = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": action})
        answered = await shown(live.bot, moved)
    assert "Solved!" in answered.content and "Theme: Irmaan (running jare)." in answered.content
    table = await shown(
        live.bot,
        await fake.slash(scene.amina, scene.channel, "shax", "leaderboard", {"table": "puzzles"}),
    )
    assert "**Puzzles**" in table.content and "(1 solved)" in table.content
    rating = await shown(
        live.bot, await fake.slash(scene.amina, scene.channel, "shax", "rating", {})
    )
    assert "Puzzles (every server): rating 1" in rating.content
    # Bashir reads Somali: no puzzle of a theme left, in his words, naming the one left.
    await shown(
        live.bot,
        await fake.slash(scene.bashir, scene.channel, "shax", "language", {"language": "so"}),
    )
    options = {"variant": "shax-small", "theme": "sacrifice"}
    refused = await fake.slash(scene.bashir, scene.channel, "shax", "puzzle", options)
    assert_refused(refused, "Dhagax hurid", "kuuma harin", "Irmaan (jare socda) (`irmaan`)")
    assert await desk.open_try(scene.bashir.id) is None
    # Cawo's puzzle where an earlier answer of hers is legal again (and wrong) later on.
    puzzle = await repeating(live.service)
    found = repeat_legal_again(puzzle)
    assert found is not None
    played, repeated = found
    cawo = User(scene.cawo.id, scene.cawo.username)
    await desk.start_puzzle(cawo, puzzle.id, None)
    while (now := await storage.puzzles.open_attempt(cawo.id)) and len(now.played) < played:
        action = puzzle.solution[len(now.played)]
        await shown(
            live.bot,
            await fake.slash(scene.cawo, scene.channel, "shax", "move", {"action": action}),
        )
    before = await storage.puzzles.open_attempt(cawo.id)
    again = await fake.slash(scene.cawo, scene.channel, "shax", "move", {"action": repeated})
    assert_refused(again, "answered already")
    assert await storage.puzzles.open_attempt(cawo.id) == before


async def test_next_puzzle_keeps_the_theme_chosen(live: Live) -> None:
    """After ``/shax puzzle theme:`` the *Next puzzle* button gives another of that theme on
    the same board, and once none is left says so (naming the themes left) and opens none."""
    scene, fake = live.scene, live.fake
    desk = live.service.puzzles.desk
    await desk.ready()
    ids = await live.service.storage.puzzles.puzzle_ids("shax-small")
    xadhig, irmaan = PuzzleTheme.XADHIG, PuzzleTheme.IRMAAN
    await only_themes(live.service, {ids[0]: [xadhig], ids[1]: [xadhig], ids[2]: [irmaan]})
    options = {"variant": "shax-small", "theme": "xadhig"}
    message = await shown(
        live.bot, await fake.slash(scene.amina, scene.channel, "shax", "puzzle", options)
    )
    first = await open_try(live, scene.amina)
    given_up = await shown(
        live.bot, await fake.click(scene.amina, message, giveup_id(first.attempt.id))
    )
    assert "Theme: Xadhig (blockade)." in given_up.content
    nxt = await shown(
        live.bot, await fake.click(scene.amina, given_up, nextpuzzle_id(first.attempt.id))
    )
    second = await open_try(live, scene.amina)
    assert nxt.ephemeral and puzzle_select(nxt)
    assert {first.puzzle.id, second.puzzle.id} == {ids[0], ids[1]}
    assert second.puzzle.variant == "shax-small" and second.attempt.theme == "xadhig"
    ended = await shown(live.bot, await fake.click(scene.amina, nxt, giveup_id(second.attempt.id)))
    refused = await fake.click(scene.amina, ended, nextpuzzle_id(second.attempt.id))
    assert_refused(refused, "No Xadhig (blockade) puzzle", "Irmaan (running jare) (`irmaan`)")
    assert await desk.open_try(scene.amina.id) is None
