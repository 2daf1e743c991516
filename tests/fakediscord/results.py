"""What tests read back from the fake: messages, attachments, interaction results, violations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .limits import SELECT_TYPES, iter_components

if TYPE_CHECKING:
    from .models import FakeUser
    from .world import World

JSON = dict[str, Any]

EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass(frozen=True)
class Violation:
    """A request Discord would have refused (or a rule a bot broke), as recorded by the fake."""

    kind: str
    message: str
    status: int | None = None
    code: int | None = None
    route: str | None = None
    errors: JSON | None = None
    interaction_id: int | None = None

    def __str__(self) -> str:
        where = f" [{self.route}]" if self.route else ""
        code = f" (code {self.code})" if self.code is not None else ""
        return f"{self.kind}{code}{where}: {self.message}"


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request the fake answered."""

    method: str
    path: str
    status: int


@dataclass(frozen=True)
class FakeAttachment:
    """An uploaded file, with its bytes."""

    id: int
    filename: str
    size: int
    url: str
    content_type: str | None
    data: bytes
    description: str | None = None
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True)
class FakeMessage:
    """A snapshot of a stored message: its JSON payload plus the bytes of its attachments."""

    data: JSON
    attachments: tuple[FakeAttachment, ...] = ()
    deleted: bool = False
    pinged: tuple[int, ...] = ()
    """The users this message notified when it was created (see ``allowed_mentions``)."""

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def author_id(self) -> int:
        return int(self.data["author"]["id"])

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking…") response has not been edited yet."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return self.data.get("edited_timestamp") is not None

    def all_components(self) -> list[JSON]:
        """Every component, including those nested in rows and containers."""
        return list(iter_components(self.components))

    def custom_ids(self) -> list[str]:
        return [
            c["custom_id"] for c in self.all_components() if isinstance(c.get("custom_id"), str)
        ]

    def component(self, custom_id: str) -> JSON:
        for component in self.all_components():
            if component.get("custom_id") == custom_id:
                return component
        raise LookupError(
            f"message {self.id} has no component {custom_id!r}; has {self.custom_ids()}"
        )

    def buttons(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") in SELECT_TYPES]

    def attachment(self, filename: str) -> FakeAttachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise LookupError(f"message {self.id} has no attachment {filename!r}; has {names}")


class InteractionNotAcknowledged(AssertionError):
    """The bot did not acknowledge a simulated interaction before the deadline."""


@dataclass(eq=False)
class InteractionResult:
    """The life of one simulated interaction: acknowledgement, response message, edits, follow-ups.

    ``message`` and the shortcuts below always show the current state of the original response
    (for a component interaction answered with type 6 or 7, the clicked message).
    """

    world: World = field(repr=False)
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    payload: JSON = field(repr=False)
    label: str
    dispatched_at: float = 0.0
    acknowledged_at: float | None = None
    response_type: int | None = None
    response_data: JSON | None = field(default=None, repr=False)
    original_message_id: int | None = None
    component_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    edit_count: int = 0
    choices: list[JSON] | None = None
    modal: JSON | None = field(default=None, repr=False)
    expired: bool = False
    violations: list[Violation] = field(default_factory=list)
    shards: tuple[tuple[int, int] | None, ...] = ()
    """The shard — ``(shard_id, shard_count)``, or ``None`` for an unsharded session — of
    each gateway session the interaction was dispatched to (Discord: exactly one)."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def message(self) -> FakeMessage | None:
        if self.original_message_id is None:
            return None
        return self.world.snapshot(self.original_message_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.world.snapshot(message_id) for message_id in self.followup_ids]

    @property
    def flags(self) -> int:
        message = self.message
        if message is not None:
            return message.flags
        return int((self.response_data or {}).get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str | None:
        message = self.message
        return None if message is None else message.content

    @property
    def embeds(self) -> list[JSON]:
        message = self.message
        return [] if message is None else message.embeds

    @property
    def components(self) -> list[JSON]:
        message = self.message
        return [] if message is None else message.components

    @property
    def attachments(self) -> tuple[FakeAttachment, ...]:
        message = self.message
        return () if message is None else message.attachments

    async def wait_until(
        self, predicate: Callable[[InteractionResult], object], timeout: float = 5.0
    ) -> InteractionResult:
        """Wait until ``predicate(self)`` is true."""
        await self.world.wait_for(lambda: predicate(self), timeout=timeout, what=f"{self.label}")
        return self

    async def wait_for_response(self, timeout: float = 5.0) -> FakeMessage:
        """The original response once it exists and is no longer "thinking" (deferred)."""

        def ready() -> FakeMessage | None:
            message = self.message
            return message if message is not None and not message.loading else None

        return await self.world.wait_for(ready, timeout=timeout, what=f"response to {self.label}")

    async def wait_for_edit(self, count: int = 1, timeout: float = 5.0) -> FakeMessage:
        """The original response after it has been edited ``count`` times in total."""

        def edited() -> FakeMessage | None:
            return self.message if self.edit_count >= count else None

        return await self.world.wait_for(
            edited, timeout=timeout, what=f"edit #{count} of {self.label}"
        )

    async def wait_for_followup(self, count: int = 1, timeout: float = 5.0) -> FakeMessage:
        """The ``count``-th follow-up message."""

        def arrived() -> FakeMessage | None:
            ids = self.followup_ids
            return self.world.snapshot(ids[count - 1]) if len(ids) >= count else None

        return await self.world.wait_for(
            arrived, timeout=timeout, what=f"follow-up #{count} of {self.label}"
        )
