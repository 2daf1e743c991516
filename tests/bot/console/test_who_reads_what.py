"""Who reads what, in the console (bot/readers.py): whoever is at the keyboard reads
everything in their language — their own answers, the game's messages, the pictures, the
first line; a whole session after ``/shax language language:so`` has no English line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import renderer
from bot.service.facade import ShaxService
from tests.bot.conftest import ServiceFactory
from tests.bot.console.test_flows import make_console, typed
from tests.bot.console.test_session import run_console
from tests.services import assert_no_english

SOMALI_SESSION = """\
/shax play-bot level:easy variant:jar first:me
/shax move b2
/shax hint
/shax move zz
/shax move b2
/shax move c3-a1
/shax resign
/shax review
/shax rules
/shax streak
/shax leaderboard
/shax theme
/quit
"""


def test_a_whole_session_after_choosing_somali_has_no_english_line(tmp_path: Path) -> None:
    chose = run_console(tmp_path, "/shax language language:so\n/quit\n")
    assert chose.returncode == 0, chose.stderr
    result = run_console(tmp_path, SOMALI_SESSION)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in result.stderr
    lines = [line for line in out.splitlines() if line.strip()]
    # Rule 3: the first line too is in the language of whoever is at the keyboard.
    assert lines[0].startswith("Console-ka Shaxda"), lines[0]
    said = [line for line in lines if not line.startswith("[")]  # not the typed lines
    assert any("waa doorkaaga" in line for line in said)  # the moves
    assert any("Tilmaan 1 ka mid ah 3: " in line for line in said)  # the hint
    assert any("'zz' uma akhrin karo dhaqaaq" in line for line in said)  # a wrong move
    assert any("Waxaa guuleystay Bot-ka (fudud): Amina wuu isdhiibay" in line for line in said)
    assert any("Eegista Amina iyo Bot-ka (fudud)" in line for line in said)  # the review
    assert any(line.startswith("Jar (ciyaarta carruurta) — 3 dhagax") for line in said)
    assert any("guulaha isku xiga ee server-kan" in line for line in said)  # the streak
    assert any(line.startswith("Kaalinta sare") for line in said)  # the leaderboard
    assert any(
        "muuqaalka cad; ku dooro /shax theme: madow (dark), cad (light)" in line for line in said
    )
    for line in said:
        assert_no_english(line)


async def test_the_keyboard_reads_its_own_language_in_a_hot_seat_game(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    """Rules 1–3: Amina chose Somali, Bashir English; each reads the game's messages, and
    their own answers, in their own language while they have the keyboard."""
    drawn: list[str] = []

    def draw(variant: str, record: list[str], view: Any) -> bytes:
        drawn.append(view.language)
        return renderer.render_board(variant, record, view)

    service: ShaxService = await make_service(default_theme="light", render_board=draw)
    console, screen = make_console(service, tmp_path, "Amina")
    await typed(console, "/shax language so", "/as Bashir", "/shax language en", "/as Amina")
    screen.take()
    await typed(console, "/shax challenge opponent:@Bashir variant:jar")
    assert "Amina wuxuu kuugu yeerayaa ciyaar" in screen.take()  # Amina at the keyboard
    assert console.user.name == "Bashir"
    drawn.clear()
    await typed(console, "/shax accept")
    accepted = screen.take()
    assert "Bashir accepted Amina's challenge. @Amina — your turn" in accepted
    assert drawn == ["en"]  # rule 4: the picture of what Bashir reads is in English
    assert console.user.name == "Amina"
    await typed(console, "/shax move b2")
    assert "Amina wuxuu dhagax ku dhigay b2." in screen.take()
    assert drawn == ["en", "so"]
    await typed(console, "/shax move b2")  # Bashir's refusal, in English
    assert "✗ b2 is not allowed now" in screen.take()
    await typed(console, "/shax streak")
    assert "Bashir hasn't finished a game here yet." in screen.take()
    await typed(console, "/as Amina", "/shax streak")
    assert "Amina weli halkan ciyaar ma dhammaystirin." in screen.take()
