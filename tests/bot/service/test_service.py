"""The game service command by command: challenges, moves, the refusals, draws, rematches,
bot games, streaks, leaderboard and rules (real renderer, temporary SQLite file)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderer
from bot.service.facade import ShaxService
from bot.service.replies import (
    BOARD_FILENAME,
    BadOption,
    ChallengeControls,
    ChallengeError,
    ChannelBusy,
    DestinationControls,
    DrawError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NoGameHere,
    NotYourGame,
    NotYourTurn,
    StaleBoard,
    UserError,
)
from tests.bot.conftest import (
    AMINA,
    BASHIR,
    BOT,
    CAWO,
    ELSEWHERE,
    GUILD,
    HERE,
    OTHER_BOT,
    THREAD,
    FakeClock,
    ServiceFactory,
    board_controls,
    on_turn,
    start_game,
)
from tests.services import files, refused, words

PNG = b"\x89PNG\r\n\x1a\n"
GIF = b"GIF8"
# A jar record: nobody made a line while placing, so black moved first (b1-c1); white
# a1 a2 b3, black a3 c1 c2; white to move with four moves (a1-b1, a2-b2, b3-b2, b3-c3),
# none of them winning.
JAR_MOVEMENT = ["a1", "a3", "a2", "b1", "b3", "c2", "b1-c1"]


def dump(db_path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table (a separate connection: what is committed)."""
    with sqlite3.connect(db_path) as raw:
        tables = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: sorted(raw.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}


async def play_all(service: ShaxService, actions: list[str], reply=None):  # type: ignore[no-untyped-def]
    """Play actions in order, each by the player on turn (slash-command style)."""
    for action in actions:
        player = on_turn(reply) if reply is not None else AMINA
        reply = await service.play(player, HERE, action)
    return reply


# -- challenges --------------------------------------------------------------------


async def test_challenge_posts_accept_and_decline_and_mentions_the_opponent(
    service: ShaxService,
) -> None:
    reply = await service.challenges.challenge(AMINA, BASHIR, HERE, "jar")
    assert isinstance(reply.controls, ChallengeControls)
    assert reply.challenge_id == reply.controls.challenge_id
    assert words(reply.text).startswith(f"<@{BASHIR.id}>, Amina challenges you to a game of Jar")
    assert "10 minutes" in words(reply.text)
    assert reply.mentions == (BASHIR.id,) and not reply.ephemeral


async def test_accept_starts_the_game_and_the_challenger_places_first(
    service: ShaxService,
) -> None:
    reply = await start_game(service, "shax")
    controls = board_controls(reply)
    assert reply.live_board and reply.game_id == controls.game_id and reply.version == 0
    assert reply.attachments[0].filename == BOARD_FILENAME
    assert (await files(reply))[0].data.startswith(PNG)
    assert reply.mentions == (AMINA.id,) and on_turn(reply) == AMINA
    assert f"<@{AMINA.id}> — your turn (white ○): place a stone (12 in hand)" in words(reply.text)
    assert len(controls.actions) == 24 and not controls.menu(25).two_step
    assert controls.can_offer_draw and not controls.rematch


@pytest.mark.parametrize(
    ("opponent", "words"),
    [
        (AMINA, "You can't challenge yourself"),
        (BOT, "/shax play-bot"),
        (OTHER_BOT, "is a bot account"),
    ],
)
async def test_challenging_yourself_or_a_bot_is_refused(
    service: ShaxService,
    db_path: Path,
    opponent,
    words: str,  # type: ignore[no-untyped-def]
) -> None:
    before = dump(db_path)
    with refused(ChallengeError, words):
        await service.challenges.challenge(AMINA, opponent, HERE)
    assert dump(db_path) == before


async def test_unknown_variant_is_refused_with_the_choices(service: ShaxService) -> None:
    with refused(BadOption, "shax, shax-small, jar"):
        await service.challenges.challenge(AMINA, BASHIR, HERE, "chess")


async def test_a_second_identical_challenge_is_refused(service: ShaxService) -> None:
    await service.challenges.challenge(AMINA, BASHIR, HERE)
    with refused(ChallengeError, "already challenged Bashir"):
        await service.challenges.challenge(AMINA, BASHIR, HERE)


