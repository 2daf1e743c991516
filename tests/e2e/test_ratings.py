"""Ratings through the fake Discord: a rated game's result says each change, the board
picture carries the ratings, ``/shax rating`` answers with the figures and a picture,
``/shax leaderboard table:`` shows the rating table; in English and in Somali."""

from __future__ import annotations

from typing import Any

from bot.discord.custom_ids import accept_id
from tests.bot.discord.helpers import shown
from tests.e2e.conftest import (
    Live,
    assert_refused,
    challenge_of,
    on_turn,
    post_challenge,
    start_game,
)
from tests.fakediscord import FakeMessage, FakeUser


async def ask(live: Live, who: FakeUser, command: str, **options: Any) -> FakeMessage:
    return await shown(
        live.bot, await live.fake.slash(who, live.scene.channel, "shax", command, options)
    )


async def rated_game(live: Live, loser: FakeUser) -> FakeMessage:
    """Amina and Bashir each place a stone on the small board, then ``loser`` resigns."""
    board = await start_game(live, "shax-small")
    first = on_turn(live.scene, board)
    await ask(live, first, "move", action="a1")
    second = live.scene.bashir if first == live.scene.amina else live.scene.amina
    await ask(live, second, "move", action="e5")
    return await ask(live, loser, "resign")


async def test_a_rated_game_its_changes_the_rating_and_the_table_on_discord(live: Live) -> None:
    scene = live.scene
    final = await rated_game(live, scene.bashir)
    stored = await live.service.storage.ratings.of(scene.fake.guild_id, "shax", [scene.amina.id])
    amina = round(stored[scene.amina.id].rating)
    assert f"Ratings: Amina {amina}? (+{amina - 1500}) · Bashir " in final.content

    rating = await ask(live, scene.bashir, "rating", user=scene.amina)
    assert not rating.ephemeral
    assert rating.content.startswith("**Amina** — rating on this server")
    assert f"Rating {amina}? ± " in rating.content and "1 rated game" in rating.content
    assert [a.filename for a in rating.attachments] == ["rating.png"]
    assert rating.attachments[0].data.startswith(b"\x89PNG")
    own = await ask(live, scene.cawo, "rating")
    assert "Cawo has no rating here yet" in own.content

    table = await ask(live, scene.cawo, "leaderboard", table="ratings")
    assert table.content.startswith("**Ratings**") and "Nobody has an established" in table.content
    both = await ask(live, scene.cawo, "leaderboard", table="both")
    assert "**Leaderboard**" in both.content and "**Ratings**" in both.content
    streaks = await ask(live, scene.cawo, "leaderboard")
    assert "**Leaderboard**" in streaks.content and "**Ratings**" not in streaks.content


async def test_ratings_speak_somali_to_those_who_chose_it(live: Live) -> None:
    scene = live.scene
    for user in (scene.amina, scene.bashir):
        chosen = await live.fake.slash(user, scene.channel, "shax", "language", {"language": "so"})
        assert_refused(chosen)  # the private answer
    posted = await post_challenge(live, "shax-small")
    await shown(
        live.bot, await live.fake.click(scene.bashir, posted, accept_id(challenge_of(posted)))
    )
    await ask(live, scene.amina, "move", action="a1")  # the challenger places first
    await ask(live, scene.bashir, "move", action="e5")
    final = await ask(live, scene.amina, "resign")
    assert "Darajooyinka: Amina " in final.content and "(−" in final.content
    rating = await ask(live, scene.amina, "rating")
    assert "darajadiisa server-kan" in rating.content and "ciyaar oo darajo leh" in rating.content
    table = await ask(live, scene.bashir, "leaderboard", table="ratings")
    assert table.content.startswith("**Darajooyinka**")
