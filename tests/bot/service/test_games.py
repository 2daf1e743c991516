"""Whole games through the service: wins and draws, timeouts, a restart, concurrent clicks,
and streaks up to a gal and a gabad."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from bot.service.facade import ShaxService
from bot.service.replies import NotYourTurn, StaleBoard, UserError
from bot.storage import NewGame
from engine import replay
from tests.bot.conftest import (
    AMINA,
    BASHIR,
    BOT,
    CAWO,
    GUILD,
    HERE,
    THREAD,
    FakeClock,
    ServiceFactory,
    board_controls,
    on_turn,
    play_random_game,
    start_game,
)
from tests.bot.service.test_service import dump
from tests.services import files, run_for, words


async def finished_game_check(service: ShaxService, reply) -> None:  # type: ignore[no-untyped-def]
    """The stored record replays to the stored result."""
    row = await service.storage.games.get_game(reply.game_id)
    assert row is not None and row.status == "over"
    position = replay(row.variant, row.record)
    assert position.outcome is not None
    assert position.outcome.result == row.result
    assert position.outcome.termination.name == row.termination


async def test_a_seeded_jar_game_between_two_people_ends_in_a_win(service: ShaxService) -> None:
    reply = await play_random_game(service, await start_game(service, "jar"), seed=1)
    assert " wins: three in a row.**" in words(reply.text)
    assert "1 in a row — three more for a gal" in words(reply.text)
    await finished_game_check(service, reply)


async def test_a_seeded_shax_game_between_two_people_ends(service: ShaxService) -> None:
    reply = await play_random_game(service, await start_game(service, "shax"), seed=0)
    assert "wins: " in words(reply.text) and "has only two stones left" in words(reply.text)
    assert (await files(reply))[1].data.startswith(b"GIF8")
    await finished_game_check(service, reply)


async def test_a_rule_draw_ends_the_game_and_counts_a_draw(make_service: ServiceFactory) -> None:
    # Random jar games often repeat a position three times; find one within a few seeds.
    service = await make_service()
    for seed in range(40):
        place = type(HERE)(GUILD, 1000 + seed)
        reply = await play_random_game(
            service, await start_game(service, "jar", place), seed, place
        )
        if "Draw" in words(reply.text):
            break
    else:
        pytest.fail("no drawn game in 40 seeds")
    assert "**Draw: the same position occurred three times.**" in words(reply.text)
    assert "A draw breaks nobody's streak." in words(reply.text)
    await finished_game_check(service, reply)
    assert (await service.storage.standings.tallies(GUILD, AMINA.id))["human"].draws == 1


async def test_turn_timeout_warns_then_forfeits(service: ShaxService, clock: FakeClock) -> None:
    game = await start_game(service, "jar")
    await service.posted(replace(game, board_message_id=None), 31)
    for player, action in ((AMINA, "b2"), (BASHIR, "a1"), (AMINA, "c3")):
        await service.play(player, HERE, action)
    assert await run_for(service, clock, hours=22, minutes=59) == []
    clock.advance(minutes=1)
    [warning] = await service.tick()
    assert warning.edit_message_id is None and warning.reply.mentions == (BASHIR.id,)
    assert words(warning.reply.text).startswith(f"⏳ <@{BASHIR.id}>, it's your turn in game #")
    assert "Play within 1 hour, or you forfeit" in words(warning.reply.text)
    assert await service.tick() == []  # warned once
    clock.advance(hours=1)
    [forfeit] = await service.tick()
    assert forfeit.edit_message_id == 31
    assert "**Amina wins: Bashir ran out of time.**" in words(forfeit.reply.text)
    assert board_controls(forfeit.reply).rematch
    assert await service.tick() == []
    assert (await service.storage.standings.tallies(GUILD, BASHIR.id))["human"].losses == 1


async def test_a_move_restarts_the_turn_clock(service: ShaxService, clock: FakeClock) -> None:
    await start_game(service, "jar")
    [warning] = await run_for(service, clock, hours=23, minutes=30)
    assert warning.reply.mentions == (AMINA.id,) and "warning" in warning.reply.text.id
    await service.play(AMINA, HERE, "b2")
    [warning] = await run_for(service, clock, hours=23)
    assert warning.reply.mentions == (BASHIR.id,) and "warning" in warning.reply.text.id


async def test_the_bot_never_times_out_but_its_opponent_does(
    service: ShaxService, clock: FakeClock
) -> None:
    await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    await service.play(AMINA, HERE, "b2")  # the bot answers at once
    [warning, forfeit] = await run_for(service, clock, hours=25)
    assert warning.reply.mentions == (AMINA.id,)
    assert "Shax bot (easy) wins: Amina ran out of time." in words(forfeit.reply.text)


async def test_two_concurrent_clicks_on_one_board_apply_exactly_once(
    service: ShaxService, db_path: Path
) -> None:
    game = await start_game(service, "shax")
    gid, version = game.game_id, game.version
    results = await asyncio.gather(
        service.play(AMINA, HERE, "d7", gid, version),
        service.play(AMINA, HERE, "a7", gid, version),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], StaleBoard)
    row = await service.storage.games.get_game(gid)  # type: ignore[arg-type]
    assert row is not None and len(row.record) == 1 and row.version == 1


async def test_concurrent_slash_moves_apply_at_most_once(service: ShaxService) -> None:
    game = await start_game(service, "jar")
    results = await asyncio.gather(
        *(service.play(AMINA, HERE, point) for point in ("a1", "b2", "c3")),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, NotYourTurn) for r in results if isinstance(r, BaseException))
    row = await service.storage.games.get_game(game.game_id)  # type: ignore[arg-type]
    assert row is not None and len(row.record) == 1


async def test_resign_racing_a_move_leaves_a_consistent_game(service: ShaxService) -> None:
    game = await start_game(service, "jar")
    results = await asyncio.gather(
        service.play(AMINA, HERE, "b2", game.game_id, game.version),
        service.turns.resign(BASHIR, HERE, game.game_id, game.version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, UserError) for r in results) == 1
    row = await service.storage.games.get_game(game.game_id)  # type: ignore[arg-type]
    assert row is not None
    assert (row.status, len(row.record)) in {("active", 1), ("over", 0)}


async def test_a_restart_resumes_every_game_and_challenge(
    make_service: ServiceFactory, db_path: Path, clock: FakeClock
) -> None:
    first = await make_service()
    people = await start_game(first, "jar")
    await first.play(AMINA, HERE, "b2")
    challenge = await first.challenges.challenge(CAWO, BASHIR, THREAD, "shax")
    # A bot game in which the player's move was committed but the bot's was not yet
    # (the process stopped in between): written as the service would have left it.
    bot_place = type(HERE)(GUILD, 900)
    bot_game = await first.challenges.play_bot(AMINA, bot_place, "easy", "jar", "me")
    row = await first.storage.games.get_game(bot_game.game_id)  # type: ignore[arg-type]
    assert row is not None
    await first.storage.games.update_game(
        row.id, row.version, record=["a1"], draw_offered_by=None, now=clock(), new_turn=True
    )
    await first.close()
    before = dump(db_path)

    second = await make_service()
    assert dump(db_path) == before
    notices = await second.tick()
    [bot_notice] = [n for n in notices if n.channel_id == 900]
    assert words(bot_notice.reply.text).startswith("Shax bot (easy) placed a stone on ")
    assert bot_notice.reply.mentions == (AMINA.id,)
    moved = await second.play(BASHIR, HERE, "a1", people.game_id, 1)
    assert moved.version == 2 and on_turn(moved) == AMINA
    accepted = await second.challenges.accept(BASHIR, THREAD, challenge.challenge_id)
    assert accepted.live_board and on_turn(accepted) == CAWO


async def test_the_bot_moves_on_load_when_someone_looks_at_the_board(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await make_service()
    game = await service.storage.games.create_game(
        NewGame(
            GUILD,
            HERE.channel_id,
            None,
            "jar",
            BOT.id,
            "Shax bot (easy)",
            AMINA.id,
            "Amina",
            ai_level="easy",
            ai_color="white",
        ),
        clock(),
    )
    reply = await service.board(AMINA, HERE)
    assert words(reply.text).startswith("Shax bot (easy) placed a stone on")
    assert reply.game_id == game.id and reply.version == 1


async def test_streaks_through_the_service_reach_a_gal_and_a_gabad(service: ShaxService) -> None:
    lines = []
    for opponent in (BASHIR, CAWO, BASHIR, CAWO, BASHIR):
        await service.challenges.challenge(AMINA, opponent, HERE, "jar")
        await service.challenges.accept(opponent, HERE)
        reply = await service.turns.resign(opponent, HERE)
        lines.append(words(reply.text))
    assert "Amina: 3 in a row — one more for a gal." in lines[2]
    assert "Amina: 4 in a row: a gal!" in lines[3]
    assert "Amina: 5 in a row: a gabad!" in lines[4]
    # A draw breaks nobody's streak; a loss wipes it.
    await service.challenges.challenge(AMINA, BASHIR, HERE, "jar")
    await service.challenges.accept(BASHIR, HERE)
    await service.turns.draw(AMINA, HERE)
    await service.turns.draw(BASHIR, HERE)
    t = (await service.storage.standings.tallies(GUILD, AMINA.id))["human"]
    assert (t.streak, t.best, t.gal, t.gabad, t.draws) == (5, 5, 1, 1, 1)
    await service.challenges.challenge(AMINA, BASHIR, HERE, "jar")
    await service.challenges.accept(BASHIR, HERE)
    lost = await service.turns.resign(AMINA, HERE)
    assert "Bashir: 1 in a row — three more for a gal. Amina's run of 5 ends." in words(lost.text)
    t = (await service.storage.standings.tallies(GUILD, AMINA.id))["human"]
    assert (t.streak, t.best, t.wins, t.losses) == (0, 5, 5, 1)
    # The series between Amina and Bashir: Bashir took the stones.
    series = await service.storage.standings.series(GUILD, f"u:{AMINA.id}", f"u:{BASHIR.id}")
    assert (series.holder, series.stones) == (f"u:{BASHIR.id}", 1)


async def test_the_ai_pool_runs_the_engine_in_worker_processes() -> None:
    from bot.workers.ai import AIPool

    pool = AIPool(1)  # the real ProcessPoolExecutor (forkserver or spawn)
    try:
        action = await pool.choose("jar", ["b2"], "easy", seed=7)
        assert action in replay("jar", ["b2"]).legal_notations()
    finally:
        pool.shutdown()


async def test_a_failing_or_slow_ai_falls_back_to_a_legal_action() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from bot.workers.ai import AIPool

    def broken(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
        raise RuntimeError("worker died")

    def slow(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
        import time

        time.sleep(0.5)
        return "a1"

    with ThreadPoolExecutor(2) as executor:
        for chooser in (broken, slow):
            pool = AIPool(1, chooser=chooser, executor=executor, budget=lambda level: -4.9)
            action = await pool.choose("jar", ["a1"], "easy", seed=3)
            assert action in replay("jar", ["a1"]).legal_notations()
