"""What the bot needs on a server: its permissions, from one list, and its invite link."""

from __future__ import annotations

import base64
import binascii

import discord

PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channels it is asked to play in
    send_messages=True,  # boards, challenges, notices
    send_messages_in_threads=True,  # games in threads
    create_public_threads=True,  # a game of its own when the channel is busy
    embed_links=True,  # the board picture sits in an embed
    attach_files=True,  # the board PNG and the replay GIF
)
"""Exactly the permissions the bot uses (it deletes and edits only its own messages,
which needs none, and pings players through allowed mentions, which needs none)."""

SCOPES = ("bot", "applications.commands")
"""``bot`` joins the server; ``applications.commands`` lets it register ``/shax``."""

PERMISSION_NAMES = {
    "read_messages": "View Channel",  # discord.py names View Channel so when listing
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def invite_url(application_id: int | None) -> str:
    """The link that adds the bot to a server with :data:`PERMISSIONS`; with no id yet,
    ``YOUR_APPLICATION_ID`` stands where the Developer Portal's Application ID goes."""
    client_id: int | str = application_id if application_id is not None else "YOUR_APPLICATION_ID"
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={client_id}&permissions={PERMISSIONS.value}&scope={'+'.join(SCOPES)}"
    )


def application_id_of(token: str | None) -> int | None:
    """The bot's id, which a token carries in its first part (for the invite link before
    logging in); ``None`` if it cannot be read."""
    if not token:
        return None
    first = token.split(".", 1)[0]
    try:
        text = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() else None


def missing(permissions: discord.Permissions, needed: discord.Permissions) -> list[str]:
    """The names of the ``needed`` permissions that ``permissions`` lacks."""
    return [
        PERMISSION_NAMES.get(name, name.replace("_", " ").title())
        for name, wanted in needed
        if wanted and not getattr(permissions, name)
    ]
