"""A reply ready for discord.py (:class:`DiscordMessage`): what the responder sends or edits,
made by :func:`bot.discord.render.to_discord`."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.service.replies import Attachment


@dataclass
class DiscordMessage:
    """A reply ready for discord.py: pass :meth:`send_kwargs` or :meth:`edit_kwargs`.

    ``discord.File`` objects are consumed by a request, so every call builds fresh ones.
    """

    content: str
    embeds: list[discord.Embed] = field(default_factory=list)
    attachments: tuple[Attachment, ...] = ()
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in self.attachments]

    def send_kwargs(self) -> dict[str, Any]:
        """For ``Messageable.send``, ``InteractionResponse.send_message`` and ``Webhook.send``
        (``ephemeral`` is added by the caller where it applies)."""
        kwargs: dict[str, Any] = {
            "content": self.content,
            "embeds": self.embeds,
            "files": self.files(),
            "allowed_mentions": self.mentions,
        }
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For every ``edit``: replaces the text, the pictures and the components."""
        return {
            "content": self.content,
            "embeds": self.embeds,
            "attachments": self.files(),
            "view": self.view,
            "allowed_mentions": self.mentions,
        }
