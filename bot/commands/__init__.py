"""The ``/shax`` commands, declared once (:mod:`bot.commands.table`) for every surface."""

from bot.commands.buttons import Button
from bot.commands.declare import Asked, Command, Group, Kind, Option, Pick, Value
from bot.commands.table import BUTTONS, COMMANDS, command_named

__all__ = [
    "BUTTONS",
    "COMMANDS",
    "Asked",
    "Button",
    "Command",
    "Group",
    "Kind",
    "Option",
    "Pick",
    "Value",
    "command_named",
]