async def test_only_the_challenged_player_can_accept(service: ShaxService, db_path: Path) -> None:
    c = await service.challenges.challenge(AMINA, BASHIR, HERE)
    before = dump(db_path)
    with refused(NotYourGame, "for Bashir"):
        await service.challenges.accept(CAWO, HERE, c.challenge_id)
    with refused(ChallengeError, "your own challenge"):
        await service.challenges.accept(AMINA, HERE, c.challenge_id)
    with refused(ChallengeError, "No challenge is waiting for you"):
        await service.challenges.accept(CAWO, HERE)
    assert dump(db_path) == before


async def test_decline_and_the_challenger_withdrawing(service: ShaxService) -> None:
    c = await service.challenges.challenge(AMINA, BASHIR, HERE)
    reply = await service.challenges.decline(BASHIR, HERE, c.challenge_id)
    assert words(reply.text) == "Bashir declined Amina's challenge."
    with refused(ChallengeError, "no longer open"):
        await service.challenges.accept(BASHIR, HERE, c.challenge_id)
    c = await service.challenges.challenge(AMINA, BASHIR, HERE)
    reply = await service.challenges.decline(AMINA, HERE, c.challenge_id)  # the Decline button
    assert words(reply.text) == "Amina withdrew the challenge to Bashir."
    await service.challenges.challenge(AMINA, BASHIR, HERE)
    assert "withdrew" in words((await service.challenges.cancel(AMINA, HERE)).text)
    with refused(ChallengeError, "no open challenge"):
        await service.challenges.cancel(AMINA, HERE)


async def test_a_busy_channel_is_refused_and_pointed_to_a_thread(
    service: ShaxService, db_path: Path
) -> None:
    game = await start_game(service, "jar")
    before = dump(db_path)
    with refused(ChannelBusy, "Open a thread here") as info:
        await service.challenges.challenge(CAWO, BASHIR, HERE)
    assert f"game #{game.game_id}: Amina vs Bashir" in words(info.value.message)
    with pytest.raises(ChannelBusy):
        await service.challenges.play_bot(CAWO, HERE, "easy")
    assert dump(db_path) == before
    # A thread holds its own game.
    await start_game(service, "jar", THREAD)
    with refused(ChannelBusy, "Start a new thread"):
        await service.challenges.challenge(CAWO, BASHIR, THREAD)


async def test_accepting_when_the_channel_became_busy_is_refused(service: ShaxService) -> None:
    c = await service.challenges.challenge(CAWO, BASHIR, HERE)
    await start_game(service, "jar")  # Amina and Bashir start first
    with pytest.raises(ChannelBusy):
        await service.challenges.accept(BASHIR, HERE, c.challenge_id)


async def test_a_challenge_expires_on_tick(service: ShaxService, clock: FakeClock) -> None:
    c = await service.challenges.challenge(AMINA, BASHIR, HERE)
    await service.posted(c, 777)
    clock.advance(minutes=9)
    assert await service.tick() == []
    clock.advance(minutes=1)
    [notice] = await service.tick()
    assert notice.channel_id == HERE.channel_id and notice.edit_message_id == 777
    assert words(notice.reply.text) == "Amina's challenge to Bashir expired."
    assert await service.tick() == []
    with refused(ChallengeError, "no longer open"):
        await service.challenges.accept(BASHIR, HERE, c.challenge_id)


async def test_an_expired_challenge_cannot_be_accepted_before_the_tick(
    service: ShaxService, clock: FakeClock
) -> None:
    c = await service.challenges.challenge(AMINA, BASHIR, HERE)
    clock.advance(minutes=11)
    with refused(ChallengeError, "expired"):
        await service.challenges.accept(BASHIR, HERE, c.challenge_id)


# -- moves and their refusals ------------------------------------------------------------


async def test_a_move_answers_with_the_board_the_move_in_words_and_the_next_player(
    service: ShaxService,
) -> None:
    game = await start_game(service, "shax")
    reply = await service.play(AMINA, HERE, "D7")
    assert words(reply.text).startswith("Amina placed a stone on d7. ")
    assert f"<@{BASHIR.id}> — your turn (black ●)" in words(reply.text)
    assert reply.mentions == (BASHIR.id,)
    assert reply.version == 1 and reply.game_id == game.game_id and reply.live_board
    assert (await files(reply))[0].data.startswith(PNG)
    assert "d7" not in [c.value for c in board_controls(reply).actions]


