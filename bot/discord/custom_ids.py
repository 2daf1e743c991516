"""Custom ids of the board's components: one template per kind of control.

Every custom id starts with ``shax:``, fits in 100 characters, and carries the game and
its version (or the challenge, the puzzle's try, the puzzle of the day), so a click on any
message — also one posted before a restart — is routed by its template to the right game
(see :mod:`bot.discord.components` and :mod:`bot.discord.puzzle_components`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.commands.table import BUTTONS

CUSTOM_ID_MAX = 100

TEMPLATES: dict[str, str] = {
    "act": r"shax:act:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "to": r"shax:to:(?P<game_id>[0-9]+):(?P<version>[0-9]+):(?P<src>[a-z][0-9]+)",
    "resign": r"shax:resign:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "draw": r"shax:draw:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "nodraw": r"shax:nodraw:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "rematch": r"shax:rematch:(?P<game_id>[0-9]+)",
    "review": r"shax:review:(?P<game_id>[0-9]+)",
    "accept": r"shax:accept:(?P<challenge_id>[0-9]+)",
    "decline": r"shax:decline:(?P<challenge_id>[0-9]+)",
    "puzzle": r"shax:puzzle:(?P<attempt_id>[0-9]+):(?P<version>[0-9]+)",
    "giveup": r"shax:giveup:(?P<attempt_id>[0-9]+)",
    "nextpuzzle": r"shax:nextpuzzle:(?P<attempt_id>[0-9]+)",
    "daily": r"shax:daily:(?P<daily_id>[0-9]+)",
}
"""Regexes for ``discord.ui.DynamicItem(template=...)``, one per kind of control."""

_COMPILED = {kind: re.compile(pattern) for kind, pattern in TEMPLATES.items()}


def act_id(game_id: int, version: int) -> str:
    """The select of legal actions (or of stones, in a two-step move)."""
    return f"shax:act:{game_id}:{version}"


def to_id(game_id: int, version: int, src: str) -> str:
    """The select of destinations for the stone on ``src``."""
    return f"shax:to:{game_id}:{version}:{src}"


def resign_id(game_id: int, version: int) -> str:
    return f"shax:resign:{game_id}:{version}"


def draw_id(game_id: int, version: int) -> str:
    """Offer a draw, or accept the one on the table."""
    return f"shax:draw:{game_id}:{version}"


def nodraw_id(game_id: int, version: int) -> str:
    """Decline the draw on the table."""
    return f"shax:nodraw:{game_id}:{version}"


def rematch_id(game_id: int) -> str:
    return f"shax:rematch:{game_id}"


def review_id(game_id: int) -> str:
    return f"shax:review:{game_id}"


def accept_id(challenge_id: int) -> str:
    return f"shax:accept:{challenge_id}"


def decline_id(challenge_id: int) -> str:
    return f"shax:decline:{challenge_id}"


def puzzle_id(attempt_id: int, version: int) -> str:
    """The select of a puzzle's legal actions, at the moment ``version`` of the try."""
    return f"shax:puzzle:{attempt_id}:{version}"


def giveup_id(attempt_id: int) -> str:
    return f"shax:giveup:{attempt_id}"


def nextpuzzle_id(attempt_id: int) -> str:
    return f"shax:nextpuzzle:{attempt_id}"


def daily_id(daily: int) -> str:
    """The *Solve it* button under a puzzle of the day."""
    return f"shax:daily:{daily}"


@dataclass(frozen=True)
class CustomId:
    """A parsed custom id: ``kind`` is a key of :data:`TEMPLATES`."""

    kind: str
    game_id: int | None = None
    version: int | None = None
    src: str | None = None
    challenge_id: int | None = None
    attempt_id: int | None = None
    daily_id: int | None = None


def parse_custom_id(custom_id: str) -> CustomId | None:
    """Read a custom id built by the functions above; ``None`` if it is not one of ours."""
    for kind, pattern in _COMPILED.items():
        m = pattern.fullmatch(custom_id)
        if m is None:
            continue
        groups = m.groupdict()
        numbers = {k: int(v) for k, v in groups.items() if k != "src"}
        return CustomId(kind=kind, src=groups.get("src"), **numbers)
    return None


_DECLARED = [re.compile(button.template()) for button in BUTTONS]
"""The templates of the buttons the features declare (:mod:`bot.commands.buttons`)."""


def is_ours(custom_id: str) -> bool:
    """Whether a click on ``custom_id`` reaches one of the bot's components (the same
    test discord.py makes: a template matches all of it)."""
    return parse_custom_id(custom_id) is not None or any(
        pattern.fullmatch(custom_id) for pattern in _DECLARED
    )


def destination_action(src: str, value: str) -> str:
    """The move for a destination select's value: ``d7`` → ``a7-d7``; full actions pass."""
    if "-" in value or value.startswith("x"):
        return value
    return f"{src}-{value}"
