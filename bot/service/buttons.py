"""Buttons a feature declares, as a reply carries them: what a surface needs to show each
(the declaration itself, with what a press does, is :class:`bot.commands.buttons.Button`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Pressable(Protocol):
    """One declared button: its custom id, its label (a catalogue message), its look."""

    @property
    def custom_id(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def emoji(self) -> str | None: ...

    @property
    def primary(self) -> bool: ...


@dataclass(frozen=True)
class Buttons:
    """Declared buttons under a message, in one row, in this order."""

    items: tuple[Pressable, ...]
