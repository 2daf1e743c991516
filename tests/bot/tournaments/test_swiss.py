"""A Swiss played through the service: created, joined, started, each round's games opened
in threads and played, paired again once a round is complete, standings with tie-breaks
after each round, the podium at the end; the games rated as usual."""

from __future__ import annotations

from bot.commands.declare import Asked
from bot.service.buttons import Buttons
from bot.service.replies import UserError
from bot.tournaments import notices
from bot.tournaments.commands import TOURNAMENT_COMMANDS, JoinTournament
from bot.tournaments.rows import Status
from tests.bot.tournaments.conftest import (
    AMINA,
    BASHIR,
    CAWO,
    DAHIR,
    HALL,
    Open,
    event_in,
    tick,
    white_wins,
)
from tests.services import FakeClock, words


async def test_a_swiss_of_four_plays_its_rounds_and_ends_with_a_podium(events: Open) -> None:
    service = await events()
    t = service.tournaments
    made = await t.create(AMINA, HALL, format="swiss", rounds="3", turn="3m")
    assert made.text.id == notices.CREATED.id
    assert "3 rounds, 3 minutes a move" in words(made.text)
    for player in (BASHIR, CAWO, DAHIR):
        joined = await t.join(player, HALL)
    assert "4 players now" in words(joined.text)
    started = await t.start(AMINA, HALL, may_manage=False)
    assert started.text.id == notices.ROUND_PAIRED.id
    assert made.announcement and joined.announcement and started.announcement, (
        "said to the channel in the server's language, not the asker's"
    )
    assert len(started.mentions) == 4
    met: set[frozenset[int]] = set()
    said, games = await tick(service)
    for number in (1, 2, 3):
        assert len(games) == 2 and all(g.new for g in games)
        for game in games:
            row = await service.kernel.game(game.reply.game_id or 0)
            pair = frozenset((row.white_id, row.black_id))
            assert pair not in met, "no rematch in a Swiss of four over three rounds"
            met.add(pair)
            assert set(game.reply.mentions) == pair
            assert game.place.parent_channel_id == HALL.channel_id
        await white_wins(service, games)
        said, games = await tick(service)
        texts = [words(n.reply.text) for n in said]
        assert any(f"Standings after round {number} of 3:" in x for x in texts), texts
        assert all(n.channel_id == HALL.channel_id for n in said)
        assert any(n.reply.attachments for n in said), "the standings come as a picture too"
        if number < 3:
            assert any(f"Round {number + 1} of 3:" in x for x in texts), texts
        else:
            assert games == []
            assert any("The tournament is over!" in x for x in texts), texts
    event = await event_in(service)
    assert event.tournament.status is Status.FINISHED
    assert len(event.pairings) == 6 and all(p.done for p in event.pairings)
    again, opened = await tick(service)
    assert again == [] and opened == [], "nothing is said twice"


async def test_refusals_say_what_to_do_and_change_nothing(events: Open, clock: FakeClock) -> None:
    service = await events()
    t = service.tournaments
    await t.create(AMINA, HALL)
    await t.join(BASHIR, HALL)
    before = await event_in(service)
    for call, saying in (
        (t.join(BASHIR, HALL), notices.ALREADY_IN),
        (t.start(AMINA, HALL, may_manage=False), notices.TOO_FEW_PLAYERS),
        (t.cancel(CAWO, HALL, may_manage=False), notices.ONLY_CREATOR_CANCELS),
        (t.start(CAWO, HALL, may_manage=False), notices.ONLY_CREATOR_STARTS),
        (t.create(CAWO, HALL), notices.TOURNAMENT_HERE_ALREADY),
        (t.leave(CAWO, HALL), notices.NOT_IN_IT),
    ):
        try:
            await call
        except UserError as refusal:
            assert refusal.message.id == saying.id
        else:
            raise AssertionError(f"{saying.id} was not refused")
    assert await event_in(service) == before
    await t.join(CAWO, HALL)
    await t.start(AMINA, HALL, may_manage=False)
    try:
        await t.join(DAHIR, HALL)
    except UserError as refusal:
        assert refusal.message.id == notices.SWISS_BEGUN.id
        assert "make an arena" in words(refusal.message)
    else:
        raise AssertionError("a Swiss under way took a player")


async def test_the_join_button_under_the_opening_joins(events: Open) -> None:
    service = await events()
    made = await TOURNAMENT_COMMANDS[0].run(Asked(service, AMINA, HALL, {"format": "swiss"}))
    assert isinstance(made.controls, Buttons)
    (button,) = made.controls.items
    assert isinstance(button, JoinTournament)
    pressed = await button.press(Asked(service, BASHIR, HALL))
    assert "Bashir joined the tournament: 2 players now." in words(pressed.text).replace(
        f"<@{BASHIR.id}>", "Bashir"
    )
    left = await service.tournaments.leave(BASHIR, HALL)
    assert left.text.id == notices.LEFT_BEFORE_START.id


async def test_the_join_button_of_a_tournament_that_is_over_joins_no_other(events: Open) -> None:
    service = await events()
    old = await TOURNAMENT_COMMANDS[0].run(Asked(service, AMINA, HALL))
    assert isinstance(old.controls, Buttons)
    (button,) = old.controls.items
    await service.tournaments.cancel(AMINA, HALL, may_manage=False)
    await service.tournaments.create(CAWO, HALL)
    try:
        await button.press(Asked(service, BASHIR, HALL))  # type: ignore[attr-defined]
    except UserError as refusal:
        assert "That tournament is over" in words(refusal.message)
    else:
        raise AssertionError("an old Join button joined the new tournament")
    assert [p.user_id for p in (await event_in(service)).players] == [CAWO.id]
