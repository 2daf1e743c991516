"""Acknowledging interactions in time: Discord drops one not answered within 3 seconds.

The service call starts at once; if it has not answered within ``ack_budget``
(1 s by default: a slow disk, a busy machine), or within a tenth of a second of
the service saying that the bot is thinking (the ``thinking`` callback each call is
handed), the interaction is
deferred — "thinking…" for a command, a deferred update for a click — and the
reply edits or follows up later. Quick answers (most moves, every refusal) are sent
directly, so refusals are always ephemeral and nothing flickers.

The first answer (a response or a deferral) must also be *delivered* within
``callback_window``: one still failing after it (a 5xx being retried, a rate limit that
does not clear) is given up with :class:`Undelivered`, and a deferral Discord would not
take ends the wait with :class:`TooLate`, which carries the service's reply so that
:class:`~bot.discord.respond.Responder` can still show it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.discord.context import ServiceCall
from bot.service.replies import Reply, UserError

log = logging.getLogger(__name__)

DEFAULT_ACK_BUDGET = 1.0
"""Seconds a service call may take before the interaction is deferred."""
DEFAULT_CALLBACK_WINDOW = 2.5
"""Seconds after an interaction arrives within which its first answer must be delivered:
Discord takes none after 3 s, so retrying a failing callback any longer only delays
placing the reply in the channel."""
SLOW_GRACE = 0.1
"""Once the service announces a slow answer (the bot thinks), the seconds it still
has to answer directly before the interaction is deferred."""
DEFERRAL_SECONDS = 0.3
"""The least time the callback window leaves a deferral after the ack budget."""
_DEADLINE = "shax_deadline"
"""The event-loop time by which the interaction's first answer must be delivered."""

T = TypeVar("T")


class InTime:
    """The clock of each interaction's first answer (a base of the responder)."""

    def __init__(
        self,
        *,
        ack_budget: float = DEFAULT_ACK_BUDGET,
        callback_window: float = DEFAULT_CALLBACK_WINDOW,
    ) -> None:
        self.ack_budget = ack_budget
        # A deferral comes after ack_budget; it still needs a moment to be delivered.
        self.callback_window = max(callback_window, ack_budget + DEFERRAL_SECONDS)

    def _start_clock(self, interaction: discord.Interaction[Any]) -> None:
        """Note when the interaction's first answer must have been delivered."""
        deadline = asyncio.get_running_loop().time() + self.callback_window
        interaction.extras.setdefault(_DEADLINE, deadline)

    async def _callback(self, interaction: discord.Interaction[Any], answer: Awaitable[T]) -> T:
        """Deliver the interaction's first answer, or raise :class:`Undelivered` once the
        callback window has passed (discord.py would retry a 5xx for 25 s)."""
        self._start_clock(interaction)
        left = interaction.extras[_DEADLINE] - asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(max(0.0, left)):
                return await answer
        except TimeoutError:
            raise Undelivered(interaction.id) from None

    async def _in_time(
        self,
        interaction: discord.Interaction[Any],
        call: ServiceCall,
        defer: Callable[[], Awaitable[Any]],
    ) -> Reply:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.ack_budget
        slow = asyncio.Event()
        task = asyncio.ensure_future(call(slow.set))
        announced = asyncio.ensure_future(slow.wait())
        try:
            await asyncio.wait(
                {task, announced}, timeout=self.ack_budget, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            announced.cancel()
        if not task.done() and slow.is_set():
            # The bot is thinking: a quick move is worth a moment's wait, a search is not.
            grace = min(SLOW_GRACE, max(0.0, deadline - loop.time()))
            await asyncio.wait({task}, timeout=grace)
        if not task.done():
            try:
                await self._callback(interaction, defer())
            except (discord.HTTPException, Undelivered) as exc:
                # Discord would not take the deferral (too late, a 5xx, a rate limit): the
                # action itself still completes, and its reply goes to the channel
                # (see Responder._fail).
                raise TooLate(await task, exc) from exc
            except BaseException:
                task.add_done_callback(_log_outcome)
                raise
        return await task


UNDELIVERED = "the answer to interaction {} was not delivered in time"


class Undelivered(Exception):
    """An interaction's first answer was not delivered within the callback window."""

    def __init__(self, interaction_id: int) -> None:
        super().__init__(UNDELIVERED.format(interaction_id))


class TooLate(Exception):
    """Discord would not take the deferral (too late, or failing); ``reply`` is the
    service's."""

    def __init__(self, reply: Reply, cause: Exception) -> None:
        super().__init__("interaction could not be acknowledged")
        self.reply = reply
        self.cause = cause


def _log_outcome(task: asyncio.Future[Reply]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, UserError):
        log.error("A late interaction's service call failed", exc_info=error)