async def test_refusals_are_friendly_and_change_nothing(
    service: ShaxService, db_path: Path
) -> None:
    game = await start_game(service, "shax")
    await service.play(AMINA, HERE, "d7")
    before = dump(db_path)
    with refused(NotYourGame, "Amina and Bashir's game — only they can play"):
        await service.play(CAWO, HERE, "a7")
    with refused(NotYourTurn, "It's Bashir's turn"):
        await service.play(AMINA, HERE, "a7")
    with pytest.raises(IllegalAction) as illegal:
        await service.play(BASHIR, HERE, "d7")
    assert "d7 is already taken" in words(illegal.value.message)
    assert "Legal now: a1, a4, a7" in words(illegal.value.message)
    assert "d7" not in illegal.value.legal and len(illegal.value.legal) == 23
    with pytest.raises(MalformedAction) as malformed:
        await service.play(BASHIR, HERE, "z9")
    assert "'z9' is not a point on the shax board" in words(malformed.value.message)
    assert "Legal now:" in words(malformed.value.message)
    with refused(StaleBoard, "out of date — use the latest board"):
        await service.play(BASHIR, HERE, "a7", game.game_id, 0)
    with refused(NoGameHere, "no game in this channel"):
        await service.play(AMINA, ELSEWHERE, "a7")
    with pytest.raises(NotYourGame):
        await service.turns.resign(CAWO, HERE)
    with refused(DrawError, "no draw offer"):
        await service.turns.decline_draw(AMINA, HERE)
    assert dump(db_path) == before


async def test_every_refusal_is_a_user_error_with_an_ephemeral_reply() -> None:
    error = NotYourTurn("It's Bashir's turn — wait for their move.")
    assert isinstance(error, UserError)
    assert error.reply().ephemeral and error.reply().text == str(error)


async def test_autocomplete_offers_the_legal_actions_as_you_type(service: ShaxService) -> None:
    await start_game(service, "shax")
    choices = await service.legal_choices(AMINA, HERE, "d")
    assert [c.value for c in choices] == ["d1", "d2", "d3", "d5", "d6", "d7"]
    assert len(await service.legal_choices(AMINA, HERE)) == 24
    assert await service.legal_choices(BASHIR, HERE, "d") == []  # not on turn
    assert await service.legal_choices(AMINA, ELSEWHERE, "") == []


async def test_a_bare_point_in_the_movement_phase_asks_where_to(service: ShaxService) -> None:
    reply = await start_game(service, "jar")
    reply = await play_all(service, JAR_MOVEMENT, reply)
    assert "move a stone along a line" in words(reply.text)
    ask = await service.play(AMINA, HERE, "b3")
    assert ask.ephemeral and isinstance(ask.controls, DestinationControls)
    assert [c.value for c in ask.controls.choices] == ["b3-b2", "b3-c3"]
    with refused(IllegalAction, "no stone of yours on c1 can move"):
        await service.play(AMINA, HERE, "c1")


async def test_more_moves_than_a_menu_holds_become_a_two_step_choice(
    service: ShaxService,
) -> None:
    reply = await start_game(service, "jar")
    reply = await play_all(service, JAR_MOVEMENT, reply)
    controls = board_controls(reply)
    menu = controls.menu(3)  # the jar position has four moves
    assert menu.two_step
    assert [c.value for c in menu.choices] == ["a1", "a2", "b3"]
    assert words(menu.choices[2].description) == "to b2, c3"
    ask = await service.play(AMINA, HERE, "b3", controls.game_id, controls.version)
    assert isinstance(ask.controls, DestinationControls) and ask.controls.src == "b3"
    done = await service.play(AMINA, HERE, "b3-c3", controls.game_id, controls.version)
    assert words(done.text).startswith("Amina moved b3-c3.")
    with pytest.raises(StaleBoard):
        await service.play(BASHIR, HERE, "c1", controls.game_id, controls.version)


