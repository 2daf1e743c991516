"""Service replies as Discord messages: the one place that builds content, images and components.

Commands, component clicks and notices all go through :func:`to_discord`, so every
message the bot sends respects Discord's limits (content ≤ 2000 characters, ≤ 25
select options, ≤ 5 rows, custom ids ≤ 100) and pings only ``Reply.mentions``.

Pictures: a PNG board (``board.png``, or the rules' ``board-points.png``) is shown as
the image of an embed (``attachment://…``) so the text above it stays short and the
picture keeps its place when the message is edited; any other attachment (the replay
GIF at the end of a game) is attached as a plain file under it.
"""

from __future__ import annotations

import discord

from bot.discord import components as c
from bot.discord import game_buttons as g
from bot.discord import puzzle_components as p
from bot.discord.declared import declared_item
from bot.discord.message import DiscordMessage
from bot.service.buttons import Buttons
from bot.service.replies import (
    Attachment,
    BoardControls,
    ChallengeControls,
    Channel,
    Choice,
    Controls,
    DailyControls,
    DestinationControls,
    PuzzleControls,
    Reply,
    Said,
    User,
)
from bot.words.terms import Surface
from bot.words.voice import Voice
from shax_i18n import Translator

MAX_CONTENT = 2000
MAX_CHOICES = 25
"""Discord's limit for select options and autocomplete choices."""
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_ROWS = 5
MAX_EMBED_DESCRIPTION = 4096
ELLIPSIS = "…"
BOARD_COLOUR = discord.Colour(0xC8963E)
"""The colour of the board's embed: the sand of a board drawn on the ground."""


def truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, at a line or word break when one is near,
    ending with an ellipsis so the reader sees that something was left out."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(ELLIPSIS)]
    for separator in ("\n", " ", ","):
        at = cut.rfind(separator)
        if at >= limit * 3 // 4:
            cut = cut[:at]
            break
    return cut.rstrip(" ,;\n") + ELLIPSIS


def mention(user: User) -> str:
    """A player as Discord writes one in a message: a mention (a bot by its name)."""
    return user.name if user.is_bot else f"<@{user.id}>"


def channel_link(channel: Channel) -> str:
    return f"<#{channel.id}>"


def voice(t: Translator) -> Voice:
    """How the Discord adapter speaks to a reader of ``t``'s language."""
    return Voice(t, mention, channel_link, Surface.DISCORD)


def allowed_mentions(reply: Reply) -> discord.AllowedMentions:
    """Ping exactly the users the service named; never @everyone, roles or a replied user."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=user_id) for user_id in reply.mentions],
    )


def is_image(attachment: Attachment) -> bool:
    return attachment.filename.lower().endswith(".png")


def to_discord(reply: Reply, speaking: Voice) -> DiscordMessage:
    """The Discord message for a service reply whose pictures are drawn
    (:func:`bot.service.replies.drawn`), its words and controls in ``speaking``'s language."""
    files = tuple(a for a in reply.attachments if isinstance(a, Attachment))
    embeds: list[discord.Embed] = []
    image = next((a for a in files if is_image(a)), None)
    if image is not None:
        embed = discord.Embed(colour=BOARD_COLOUR)
        embed.set_image(url=f"attachment://{image.filename}")
        embeds.append(embed)
    return DiscordMessage(
        content=truncate(speaking.say(reply.text), MAX_CONTENT),
        embeds=embeds,
        attachments=files,
        view=build_view(reply.controls, speaking),
        mentions=allowed_mentions(reply),
    )


def text_only(text: str) -> DiscordMessage:
    """A short message with no pictures or components (refusals, receipts)."""
    return DiscordMessage(content=truncate(text, MAX_CONTENT))


# -- components ------------------------------------------------------------------------------


def select_options(choices: tuple[Choice, ...], speaking: Voice) -> list[discord.SelectOption]:
    """At most 25 options with unique values; labels and descriptions cut to 100 characters."""
    options: list[discord.SelectOption] = []
    seen: set[str] = set()
    for choice in choices:
        value = choice.value[:MAX_OPTION_TEXT]
        if not value or value in seen:
            continue
        seen.add(value)
        options.append(
            discord.SelectOption(
                label=truncate(choice.label or choice.value, MAX_OPTION_TEXT),
                value=value,
                description=_words(choice.description, speaking, MAX_OPTION_TEXT),
            )
        )
        if len(options) == MAX_CHOICES:
            break
    return options


def _words(said: Said | None, speaking: Voice, limit: int) -> str | None:
    return truncate(speaking.say(said), limit) or None if said is not None else None


def build_view(controls: Controls | None, speaking: Voice) -> discord.ui.View | None:
    """The components for a reply's controls: persistent (no timeout), routed by custom id;
    their labels in ``speaking``'s language."""
    if controls is None:
        return None
    t = speaking.t
    view = discord.ui.View(timeout=None)
    if isinstance(controls, BoardControls):
        menu = controls.menu(MAX_CHOICES)
        options = select_options(menu.choices, speaking)
        if options and not controls.over:
            placeholder = _words(menu.placeholder, speaking, MAX_PLACEHOLDER) or (
                t.gettext("Choose a stone to move…")
                if menu.two_step
                else t.gettext("Choose your move…")
            )
            view.add_item(
                c.ActSelect(
                    controls.game_id,
                    controls.version,
                    options=options,
                    placeholder=truncate(placeholder, MAX_PLACEHOLDER),
                    row=0,
                )
            )
        game, version = controls.game_id, controls.version
        if not controls.over:
            view.add_item(c.ResignButton(game, version, row=1, t=t))
            if controls.draw_offered_by is not None:
                view.add_item(c.DrawButton(game, version, accept=True, row=1, t=t))
                view.add_item(c.NoDrawButton(game, version, row=1, t=t))
            elif controls.can_offer_draw:
                view.add_item(c.DrawButton(game, version, row=1, t=t))
        if controls.rematch:
            view.add_item(g.RematchButton(game, row=1, t=t))
            view.add_item(g.ReviewButton(game, row=1, t=t))
    elif isinstance(controls, DestinationControls):
        options = select_options(controls.choices, speaking)
        if options:
            view.add_item(
                c.ToSelect(
                    controls.game_id, controls.version, controls.src, options=options, row=0, t=t
                )
            )
    elif isinstance(controls, ChallengeControls):
        view.add_item(g.AcceptButton(controls.challenge_id, row=0, t=t))
        view.add_item(g.DeclineButton(controls.challenge_id, row=0, t=t))
    elif isinstance(controls, PuzzleControls):
        _puzzle_items(view, controls, speaking)
    elif isinstance(controls, DailyControls):
        view.add_item(p.SolveDailyButton(controls.daily_id, row=0, t=t))
    elif isinstance(controls, Buttons):
        for button in controls.items:
            view.add_item(declared_item(button, t, row=0))
    return view if view.children else None


def _puzzle_items(view: discord.ui.View, controls: PuzzleControls, speaking: Voice) -> None:
    """An open puzzle's answers and its *Show the solution*; a finished one's *Next puzzle*."""
    t = speaking.t
    if controls.over:
        view.add_item(p.NextPuzzleButton(controls.attempt_id, row=0, t=t))
        return
    placeholder = _words(controls.placeholder, speaking, MAX_PLACEHOLDER)
    options = select_options(controls.choices, speaking)
    view.add_item(
        p.PuzzleSelect(
            controls.attempt_id, controls.version, options=options, placeholder=placeholder, row=0
        )
    )
    view.add_item(p.GiveUpButton(controls.attempt_id, row=1, t=t))
