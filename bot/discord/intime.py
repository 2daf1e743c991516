"""Answering interactions in time: Discord drops one not answered within 3 seconds.

A command or a click comes in here (:meth:`InTime.command`, :meth:`InTime.click`): the
service call starts at once, and its pictures are drawn as soon as it answers; if that
has not finished within ``ack_budget`` (1 s by default: a slow disk, a busy machine), or
within a tenth of a second of the service saying that the bot is thinking (the
``thinking`` callback each call is handed), the interaction is deferred — "thinking…"
for a command, a deferred update for a click — and the reply edits or follows up later.
Quick answers (most moves, every refusal) are sent directly, so refusals are always
ephemeral and nothing flickers.

The first answer (a response or a deferral) must also be *delivered* within
``callback_window``: one still failing after it (a 5xx being retried, a rate limit that
does not clear) is given up with :class:`Undelivered`, and a deferral Discord would not
take ends the wait with :class:`TooLate`, which carries the service's reply so that
:class:`~bot.discord.respond.Responder` can still show it.

What happens next is each its own job: placing the reply (:mod:`bot.discord.placing`),
and reporting a failure or posting what could not be placed
(:mod:`bot.discord.respond`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import discord

from bot.discord.context import Placement, ServiceCall
from bot.service.replies import Reply, Said, Thinking, UserError

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
PUBLIC_DEFER = "shax_public_defer"
"""Set on an interaction while its answer is a public "thinking…" message."""
_DEADLINE = "shax_deadline"
"""The event-loop time by which the interaction's first answer must be delivered."""

T = TypeVar("T")


class _Answering:
    """The interactions being answered now: how many, whether none, and each one's end."""

    def __init__(self) -> None:
        self.active = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self.answering: set[asyncio.Event] = set()


class InTime:
    """Each interaction's first answer, in time, and which are being answered now (the
    base of the responder: :class:`~bot.discord.placing.Placing` places a reply,
    :class:`~bot.discord.respond.Responder` reports and reposts)."""

    def __init__(
        self,
        *,
        ack_budget: float = DEFAULT_ACK_BUDGET,
        callback_window: float = DEFAULT_CALLBACK_WINDOW,
    ) -> None:
        self.ack_budget = ack_budget
        # A deferral comes after ack_budget; it still needs a moment to be delivered.
        self.callback_window = max(callback_window, ack_budget + DEFERRAL_SECONDS)

    @functools.cached_property
    def _now(self) -> _Answering:
        return _Answering()

    @contextlib.contextmanager
    def _tracked(self) -> Iterator[None]:
        now = self._now
        answered = asyncio.Event()
        now.answering.add(answered)
        now.active += 1
        now.idle.clear()
        try:
            yield
        finally:
            now.active -= 1
            if now.active == 0:
                now.idle.set()
            now.answering.discard(answered)
            answered.set()

    @property
    def busy(self) -> bool:
        """Whether an interaction is still being answered (its reply placed and reported)."""
        return self._now.active > 0

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no interaction is being answered; ``False`` if ``timeout`` passed first.
        Shutdown waits here so a move in progress is shown before the connection closes."""
        try:
            async with asyncio.timeout(timeout):
                await self._now.idle.wait()
        except TimeoutError:
            return False
        return True

    async def wait_answered(self, timeout: float) -> bool:
        """Wait until the interactions being answered now are answered (not those that
        come later, so a busy server cannot keep the caller waiting); ``False`` if
        ``timeout`` passed first. A reconciliation waits here: each of those answers
        shows its own board."""
        waiting = [asyncio.ensure_future(answered.wait()) for answered in self._now.answering]
        if not waiting:
            return True
        _, pending = await asyncio.wait(waiting, timeout=timeout)
        for still in pending:
            still.cancel()
        return not pending

    # -- entry points: a command, a click ------------------------------------------------

    async def command(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        """Answer a slash command with the reply of ``call``; errors are reported here (the
        tree's ``on_error`` reports those raised before, such as bad options)."""

        async def defer() -> None:
            await interaction.response.defer(thinking=True)
            interaction.extras[PUBLIC_DEFER] = True

        self._start_clock(interaction)
        # Reported inside the tracked block, so "idle" means the user has seen the answer.
        with self._tracked():
            reply: Reply | None = None
            try:
                reply = await self._in_time(interaction, call, defer)
                await self._command_reply(interaction, reply)
            except Exception as error:
                await self._fail(interaction, error, reply)

    async def click(
        self,
        interaction: discord.Interaction[Any],
        call: ServiceCall,
        placement: Placement,
        *,
        receipt: Said | None = None,
    ) -> None:
        """Answer a component click with the reply of ``call``; errors are reported here.
        ``receipt`` closes an ephemeral picker (:data:`bot.discord.placing.DONE` by default)."""
        self._start_clock(interaction)
        with self._tracked():
            reply: Reply | None = None
            try:
                reply = await self._in_time(interaction, call, interaction.response.defer)
                await self._click_reply(interaction, reply, placement, receipt)
            except Exception as error:
                await self._fail(interaction, error, reply)

    # -- what the responder does once the service has answered ---------------------------

    async def _drawn(self, interaction: discord.Interaction[Any], reply: Reply) -> Reply:
        """``reply``'s pictures drawn in its reader's language (:mod:`bot.discord.placing`)."""
        raise NotImplementedError

    async def _command_reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        """Place a command's reply (:mod:`bot.discord.placing`)."""
        raise NotImplementedError

    async def _click_reply(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        placement: Placement,
        receipt: Said | None,
    ) -> None:
        """Place a click's reply (:mod:`bot.discord.placing`)."""
        raise NotImplementedError

    async def _fail(
        self, interaction: discord.Interaction[Any], error: Exception, reply: Reply | None
    ) -> None:
        """Report a failure, or post a reply that could not be placed
        (:mod:`bot.discord.respond`)."""
        raise NotImplementedError

    # -- the clock ---------------------------------------------------------------------

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

    async def _answer(
        self, interaction: discord.Interaction[Any], call: ServiceCall, thinking: Thinking
    ) -> Reply:
        """The service's reply, its pictures drawn: within the time the answer is given, so
        a slow drawing is deferred like a slow move."""
        return await self._drawn(interaction, await call(thinking))

    async def _in_time(
        self,
        interaction: discord.Interaction[Any],
        call: ServiceCall,
        defer: Callable[[], Awaitable[Any]],
    ) -> Reply:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.ack_budget
        slow = asyncio.Event()
        task = asyncio.ensure_future(self._answer(interaction, call, slow.set))
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
