"""Ratings through the service: which games are rated, how a rating moves, what players
read (the change under a result, the ratings on the board, /shax rating, the rating
table), and recomputing every rating from the games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.service import glicko
from bot.service.facade import ShaxService
from bot.service.rating_replies import recompute
from bot.service.ratings import (
    acted,
    after_game,
    current,
    family_of,
    level_rating,
)
from bot.service.replies import BadOption, Reply, User
from bot.standings import StoredRating
from engine.ai.levels import LEVEL_TABLE
from tests.bot.conftest import (
    AMINA,
    BASHIR,
    BOT,
    CAWO,
    GUILD,
    HERE,
    FakeClock,
    on_turn,
    start_game,
)
from tests.bot.storage.conftest import spoil_ratings
from tests.services import files, run_for, words

WHEN = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def stored(rating: float, deviation: float = 60.0, games: int = 30) -> StoredRating:
    return StoredRating(rating, deviation, 0.06, games=games, best=rating, rated_at=WHEN)


@pytest.mark.parametrize("opponent", [1300.0, 1500.0, 1700.0])
def test_a_win_raises_a_loss_lowers_and_a_draw_moves_toward_the_opponent(
    opponent: float,
) -> None:
    me, them = stored(1500.0), glicko.Rating(opponent, 60.0)
    win, draw, loss = (after_game(me, them, score, WHEN).rating for score in (1.0, 0.5, 0.0))
    assert loss < 1500.0 < win
    assert loss < draw < win
    if opponent > 1500:
        assert draw > 1500.0
    elif opponent < 1500:
        assert draw < 1500.0
    else:
        assert draw == pytest.approx(1500.0)


def test_a_win_against_a_stronger_player_is_worth_more() -> None:
    me = stored(1500.0)
    gains = [
        after_game(me, glicko.Rating(r, 60.0), 1.0, WHEN).rating - 1500.0
        for r in (1300.0, 1500.0, 1700.0)
    ]
    assert gains == sorted(gains) and gains[0] < gains[2]


def test_a_newcomer_is_provisional_until_enough_games_and_the_best_waits_for_it() -> None:
    rating: StoredRating | None = None
    opponent = glicko.Rating(1500.0, 60.0)
    shown = []
    for game in range(12):
        rating = after_game(rating, opponent, 1.0 if game % 2 else 0.0, WHEN)
        shown.append(current(rating, WHEN))
    assert shown[0].provisional and shown[0].shown.endswith("?")
    assert not shown[-1].provisional and not shown[-1].shown.endswith("?")
    first_established = next(i for i, r in enumerate(shown) if not r.provisional)
    assert first_established > 0
    assert rating is not None and rating.best is not None and rating.games == 12


def test_idle_days_widen_the_deviation() -> None:
    rating = stored(1600.0, deviation=60.0)
    later = current(rating, WHEN + timedelta(days=200))
    assert later.rating == 1600.0 and later.deviation > 80.0
    assert current(rating, WHEN).deviation == 60.0


def test_shax_and_shax_small_are_rated_together_and_jar_is_not() -> None:
    assert family_of("shax") == family_of("shax-small") == "shax"
    assert family_of("jar") is None


def test_who_acted_is_read_from_the_record() -> None:
    assert acted("shax", []) == set()
    assert len(acted("shax", ["d7"])) == 1
    assert len(acted("shax", ["d7", "a7"])) == 2


def test_the_bots_levels_are_rated_from_weakest_to_strongest() -> None:
    ratings = [LEVEL_TABLE[level].rating for level in ("easy", "medium", "hard", "master")]
    assert ratings == sorted(ratings) and len(set(ratings)) == 4
    assert not level_rating("hard").provisional


async def rated_game(service: ShaxService, loser: User, variant: str = "shax") -> Reply:
    """Amina and Bashir each place a stone (whoever places first), then ``loser`` resigns."""
    start = await start_game(service, variant)
    first = on_turn(start)
    second = BASHIR if first == AMINA else AMINA
    await service.play(first, HERE, "a1" if variant == "shax-small" else "d7")
    await service.play(second, HERE, "e5" if variant == "shax-small" else "a7")
    return await service.turns.resign(loser, HERE)


async def rating_of(service: ShaxService, user_id: int) -> StoredRating | None:
    return (await service.storage.ratings.of(GUILD, "shax", [user_id])).get(user_id)


async def test_a_resigned_game_between_people_moves_both_ratings_visibly(
    service: ShaxService,
) -> None:
    reply = await rated_game(service, BASHIR, "shax-small")
    text = words(reply.text)
    amina, bashir = await rating_of(service, AMINA.id), await rating_of(service, BASHIR.id)
    assert amina is not None and bashir is not None
    assert amina.rating > 1500 > bashir.rating and amina.games == bashir.games == 1
    up, down = round(amina.rating) - 1500, 1500 - round(bashir.rating)
    assert (
        f"Ratings: Amina {round(amina.rating)}? (+{up}) · Bashir {round(bashir.rating)}? (−{down})."
        in text
    )


async def test_a_game_one_side_never_moved_in_is_not_rated(service: ShaxService) -> None:
    await start_game(service, "shax")
    await service.play(AMINA, HERE, "d7")
    reply = await service.turns.resign(BASHIR, HERE)
    assert "Ratings:" not in words(reply.text)
    assert await rating_of(service, AMINA.id) is None
    assert await rating_of(service, BASHIR.id) is None


async def test_jar_games_are_not_rated(service: ShaxService) -> None:
    await start_game(service, "jar")
    await service.play(AMINA, HERE, "b2")
    await service.play(BASHIR, HERE, "a1")
    reply = await service.turns.resign(AMINA, HERE)
    assert "Ratings:" not in words(reply.text)
    assert await service.storage.ratings.of(GUILD, "shax", [AMINA.id, BASHIR.id]) == {}


async def test_a_timeout_counts(service: ShaxService, clock: FakeClock) -> None:
    await start_game(service, "shax")
    await service.play(AMINA, HERE, "d7")
    await service.play(BASHIR, HERE, "a7")
    notices = await run_for(service, clock, hours=48)
    forfeit = [n for n in notices if "Ratings:" in words(n.reply.text)]
    assert len(forfeit) == 1
    bashir = await rating_of(service, BASHIR.id)
    assert bashir is not None and bashir.rating > 1500  # Amina ran out of time


async def test_a_bot_game_is_rated_against_the_levels_rating_and_moves_only_the_person(
    service: ShaxService,
) -> None:
    await service.challenges.play_bot(AMINA, HERE, "hard", "shax", "me")
    await service.play(AMINA, HERE, "d7")
    reply = await service.turns.resign(AMINA, HERE)
    amina = await rating_of(service, AMINA.id)
    assert amina is not None and amina.rating < 1500
    expected = after_game(None, level_rating("hard"), 0.0, amina.rated_at)
    assert amina.rating == expected.rating
    assert await rating_of(service, BOT.id) is None
    assert f"Ratings: Amina {round(amina.rating)}?" in words(reply.text)


async def test_the_board_shows_each_players_rating(service: ShaxService) -> None:
    drawn: list[object] = []
    reads: list[list[int]] = []
    read = service.storage.ratings.of

    def render(variant: str, record: list[str], view: object) -> bytes:
        drawn.append(view)
        return b"png"

    beside = service.storage.games.beside_board

    async def counted(
        guild: int | None, pair: object, readers: object, rated: tuple[str, list[int]] | None
    ) -> object:
        reads.append(list(rated[1]) if rated is not None else [])
        return await beside(guild, pair, readers, rated)  # type: ignore[arg-type]

    service.composer._render_board = render
    service.storage.games.beside_board = counted  # type: ignore[method-assign,assignment]
    await service.challenges.play_bot(AMINA, HERE, "medium", "shax", "me")
    await files(await service.board(AMINA, HERE))
    view = drawn[-1]
    assert (view.white_rating, view.black_rating) == ("1500?", str(LEVEL_TABLE["medium"].rating))  # type: ignore[attr-defined]
    assert reads[-1] == [AMINA.id]  # the bot's level is not read
    await service.turns.resign(AMINA, HERE)
    start = await start_game(service, "shax")
    first = on_turn(start)
    await service.play(first, HERE, "d7")
    await service.play(BASHIR if first == AMINA else AMINA, HERE, "a7")
    reads.clear()
    await files(await service.turns.resign(BASHIR, HERE))
    assert reads == [[]]  # the finish's own ratings are shown, not read again
    after = await read(GUILD, "shax", [AMINA.id, BASHIR.id])
    view = drawn[-1]
    shown = {view.white_name: view.white_rating, view.black_name: view.black_rating}  # type: ignore[attr-defined]
    assert shown == {
        name: f"{round(after[user.id].rating)}?"
        for name, user in (("Amina", AMINA), ("Bashir", BASHIR))
    }


async def test_the_rating_command_shows_the_figures_and_a_picture(service: ShaxService) -> None:
    missing = await service.ratings.rating(HERE, CAWO)
    assert "Cawo has no rating here yet" in words(missing.text)
    for _ in range(2):
        await rated_game(service, BASHIR)
    reply = await service.ratings.rating(HERE, AMINA, AMINA.id)
    amina = await rating_of(service, AMINA.id)
    assert amina is not None
    text = words(reply.text)
    assert f"Rating {round(amina.rating)}? ± {round(amina.deviation)} · 2 rated games" in text
    assert "no best yet" in text and "The ? means provisional" in text
    [picture] = await files(reply)
    assert picture.filename == "rating.png" and picture.data.startswith(b"\x89PNG")
    [somali] = await files(reply, "so")  # its axes titled in the reader's language
    assert somali.filename == "rating.png" and somali.data != picture.data
    bot = words((await service.ratings.rating(HERE, BOT)).text)
    assert f"hard {LEVEL_TABLE['hard'].rating}" in bot


async def test_the_rating_table_lists_established_ratings_only(
    service: ShaxService, clock: FakeClock
) -> None:
    for n in range(16):
        await rated_game(service, AMINA if n % 3 == 0 else BASHIR)
        clock.advance(minutes=5)
    await service.challenges.play_bot(CAWO, HERE, "easy", "shax", "me")
    await service.play(CAWO, HERE, "d7")
    await service.turns.resign(CAWO, HERE)
    table = words((await service.statistics.leaderboard(HERE, "ratings")).text)
    assert "**Ratings**" in table and "Current streaks" not in table
    amina = await rating_of(service, AMINA.id)
    assert amina is not None and not current(amina, clock()).provisional
    assert f"Amina — {round(amina.rating)} (16 rated games)" in table
    assert "Cawo" not in table  # one game: provisional
    both = words((await service.statistics.leaderboard(HERE, "both")).text)
    assert "Current streaks" in both and "**Ratings**" in both
    assert "**Ratings**" not in words((await service.statistics.leaderboard(HERE)).text)
    with pytest.raises(BadOption):
        await service.statistics.leaderboard(HERE, "elo")


async def test_recomputing_through_the_service_gives_the_stored_ratings_again(
    service: ShaxService, clock: FakeClock
) -> None:
    for loser in (BASHIR, AMINA, BASHIR):
        await rated_game(service, loser)
        clock.advance(days=3)
    await service.challenges.play_bot(AMINA, HERE, "master", "shax-small", "me")
    await service.play(AMINA, HERE, "a1")
    await service.turns.resign(AMINA, HERE)
    stored = {t: await service.storage.export_rows(t) for t in ("ratings", "game_ratings")}
    await spoil_ratings(service.storage)
    changes = await recompute(service.storage)
    assert len(changes) == 7
    assert {t: await service.storage.export_rows(t) for t in stored} == stored
