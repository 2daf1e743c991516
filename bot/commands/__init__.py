"""The ``/shax`` commands, declared once (:mod:`bot.commands.table`) for every surface."""

from bot.commands.declare import Asked, Command, Group, Kind, Option, Pick, Value
from bot.commands.table import COMMANDS, command_named

__all__ = [
    "COMMANDS",
    "Asked",
    "Command",
    "Group",
    "Kind",
    "Option",
    "Pick",
    "Value",
    "command_named",
]
