"""Every ``/shax`` command, once: its options, its service call and its help line.

The Discord cog (:mod:`bot.discord.slash`) and the console (:mod:`bot.console.typed`) are
built from :data:`COMMANDS`. To add a command, add a :class:`Command` here (and its
words to the catalogue); both surfaces then have it. Discord registers the slash
commands in this order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot import words
from bot.commands.buttons import Button
from bot.commands.declare import Asked, Command, Kind, Option
from bot.commands.picks import (
    FIRST,
    HOURS,
    LANGUAGE_PICKS,
    LEVELS,
    PUZZLE_THEMES,
    RESETS,
    TABLES,
    THEMES,
    THREADS,
    VARIANT,
    VARIANTS,
)
from bot.service.replies import Place, Reply, Said, User, UserError
from bot.service.server_settings import NOT_A_SETTING, NOT_AN_HOUR, Setting, SettingsChange
from bot.tournaments.commands import TOURNAMENT_BUTTONS, TOURNAMENT_COMMANDS
from shax_i18n import N_

if TYPE_CHECKING:
    from bot.service.facade import ShaxService

Run = Callable[[Asked], Awaitable[Reply]]

MAX_ACTION_LENGTH = 16
"""Longer than any action in notation (``a7-d7`` is 5)."""
MAX_DURATION_LENGTH = 20

NO_GAME_TO_REMATCH = N_("There is no finished game to rematch yet.")


def _given(asked: Asked, name: str) -> str:
    """A text option that always has a value: required, or with a default."""
    text = asked.text(name)
    assert text is not None, f"{name} is given"  # every surface makes sure
    return text


def _required_user(asked: Asked, name: str) -> User:
    user = asked.person(name)
    assert user is not None, f"{name} is required"  # every surface makes sure
    return user


# -- challenges and games ----------------------------------------------------------------


def _here(call: Callable[[ShaxService], Callable[[User, Place], Awaitable[Reply]]]) -> Run:
    """A command of no options acting for its user where asked (on Discord, a button)."""

    async def run(a: Asked) -> Reply:
        return await call(a.service)(a.user, a.place)

    return run


async def _challenge(a: Asked) -> Reply:
    opponent = _required_user(a, "opponent")
    return await a.service.challenges.challenge(a.user, opponent, a.place, _given(a, "variant"))


async def _play_bot(a: Asked) -> Reply:
    level, variant = _given(a, "level"), _given(a, "variant")
    return await a.service.challenges.play_bot(
        a.user, a.place, level, variant, a.text("first"), thinking=a.thinking
    )


async def _move(a: Asked) -> Reply:
    action = _given(a, "action").strip()
    return await a.service.play(a.user, a.place, action, thinking=a.thinking)


async def _board(a: Asked) -> Reply:
    return await a.service.board(a.user, a.place, thinking=a.thinking)


async def _rematch(a: Asked) -> Reply:
    if a.game_id is None:
        raise UserError(Said.message(NO_GAME_TO_REMATCH))
    return await a.service.challenges.rematch(a.user, a.game_id, thinking=a.thinking)


# -- the teacher, statistics, choices -----------------------------------------------------


async def _hint(a: Asked) -> Reply:
    return await a.service.teacher.hint(a.user, a.place, thinking=a.thinking)


async def _review(a: Asked) -> Reply:
    return await a.service.teacher.review(a.user, a.place, a.game_id, thinking=a.thinking)


async def _streak(a: Asked) -> Reply:
    return await a.service.statistics.streak(a.place, a.person("user") or a.user)


async def _rating(a: Asked) -> Reply:
    return await a.service.ratings.rating(a.place, a.person("user") or a.user, a.user.id)


async def _leaderboard(a: Asked) -> Reply:
    return await a.service.statistics.leaderboard(a.place, _given(a, "table"))


async def _theme(a: Asked) -> Reply:
    return await a.service.theme(a.user, a.text("theme"), a.place)


async def _rules(a: Asked) -> Reply:
    return await a.service.rules(a.text("variant") or a.variant or "shax")


async def _language(a: Asked) -> Reply:
    return await a.service.set_language(a.user, _given(a, "language"))


def _hour(text: str | None) -> int | None:
    """The hour of the puzzle of the day as chosen (a whole hour, checked by the settings)."""
    if text is None or not text.strip():
        return None
    try:
        return int(text.strip().removesuffix(":00"))
    except ValueError:
        raise UserError(NOT_AN_HOUR(text)) from None


async def _settings(a: Asked) -> Reply:
    reset = a.text("reset")
    try:
        setting = Setting(reset.strip().lower().replace("-", "_")) if reset is not None else None
    except ValueError:
        raise UserError(NOT_A_SETTING(reset or "")) from None
    change = SettingsChange(
        turn_timeout=a.text("turn-timeout"),
        challenge_expiry=a.text("challenge-expiry"),
        threads=a.text("threads"),
        theme=a.text("theme"),
        language=a.text("language"),
        allow_channel=a.channel("allow-channel"),
        disallow_channel=a.channel("disallow-channel"),
        every_channel=a.flag("all-channels"),
        puzzle_channel=a.channel("puzzle-channel"),
        puzzle_hour=_hour(a.text("puzzle-hour")),
        reset=setting,
    )
    return await a.service.settings(
        a.place, change, may_change=a.may_change_settings, operator=a.operator
    )


# -- puzzles --------------------------------------------------------------------------------


async def _puzzle(a: Asked) -> Reply:
    puzzles = a.service.puzzles
    if a.flag("give-up"):
        return await puzzles.give_up(a.user, a.place)
    answer = a.text("answer")
    if answer is not None and answer.strip():
        return await puzzles.answer(a.user, a.place, answer.strip())
    return await puzzles.puzzle(a.user, a.place, a.text("variant") or "shax", a.text("theme"))


def _bot_user(a: Asked) -> User:
    return a.service.bot_user


COMMANDS: tuple[Command, ...] = (
    Command(
        "challenge",
        N_("Challenge someone to a game"),
        _challenge,
        (
            Option(
                "opponent",
                Kind.USER,
                N_("Who you want to play"),
                required=True,
                missing=N_("Name your opponent: /shax challenge opponent:{example}."),
            ),
            VARIANT,
        ),
        opponent=lambda a: _required_user(a, "opponent"),
        servers_only=True,
    ),
    Command(
        "accept",
        N_("Accept the challenge here"),
        _here(lambda s: s.challenges.accept),
        button="accept",
    ),
    Command(
        "decline",
        N_("Decline the challenge here (the challenger withdraws it)"),
        _here(lambda s: s.challenges.decline),
        button="decline",
    ),
    Command(
        "cancel",
        N_("Withdraw your open challenge"),
        _here(lambda s: s.challenges.cancel),
        button="decline",
    ),
    Command(
        "play-bot",
        N_("Play a game against the bot"),
        _play_bot,
        (
            Option(
                "level",
                Kind.CHOICE,
                N_("How strong the bot plays (default: medium)"),
                default="medium",
                choices=LEVELS,
            ),
            VARIANT,
            Option(
                "first",
                Kind.CHOICE,
                N_("Who places the first stone (default: the last winner; you in a new series)"),
                choices=FIRST,
            ),
        ),
        opponent=_bot_user,
    ),
    Command(
        "move",
        N_("Play a move: d7 places, a7-d7 moves, xg1 removes"),
        _move,
        (
            Option(
                "action",
                Kind.TEXT,
                N_("Your move in notation — start typing to see the legal ones"),
                required=True,
                max_length=MAX_ACTION_LENGTH,
                too_long=N_(
                    "That is far too long to be a move. Moves look like **d7** (place), "
                    "**a7-d7** (move) or **xg1** (remove) — start typing and pick one of the "
                    "suggestions."
                ),
                complete=lambda service, user, place, typed: service.legal_choices(
                    user, place, typed
                ),
                missing=N_("Say which action: /shax move action:{example}."),
                notation=True,
            ),
        ),
        board_help=N_("Play a move: {notation}"),
    ),
    Command("board", N_("Show the game in this channel again"), _board),
    Command("resign", N_("Resign the game in this channel"), _here(lambda s: s.turns.resign)),
    Command(
        "draw", N_("Offer a draw, or accept the one on the table"), _here(lambda s: s.turns.draw)
    ),
    Command(
        "decline-draw",
        N_("Decline the draw offered, or withdraw your own offer"),
        _here(lambda s: s.turns.decline_draw),
        button="nodraw",
    ),
    Command("rematch", N_("Play the last game again"), _rematch, button="rematch"),
    Command(
        "hint",
        N_("The best move, drawn on the board (a few per game vs the bot)"),
        _hint,
    ),
    Command(
        "review",
        N_("Review the last game here: who stood better, where it turned"),
        _review,
        waiting=words.REVIEWING,
    ),
    Command(
        "streak",
        N_("Current and best streaks, gal and gabad, and the record against everyone"),
        _streak,
        (Option("user", Kind.USER, N_("Whose streak (default: yours)")),),
    ),
    Command(
        "rating",
        N_("A player's rating here: how sure it is, rated games, the best, a picture over time"),
        _rating,
        (Option("user", Kind.USER, N_("Whose rating (default: yours)")),),
    ),
    Command(
        "leaderboard",
        N_("This server's best streaks, its established ratings, or its puzzle ratings"),
        _leaderboard,
        (
            Option(
                "table",
                Kind.CHOICE,
                N_("Which table: streaks (default), ratings, both or puzzles"),
                default="streaks",
                choices=TABLES,
            ),
        ),
    ),
    Command(
        "language",
        N_("Choose the language the bot speaks to you"),
        _language,
        (
            Option(
                "language",
                Kind.CHOICE,
                N_("The language: English or Soomaali"),
                required=True,
                choices=LANGUAGE_PICKS,
                missing=N_("Say which language: /shax language language:{example}."),
            ),
        ),
    ),
    Command(
        "settings",
        N_("This server's Shax settings; members with Manage Server can change them"),
        _settings,
        (
            Option(
                "turn-timeout",
                Kind.TEXT,
                N_("Time to move before the turn is forfeited, e.g. 12h, 2d (10m to 14d)"),
                max_length=MAX_DURATION_LENGTH,
                too_long=None,
                sample="12h",
            ),
            Option(
                "challenge-expiry",
                Kind.TEXT,
                N_("How long a challenge stays open, e.g. 10m, 1h (1m to 7d)"),
                max_length=MAX_DURATION_LENGTH,
                too_long=None,
                sample="10m",
            ),
            Option(
                "threads", Kind.CHOICE, N_("When games get a thread of their own"), choices=THREADS
            ),
            Option("theme", Kind.CHOICE, N_("The boards' colours"), choices=THEMES),
            Option(
                "language",
                Kind.CHOICE,
                N_("The server's language: its games speak it unless both players chose another"),
                choices=LANGUAGE_PICKS,
            ),
            Option(
                "allow-channel",
                Kind.CHANNEL,
                N_("Let games start in this channel (then only in the listed ones)"),
            ),
            Option("disallow-channel", Kind.CHANNEL, N_("Stop games starting in this channel")),
            Option(
                "all-channels",
                Kind.FLAG,
                N_("Let games start in every channel again"),
                default=False,
            ),
            Option(
                "puzzle-channel",
                Kind.CHANNEL,
                N_("Post a puzzle of the day in this channel (reset:puzzle-channel stops it)"),
            ),
            Option(
                "puzzle-hour",
                Kind.CHOICE,
                N_("The hour of the puzzle of the day, in UTC"),
                choices=HOURS,
            ),
            Option(
                "reset", Kind.CHOICE, N_("Return one setting to the bot's default"), choices=RESETS
            ),
        ),
    ),
    Command(
        "puzzle",
        N_("A puzzle near your puzzle rating: find the only winning move (only you see it)"),
        _puzzle,
        (
            Option("variant", Kind.CHOICE, N_("The board (default: Shax)"), choices=VARIANTS),
            Option(
                "answer",
                Kind.TEXT,
                N_("Answer your open puzzle — start typing to see the legal actions"),
                max_length=MAX_ACTION_LENGTH,
                complete=lambda service, user, place, typed: service.puzzles.answer_choices(
                    user, typed
                ),
                notation=True,
            ),
            Option(
                "give-up",
                Kind.FLAG,
                N_("Give up your open puzzle and see its solution"),
                default=False,
            ),
            Option(
                "theme",
                Kind.CHOICE,
                N_("What the new puzzle is about (default: any theme)"),
                choices=PUZZLE_THEMES,
            ),
        ),
    ),
    Command(
        "theme",
        N_("Draw the boards you ask for dark or light"),
        _theme,
        (
            Option(
                "theme", Kind.CHOICE, N_("dark or light (leave out to see yours)"), choices=THEMES
            ),
        ),
    ),
    Command(
        "rules",
        N_("The rules in short, with the board's points"),
        _rules,
        (Option("variant", Kind.CHOICE, N_("Which game (default: Shax)"), choices=VARIANTS),),
    ),
    *TOURNAMENT_COMMANDS,
)
"""The commands, in the order Discord registers them and help lists them."""

BUTTONS: tuple[type[Button], ...] = (*TOURNAMENT_BUTTONS,)
"""The buttons the features declare (:mod:`bot.commands.buttons`), each a kind of its own."""

BY_NAME = {command.spelled: command for command in COMMANDS}


def command_named(name: str) -> Command | None:
    """The command called ``name`` (any case; a grouped one with its group's word first,
    ``tournament create``), if there is one."""
    return BY_NAME.get(" ".join(name.split()).lower())
