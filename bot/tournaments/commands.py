"""The ``/shax tournament`` commands, declared once for every surface (the group
:data:`TOURNAMENT` and its commands, :data:`TOURNAMENT_COMMANDS`, listed in
:data:`bot.commands.table.COMMANDS`), and the Join button under a tournament's opening."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.commands.buttons import Button
from bot.commands.declare import Asked, Command, Group, Kind, Option, Pick
from bot.commands.picks import VARIANT
from bot.service.buttons import Buttons
from bot.service.replies import Reply
from bot.tournaments.rows import Format
from shax_i18n import N_

TOURNAMENT = Group("tournament", N_("Swiss and arena tournaments in this channel"))
MAX_NUMBER_LENGTH = 20

FORMATS = (
    Pick(Format.SWISS.value, N_("Swiss — rounds of players with equal scores")),
    Pick(Format.ARENA.value, N_("Arena — for a fixed time, paired again at once")),
)


@dataclass(frozen=True)
class JoinTournament(Button):
    """Join the tournament announced above (as ``/shax tournament join``)."""

    kind = "tjoin"
    label = N_("Join")
    primary = True
    tournament_id: int

    async def press(self, asked: Asked) -> Reply:
        return await asked.service.tournaments.join(asked.user, asked.place, self.tournament_id)


def _text(name: str, help: str, sample: str) -> Option:
    return Option(name, Kind.TEXT, help, max_length=MAX_NUMBER_LENGTH, too_long=None, sample=sample)


async def _create(a: Asked) -> Reply:
    tournaments = a.service.tournaments
    reply = await tournaments.create(
        a.user,
        a.place,
        format=a.text("format") or Format.SWISS.value,
        variant=a.text("variant") or "shax",
        rounds=a.text("rounds"),
        minutes=a.text("minutes"),
        turn=a.text("turn"),
        pause=a.text("pause"),
        start=a.text("start"),
    )
    made = await tournaments.here(a.place)
    return replace(reply, controls=Buttons((JoinTournament(made.id),)))


async def _join(a: Asked) -> Reply:
    return await a.service.tournaments.join(a.user, a.place)


async def _leave(a: Asked) -> Reply:
    return await a.service.tournaments.leave(a.user, a.place)


async def _start(a: Asked) -> Reply:
    return await a.service.tournaments.start(a.user, a.place, may_manage=a.may_change_settings)


async def _standings(a: Asked) -> Reply:
    return await a.service.tournaments.standings(a.place)


async def _cancel(a: Asked) -> Reply:
    return await a.service.tournaments.cancel(a.user, a.place, may_manage=a.may_change_settings)


TOURNAMENT_COMMANDS: tuple[Command, ...] = (
    Command(
        "create",
        N_("Make a tournament here: a Swiss of rounds, or an arena for a fixed time"),
        _create,
        (
            Option(
                "format",
                Kind.CHOICE,
                N_("Swiss (default) or arena"),
                default=Format.SWISS.value,
                choices=FORMATS,
            ),
            VARIANT,
            _text("rounds", N_("A Swiss's rounds, 1 to 15 (default 3)"), "3"),
            _text("minutes", N_("An arena's length in minutes, 5 to 720 (default 30)"), "30"),
            _text("turn", N_("The time a move may take, e.g. 3m (30s to 1h; default 5m)"), "5m"),
            _text("pause", N_("A Swiss's pause between rounds, e.g. 2m (default none)"), "2m"),
            _text(
                "start",
                N_("Start by itself after this long, e.g. 30m (default: when started)"),
                "30m",
            ),
        ),
        group=TOURNAMENT,
    ),
    Command("join", N_("Join the tournament here (an arena also later)"), _join, group=TOURNAMENT),
    Command(
        "leave",
        N_("Leave the tournament here (an arena: pause until you join again)"),
        _leave,
        group=TOURNAMENT,
    ),
    Command(
        "start",
        N_("Start the tournament here now (its creator, or Manage Server)"),
        _start,
        group=TOURNAMENT,
    ),
    Command(
        "standings",
        N_("The standings of the tournament here, with the tie-breaks"),
        _standings,
        group=TOURNAMENT,
    ),
    Command(
        "cancel",
        N_("Cancel the tournament here (its creator, or Manage Server)"),
        _cancel,
        group=TOURNAMENT,
    ),
)
"""The tournament group's commands, in the order Discord lists them."""

TOURNAMENT_BUTTONS: tuple[type[Button], ...] = (JoinTournament,)
