"""How a feature declares a button: its custom id's template, its label, what a press asks.

A button is a frozen dataclass whose fields are the numbers its custom id carries, like
discord.py's ``DynamicItem`` examples keep the template inside the class::

    @dataclass(frozen=True)
    class JoinTournament(Button):
        kind = "tjoin"
        label = N_("Join")
        tournament_id: int

        async def press(self, asked: Asked) -> Reply:
            return await asked.service.tournaments.join(asked.user, asked.place, self.tournament_id)

A reply shows it with ``controls=Buttons((JoinTournament(7),))``; every surface builds it
from the declaration (Discord registers one dynamic item per declared kind, so a click on
a message posted before a restart still reaches it). The declared buttons are listed in
:data:`bot.commands.table.BUTTONS`. Nothing here knows Discord.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.commands.declare import Asked
from bot.service.replies import Reply

PREFIX = "shax"
"""Every custom id of the bot starts with ``shax:``."""


@dataclass(frozen=True)
class Button:
    """One kind of button; an instance is one button (its numbers filled in)."""

    kind: ClassVar[str]
    """The custom id's kind: ``shax:<kind>:<each field>``; unique among the bot's ids."""
    label: ClassVar[str]
    """Its label: a catalogue message."""
    emoji: ClassVar[str | None] = None
    primary: ClassVar[bool] = False
    """Drawn as the message's main action (Discord's blurple) rather than grey."""
    replaces: ClassVar[bool] = False
    """Its reply replaces the message it is under (else it comes as a new message; an
    ephemeral reply is shown to the presser alone either way)."""

    @classmethod
    def numbers(cls) -> tuple[str, ...]:
        """The names of the numbers its custom id carries, in order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def template(cls) -> str:
        """The regex its custom ids match (``shax:tjoin:(?P<tournament_id>[0-9]+)``)."""
        return ":".join(
            [PREFIX, re.escape(cls.kind), *(f"(?P<{name}>[0-9]+)" for name in cls.numbers())]
        )

    @classmethod
    def parsed(cls, groups: Mapping[str, str]) -> Self:
        """The button a custom id matched by :meth:`template` names."""
        return cls(**{name: int(groups[name]) for name in cls.numbers()})

    @property
    def custom_id(self) -> str:
        values = (str(getattr(self, name)) for name in self.numbers())
        return ":".join([PREFIX, self.kind, *values])

    async def press(self, asked: Asked) -> Reply:
        """What a press asks of the service (who pressed, where), and the answer."""
        raise NotImplementedError