async def test_board_is_a_fresh_live_board_and_remembers_the_message(
    service: ShaxService,
) -> None:
    game = await start_game(service, "jar")
    await service.posted(replace(game, board_message_id=None), 4242)
    moved = await service.play(AMINA, HERE, "b2")
    assert moved.board_message_id == 4242
    board = await service.board(CAWO, HERE)  # anyone may look
    assert board.live_board and board.board_message_id == 4242  # the board to retire
    assert board.version == moved.version and (await files(board))[0].data.startswith(PNG)
    with pytest.raises(NoGameHere):
        await service.board(CAWO, ELSEWHERE)


# -- the end: resign, draws, rematch ------------------------------------------------------


async def test_resign_ends_the_game_with_the_replay_and_a_rematch_button(
    service: ShaxService, db_path: Path
) -> None:
    game = await start_game(service, "jar")
    await service.play(AMINA, HERE, "b2")
    reply = await service.turns.resign(BASHIR, HERE)  # not on turn: resigning is always allowed
    assert "**Amina wins: Bashir resigned.**" in words(reply.text)
    assert words(reply.text).endswith(f"Good game, <@{AMINA.id}> and <@{BASHIR.id}>!")
    assert "Amina: 1 in a row — three more for a gal." in words(reply.text)
    assert "Amina holds 1 stone in this series." in words(reply.text)
    controls = board_controls(reply)
    assert controls.rematch and controls.actions == ()
    names = [a.filename for a in reply.attachments]
    assert names == [BOARD_FILENAME, "replay.gif"]
    assert (await files(reply))[1].data.startswith(GIF)
    assert set(reply.mentions) == {AMINA.id, BASHIR.id}
    before = dump(db_path)
    with refused(GameOver, "is over"):
        await service.play(AMINA, HERE, "a1", game.game_id, None)
    with pytest.raises(NoGameHere):
        await service.play(AMINA, HERE, "a1")
    assert dump(db_path) == before


async def test_pictures_are_drawn_where_the_service_is_told(
    make_service: ServiceFactory,
) -> None:
    """Boards and replays go to their own runners (worker processes in the bot)."""
    ran: list[tuple[str, str]] = []

    def runner(kind: str) -> Callable[..., Awaitable[bytes]]:
        async def run(fn: Callable[..., bytes], *args: Any) -> bytes:
            ran.append((kind, fn.__name__))
            return await asyncio.to_thread(fn, *args)

        return run

    service = await make_service(run_board=runner("board"), run_replay=runner("replay"))
    await files(await start_game(service, "jar"))
    moved = await service.play(AMINA, HERE, "b2")
    assert ran == [("board", "render_board")]  # the first board; b2's when it is read
    await files(moved)
    assert ran == [("board", "render_board")] * 2
    ran.clear()
    reply = await service.turns.resign(BASHIR, HERE)
    drawn = await files(reply)
    assert ran == [("board", "render_board"), ("replay", "render_replay")]
    assert drawn[1].data.startswith(GIF)


async def test_draw_offer_then_accept_ends_in_a_draw_by_agreement(service: ShaxService) -> None:
    game = await start_game(service, "jar")
    offer = await service.turns.draw(AMINA, HERE)
    assert "Amina offers a draw." in words(offer.text) and offer.mentions[0] == BASHIR.id
    controls = board_controls(offer)
    assert controls.draw_offered_by == AMINA.id and offer.version == 1
    with refused(DrawError, "already offered"):
        await service.turns.draw(AMINA, HERE)
    reply = await service.turns.draw(BASHIR, HERE, game.game_id, offer.version)
    assert "**Draw: both players agreed.**" in words(reply.text)
    assert "A draw breaks nobody's streak." in words(reply.text)
    tallies = await service.storage.standings.tallies(GUILD, AMINA.id)
    assert tallies["human"].draws == 1


