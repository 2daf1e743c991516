"""The console in Somali: a whole game through standard input with ``--lang so``, and
``/shax language`` changing what one player reads."""

from __future__ import annotations

from pathlib import Path

from tests.bot.console.test_session import SCRIPT, run_console

ENGLISH = (
    "your turn",
    "challenges you",
    " wins:",
    "is not allowed now",
    "Board image",
    "Good game",
    "Legal:",
    "It's Bashir's turn",
)


def test_a_whole_jar_game_in_somali_through_standard_input(tmp_path: Path) -> None:
    result = run_console(tmp_path, SCRIPT, "--lang", "so")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert out.startswith("Console-ka Shaxda")
    assert "Amarrada (sida Discord):" in out  # the help
    assert "@Bashir, Amina wuxuu kuugu yeerayaa ciyaar Jar (ciyaarta carruurta) ah!" in out
    assert "Ku jawaab /shax accept ama /shax decline muddo 10 daqiiqo gudaheed." in out
    assert "Bashir wuxuu aqbalay loolanka Amina. @Amina — waa doorkaaga (cad ○)" in out
    assert "[Amina] /shax move a2\n✗ a2 hadda lama oggola: a2 horey waa loo qabsaday" in out
    assert "[Bashir] /shax move zz\n✗ 'zz' uma akhrin karo dhaqaaq: qor meel (b2)" in out
    assert "[Amina] /shax move b1-c1\n✗ Waa doorka Bashir — sug dhaqaaqiisa." in out
    assert "Amina wuxuu dhaqaajiyay a3-b3. Waxaa guuleystay Amina: saddex isku xariiq ah." in out
    assert "Amina: 1 isku xiga — saddex kale ayaa gal ka dhiman." in out
    assert "Ciyaar wanaagsan, @Amina iyo @Bashir!" in out
    assert "Ciyaartii way dhammaatay — /shax rematch si aad mar kale u ciyaarto." in out
    assert "Jar (ciyaarta carruurta) — 3 dhagax midkiiba, shaxda 3×3 ah." in out  # the rules
    assert "Ciyaaraha dadka: 1 guul, 0 guuldarro, 0 barbaro" in out  # the streak
    assert "1. Amina — 1 isku xiga" in out  # the leaderboard
    assert out.count("Sawirka shaxda: ") == 11 and out.count("Dib u eegis: ") == 1
    for english in ENGLISH:
        assert english not in out, english


def test_the_language_command_changes_what_that_player_reads(tmp_path: Path) -> None:
    script = """\
/shax language language:klingon
/shax language language:so
/shax move d7
/shax language en
/shax move d7
/shax language
/quit
"""
    result = run_console(tmp_path, script)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "✗ Unknown language 'klingon' — choose one of: en (English), so (Soomaali)." in out
    assert "(adiga oo keliya ayaa arkaya) Luqadda: Soomaali. Mid kale ku dooro /shax language." in (
        out
    )
    assert "✗ Kanaalkan ciyaar kuma socoto. Ku bilow /shax challenge" in out
    assert "(only you see this) Language: English. Choose another with /shax language." in out
    assert "✗ There is no game in this channel." in out
    assert "✗ Say which language: /shax language language:en|so." in out


def test_the_choice_is_remembered_by_the_database(tmp_path: Path) -> None:
    assert run_console(tmp_path, "/shax language so\n/quit\n").returncode == 0
    out = run_console(tmp_path, "/shax move d7\n/quit\n").stdout
    assert "✗ Kanaalkan ciyaar kuma socoto." in out
