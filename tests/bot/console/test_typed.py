"""Options typed at the console, read from the command table: by name, by position, as
Discord writes them, and refused in words when they cannot be read."""

from __future__ import annotations

from pathlib import Path

from bot.service.facade import ShaxService
from tests.bot.console.test_flows import HERE, make_console, typed


async def test_options_by_position_fill_the_declared_order(
    service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(service, tmp_path)
    await typed(console, "/shax challenge @Bashir jar")
    assert screen.take().startswith(
        "@Bashir, amina challenges you to a game of Jar (children's game)!"
    )
    assert console.user.name == "Bashir"  # the challenged player answers
    await typed(console, "/shax accept")
    assert console.variant.id == "jar"


async def test_unknown_options_and_unreadable_values_are_refused(
    service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(service, tmp_path)
    await typed(console, "/shax rules varaint:jar", "/shax board jar:x")
    assert screen.take().splitlines() == [
        "✗ /shax rules has no option varaint — its options: variant.",
        "✗ /shax board takes no options.",
    ]
    await typed(console, "/shax move " + "a1-" * 10)
    assert screen.take() == (
        "✗ That is far too long to be a move. Moves look like d7 (place), a7-d7 (move) or "
        "xg1 (remove) — start typing and pick one of the suggestions."
    )


async def test_help_for_one_command_lists_its_options(service: ShaxService, tmp_path: Path) -> None:
    console, screen = make_console(service, tmp_path)
    await typed(console, "/help settings")
    lines = screen.take().splitlines()
    assert lines[0].startswith("/shax settings […] — This server's Shax settings")
    assert "  turn-timeout:12h  Time to move before the turn is forfeited, e.g. 12h, 2d" in (
        "\n".join(lines)
    )
    assert "  all-channels:true  Let games start in every channel again" in lines
    await typed(console, "/help castle")
    assert screen.take().startswith("✗ Unknown command /shax castle — choose one of: challenge")


async def test_completion_offers_every_options_values(service: ShaxService, tmp_path: Path) -> None:
    console, _ = make_console(service, tmp_path)
    assert console.completions("/shax settings th") == ["threads:", "theme:"]
    assert console.completions("/shax settings threads:") == [
        "threads:busy",
        "threads:always",
        "threads:never",
    ]
    assert console.completions("/shax settings all-channels:") == [
        "all-channels:true",
        "all-channels:false",
    ]
    assert console.completions("/shax settings allow-channel:") == [
        f"allow-channel:#{HERE.channel_id}"
    ]
    assert console.completions("/help se") == ["settings"]


async def test_completed_names_are_the_ones_the_command_reads(
    service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(service, tmp_path)
    console.person("Cawo Ali")
    # A challenge is for people: not oneself, and not the bot (/shax play-bot plays it).
    assert console.completions("/shax challenge opponent:@") == ["opponent:'@Cawo Ali'"]
    # Elsewhere the bot is a player like the others; a name with a space comes quoted.
    assert console.completions("/shax streak user:@Sh") == ["user:'@Shax bot'"]
    assert console.completions("/as Ca") == ["'Cawo Ali'"]
    # What was offered is read back as offered.
    await typed(console, "/shax streak user:'@Shax bot'")
    assert "✗" not in screen.take()
    await typed(console, "/shax challenge opponent:'@Cawo Ali'")
    assert screen.take().startswith("@Cawo Ali, amina challenges you to a game of Shax")