async def test_a_draw_offer_can_be_declined_and_a_move_declines_it(service: ShaxService) -> None:
    await start_game(service, "jar")
    await service.turns.draw(BASHIR, HERE)
    declined = await service.turns.decline_draw(AMINA, HERE)
    assert words(declined.text).startswith("Amina declined the draw.")
    assert board_controls(declined).draw_offered_by is None
    await service.turns.draw(BASHIR, HERE)
    moved = await service.play(AMINA, HERE, "b2")
    assert board_controls(moved).draw_offered_by is None
    # The offerer's own move keeps the offer standing.
    await service.turns.draw(AMINA, HERE)
    kept = await service.play(BASHIR, HERE, "a1")
    assert board_controls(kept).draw_offered_by is None  # Bashir moved: Amina's offer lapses
    await service.turns.draw(AMINA, HERE)
    own = await service.play(AMINA, HERE, "c3")
    assert board_controls(own).draw_offered_by == AMINA.id


async def test_rematch_against_a_person_is_a_challenge_and_the_winner_places_first(
    service: ShaxService,
) -> None:
    first = await start_game(service, "jar")  # Amina white
    await service.turns.resign(AMINA, HERE)  # Bashir wins
    ask = await service.challenges.rematch(AMINA, first.game_id)  # type: ignore[arg-type]
    assert "challenges you to a rematch" in words(ask.text) and ask.mentions == (BASHIR.id,)
    with refused(ChallengeError, "already asked for a rematch"):
        await service.challenges.rematch(AMINA, first.game_id)  # type: ignore[arg-type]
    with pytest.raises(NotYourGame):
        await service.challenges.rematch(CAWO, first.game_id)  # type: ignore[arg-type]
    second = await service.challenges.rematch(BASHIR, first.game_id)  # accepts Amina's
    assert "Bashir won the last game and places first" in words(second.text)
    assert on_turn(second) == BASHIR
    with refused(GameOver, "still being played"):
        await service.challenges.rematch(BASHIR, second.game_id)  # type: ignore[arg-type]
    # After a draw, whoever placed second last time (Amina) places first.
    await service.turns.draw(AMINA, HERE)
    await service.turns.draw(BASHIR, HERE)
    await service.challenges.rematch(BASHIR, second.game_id)  # type: ignore[arg-type]
    third = await service.challenges.accept(AMINA, HERE)
    assert "After the draw, Amina places first" in words(third.text) and on_turn(third) == AMINA


# -- against the bot -----------------------------------------------------------------------


async def test_play_bot_with_the_player_first(service: ShaxService) -> None:
    reply = await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    assert words(reply.text).startswith("Amina vs Shax bot (easy), Jar")
    assert on_turn(reply) == AMINA and not board_controls(reply).can_offer_draw
    moved = await service.play(AMINA, HERE, "b2")
    # The bot's answer comes in the same reply; it is the player's turn again.
    assert words(moved.text).startswith(
        "Amina placed a stone on b2; Shax bot (easy) placed a stone on "
    )
    assert moved.mentions == (AMINA.id,) and moved.version == 2


async def test_play_bot_with_the_bot_first(service: ShaxService) -> None:
    reply = await service.challenges.play_bot(AMINA, HERE, "medium", "shax", "bot")
    assert "Shax bot (medium) placed a stone on" in words(reply.text)
    assert f"<@{AMINA.id}> — your turn (black ●)" in words(reply.text) and reply.version == 1
    with refused(DrawError, "doesn't accept draws"):
        await service.turns.draw(AMINA, HERE)


async def test_play_bot_options_are_checked(service: ShaxService) -> None:
    with refused(BadOption, "easy, medium, hard, master"):
        await service.challenges.play_bot(AMINA, HERE, "godlike")
    with refused(BadOption, "me, bot or random"):
        await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "you")
    reply = await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "random")
    assert reply.game_id is not None


async def test_a_bot_game_counts_against_that_bot_level(service: ShaxService) -> None:
    game = await service.challenges.play_bot(AMINA, HERE, "hard", "jar", "me")
    reply = await service.turns.resign(AMINA, HERE)
    assert "**Shax bot (hard) wins: Amina resigned.**" in words(reply.text)
    assert words(reply.text).endswith(f"Good game, <@{AMINA.id}>!")
    tallies = await service.storage.standings.tallies(GUILD, AMINA.id)
    assert set(tallies) == {"bot:hard"} and tallies["bot:hard"].losses == 1
    # Rematch against the bot starts at once; the bot won, so it places first.
    again = await service.challenges.rematch(AMINA, game.game_id)  # type: ignore[arg-type]
    assert "Shax bot (hard) placed a stone on" in words(again.text) and on_turn(again) == AMINA


