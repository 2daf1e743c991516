"""Every dynamic item of the bot, by the kind of its custom id's template: one per kind of
:data:`bot.discord.custom_ids.TEMPLATES`, and one per button a feature declares
(:data:`bot.commands.BUTTONS`), registered in ``setup_hook``."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.declared import DECLARED_ITEMS
from bot.discord.game_buttons import GAME_ITEMS
from bot.discord.puzzle_components import PUZZLE_ITEMS

DYNAMIC_ITEMS: dict[str, type[discord.ui.DynamicItem[Any]]] = {
    **GAME_ITEMS,
    **PUZZLE_ITEMS,
    **{button.kind: item for button, item in DECLARED_ITEMS.items()},
}
