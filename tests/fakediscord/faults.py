"""Fault injection for the fake's REST API: make chosen routes fail, or answer late.

A test switches faults on with :meth:`Faults.add` (``fake.faults.add(...)``) and off
with :meth:`Faults.clear`; the REST middleware asks :meth:`Faults.match` before
handling each request. A failing request is answered the way Discord answers it and
is *not* handled, so nothing changes in the world (no message is posted, no
interaction acknowledged):

* any other status: ``{"message": "500: Internal Server Error", "code": 0}`` (discord.py
  retries a 500, 502 and 504, sleeping 1, 3, 5… seconds; a 403 is ``Forbidden``);
* a 429 from Discord's rate limiter: ``retry_after`` in the body and the headers, and
  ``Via`` (discord.py sleeps and retries, five times at most);
* a 429 without ``Via`` (``via=False``): Cloudflare's ban, which discord.py does not
  retry.

A fault with ``status=None`` only waits ``delay`` seconds, then the request is handled
as usual (a slow Discord). Faults never count as violations: they are the test's own.

:class:`QuickerRetries` shortens the pauses of discord.py's HTTP client in this process
(its retries of a 5xx: 1, 3, 5, 7 and 9 seconds), for a test that is about what follows
the last retry, not about how long the retries take.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

CALLBACKS = r"^/interactions/"
"""Interaction callbacks (the first answer to an interaction)."""
WEBHOOKS = r"^/webhooks/"
"""Follow-ups and edits of an interaction's messages."""
CHANNEL_MESSAGES = r"^/channels/\d+/messages"
"""Posting, editing and deleting messages in channels."""
ANSWERS = (CALLBACKS, WEBHOOKS, CHANNEL_MESSAGES)
"""Every way the bot shows something in a channel."""


@dataclass
class Fault:
    """Requests whose method is ``method`` (``"*"``: any) and whose path below the API
    prefix matches ``route`` (a regular expression) fail with ``status`` after
    ``delay`` seconds, ``times`` times (``None``: until cleared)."""

    route: str
    status: int | None = 500
    method: str = "*"
    delay: float = 0.0
    times: int | None = None
    retry_after: float = 0.05
    via: bool = True
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        return self.method in ("*", method) and re.search(self.route, path) is not None

    def answer(self) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Discord's answer for this fault: status, JSON body, headers."""
        assert self.status is not None
        if self.status != 429:
            reason = HTTPStatus(self.status).phrase
            return self.status, {"message": f"{self.status}: {reason}", "code": 0}, {}
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after}
        headers = {"Retry-After": f"{self.retry_after:g}", "X-RateLimit-Scope": "user"}
        if self.via:
            headers["Via"] = "1.1 google"
        return 429, {**body, "global": False}, headers


@dataclass
class Faults:
    """The faults switched on, and how many requests they failed or delayed."""

    active: list[Fault] = field(default_factory=list)
    injected: int = 0

    def add(
        self,
        *routes: str,
        status: int | None = 500,
        method: str = "*",
        delay: float = 0.0,
        times: int | None = None,
        retry_after: float = 0.05,
        via: bool = True,
    ) -> list[Fault]:
        """Switch on one :class:`Fault` per route, each with the same settings."""
        added = [Fault(route, status, method, delay, times, retry_after, via) for route in routes]
        self.active.extend(added)
        return added

    def clear(self) -> None:
        """Switch every fault off: Discord answers normally again."""
        self.active.clear()

    def match(self, method: str, path: str) -> Fault | None:
        """The first fault for this request (counted as a hit), or ``None``."""
        for fault in self.active:
            if fault.matches(method, path):
                fault.hits += 1
                self.injected += 1
                return fault
        return None


class QuickerRetries:
    """Stands for the ``asyncio`` module inside ``discord.http`` with every pause
    ``factor`` as long (``monkeypatch.setattr(discord.http, "asyncio",
    QuickerRetries(0.1))``): the same requests, retried as often, in the same order."""

    def __init__(self, factor: float) -> None:
        self.factor = factor

    async def sleep(self, delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay * self.factor, result)

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)