async def test_the_bot_plays_with_the_real_engine_ai(make_service: ServiceFactory) -> None:
    from bot.workers.ai import fixed_depth_chooser

    service = await make_service(fixed_depth_chooser(2))
    reply = await service.challenges.play_bot(AMINA, HERE, "hard", "jar", "bot")
    assert "Shax bot (hard) placed a stone on" in words(reply.text)
    reply = await service.play(AMINA, HERE, board_controls(reply).actions[0].value)
    assert reply.version == 3 or board_controls(reply).rematch


# -- statistics and help -------------------------------------------------------------------


async def test_streak_and_leaderboard(service: ShaxService) -> None:
    assert (
        words((await service.statistics.streak(HERE, AMINA)).text)
        == "Amina hasn't finished a game here yet."
    )
    board = await service.statistics.leaderboard(HERE)
    assert "Nobody has won a game against a person here yet." in words(board.text)
    for _ in range(2):
        await start_game(service, "jar")
        await service.turns.resign(BASHIR, HERE)
    await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    await service.turns.resign(AMINA, HERE)
    text = words((await service.statistics.streak(HERE, AMINA)).text)
    assert "Against people: 2 won, 0 lost, 0 drawn — 2 in a row — two more for a gal" in text
    assert "Against the easy bot: 0 won, 1 lost, 0 drawn — no current streak" in text
    board = words((await service.statistics.leaderboard(HERE)).text)
    assert "against people (games against the bot show in /shax streak)" in board
    assert "Current streaks:\n1. Amina — 2 in a row" in board
    assert "All-time best:\n1. Amina — 2 in a row" in board
    assert "Bashir" not in board


async def test_rules_are_short_true_and_illustrated(service: ShaxService) -> None:
    shax = await service.rules("shax")
    text = words(shax.text)
    for phrase in (
        "first jare",
        "Opening removals",
        "from **anywhere**",
        "No flying",
        "jid i sii aan jar aheyn",
        "oodan",
        "**two** stones",
        "Draws",
    ):
        assert phrase in text, phrase
    assert (await files(shax))[0].data.startswith(PNG)
    jar = await service.rules("jar")
    assert "three in a row" in words(jar.text) and "Nothing is captured" in words(jar.text)
    with pytest.raises(BadOption):
        await service.rules("go")


async def test_the_rules_picture_names_every_point(service: ShaxService) -> None:
    for variant in ("shax", "shax-small", "jar"):
        png = (await files(await service.rules(variant), "so"))[0].data
        img = Image.open(io.BytesIO(png)).convert("RGB")
        plain = Image.open(io.BytesIO(renderer.render_board(variant, ""))).convert("RGB")
        for name, (x, y) in renderer.board_geometry(variant).items():
            box = (x - 16, y - 6, x + 17, y + 7)
            assert img.crop(box) != plain.crop(box), (variant, name)


async def test_a_forged_long_action_is_refused_and_quoted_only_briefly(
    service: ShaxService,
) -> None:
    await start_game(service, "jar")
    with pytest.raises(MalformedAction) as info:
        await service.play(AMINA, HERE, "b" * 4500)
    said = words(info.value.message)
    assert len(said) < 400 and "b" * 17 not in said


async def test_the_bots_own_streak_counts_its_finished_games(service: ShaxService) -> None:
    empty = await service.statistics.streak(HERE, BOT)
    assert "hasn't finished a game here yet" in words(empty.text) and "/shax play-bot" in words(
        empty.text
    )
    await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    await service.turns.resign(AMINA, HERE)
    await service.challenges.play_bot(BASHIR, HERE, "hard", "jar", "me")
    await service.turns.resign(BASHIR, HERE)
    await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    await service.turns.resign(AMINA, HERE)
    text = words((await service.statistics.streak(HERE, BOT)).text)
    assert text.splitlines() == [
        f"**{BOT.name}** — its games on this server",
        "As the easy bot: 2 won, 0 lost, 0 drawn",
        "As the hard bot: 1 won, 0 lost, 0 drawn",
    ]
