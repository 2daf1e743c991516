"""Buttons declared with their features become Discord components generically: the
custom id and its template come from the declaration, a click is routed back to it (also
on a message posted before a restart), and its label is said in the reader's language."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.commands import BUTTONS, Asked, Button
from bot.discord import declared as declared_module
from bot.discord.custom_ids import CUSTOM_ID_MAX, TEMPLATES, is_ours
from bot.discord.declared import DECLARED_ITEMS, dynamic_item
from bot.discord.items import DYNAMIC_ITEMS
from bot.discord.render import build_view, voice
from bot.service.buttons import Buttons
from bot.service.replies import Reply, Said
from shax_i18n import translator

BIG = 2**62


@dataclass(frozen=True)
class Knock(Button):
    kind = "knock"
    label = "Join"
    emoji = "🚪"
    primary = True
    door_id: int
    visit: int

    async def press(self, asked: Asked) -> Reply:
        return Reply(text=Said.message("Join"))


def test_a_declared_button_names_its_numbers_in_its_custom_id_and_reads_them_back() -> None:
    button = Knock(door_id=BIG, visit=3)
    assert Knock.template() == r"shax:knock:(?P<door_id>[0-9]+):(?P<visit>[0-9]+)"
    assert button.custom_id == f"shax:knock:{BIG}:3"
    assert len(button.custom_id) <= CUSTOM_ID_MAX
    match = re.fullmatch(Knock.template(), button.custom_id)
    assert match is not None and Knock.parsed(match.groupdict()) == button


async def test_its_component_carries_the_declaration_and_a_click_reads_it_back() -> None:
    item_type = dynamic_item(Knock)
    item = item_type(Knock(7, 1), label="Ku biir", row=0)
    assert (item.item.custom_id, item.item.label, item.item.style, str(item.item.emoji)) == (
        "shax:knock:7:1",
        "Ku biir",
        discord.ButtonStyle.primary,
        "🚪",
    )
    match = re.fullmatch(Knock.template(), "shax:knock:7:2")
    assert match is not None
    clicked: Any = await item_type.from_custom_id(None, item.item, match)  # type: ignore[arg-type]
    assert clicked.button == Knock(7, 2)
    assert item_type.__name__ == "KnockItem"


def test_a_reply_s_declared_buttons_are_drawn_in_its_reader_s_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(DECLARED_ITEMS, Knock, dynamic_item(Knock))
    somali = voice(translator("so"))
    view = build_view(Buttons((Knock(7, 1),)), somali)
    assert view is not None
    [button] = view.to_components()[0]["components"]
    assert button["custom_id"] == "shax:knock:7:1"
    assert button["label"] == somali.t.gettext("Join")
    assert declared_module.declared_item(Knock(7, 1), somali.t, row=0).item.row == 0


def test_every_declared_button_is_a_kind_of_its_own_that_the_bot_answers() -> None:
    kinds = [button.kind for button in BUTTONS]
    assert len(set(kinds)) == len(kinds)
    assert not set(kinds) & set(TEMPLATES)
    for button in BUTTONS:
        assert DYNAMIC_ITEMS[button.kind] is DECLARED_ITEMS[button]
        sample = button.parsed(dict.fromkeys(button.numbers(), str(BIG)))
        assert is_ours(sample.custom_id) and len(sample.custom_id) <= CUSTOM_ID_MAX
