"""The console's help says whether master is at full strength: every endgame table it
uses built, or growing as the background build lands them."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from bot.service.facade import ShaxService
from bot.words.strength import strength_words
from engine.tables.missing import SMALL_BOARDS, build_missing
from shax_i18n import translator
from tests.bot.console.test_flows import make_console, typed


async def test_help_says_master_lacks_tables_and_how_to_build_them(
    service: ShaxService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path / "tables"))
    console, screen = make_console(service, tmp_path)
    await typed(console, "/help")
    assert screen.take().splitlines()[-1] == (
        "Master plays without some of its endgame tables: python -m engine.tables build "
        "builds them (python -m engine.tables missing lists them)."
    )


async def test_help_says_when_master_is_at_full_strength(
    service: ShaxService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.tables import missing

    folder = tmp_path / "tables"
    monkeypatch.setenv("SHAX_TABLES_DIR", str(folder))
    build_missing(folder, SMALL_BOARDS, lambda text: None, threads=2)
    # shax's tables take minutes: here the small boards stand for every board
    monkeypatch.setattr(missing, "missing_work", partial(missing.missing_work, boards=SMALL_BOARDS))
    console, screen = make_console(service, tmp_path)
    await typed(console, "/shax")
    assert screen.take().splitlines()[-1] == (
        "Master plays at full strength: every endgame table it uses is built."
    )


def test_while_the_build_runs_the_words_say_how_long_until_full_strength() -> None:
    assert strength_words(85 * 60 + 20, building=True, t=translator("en")) == (
        "Master gets stronger as its endgame tables are built in the background: full "
        "strength after about 85 minutes of processor time."
    )
    somali = strength_words(85 * 60, building=True, t=translator("so"))
    assert "85 daqiiqo" in somali and "Master" not in somali
