"""Settings: defaults, every variable, and one clear sentence for a bad one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
ROOT = Path(__file__).resolve().parents[2]


def load(**env: str) -> Settings:
    return load_settings(env, dotenv_path=None)


def test_defaults() -> None:
    s = load()
    assert s.discord_token is None and not s.has_token
    assert s.db_path == Path("shax.db")
    assert s.dev_guild_id is None
    assert s.api_base_url == "https://discord.com/api/v10"
    assert s.gateway_url == "wss://gateway.discord.gg"
    assert (s.challenge_expiry_seconds, s.turn_timeout_seconds) == (600, 86_400)
    assert s.ai_workers >= 1 and s.shards is None and s.sync_commands == "auto"
    assert s.log_level == "INFO"


def test_every_setting_is_read(tmp_path: Path) -> None:
    s = load(
        DISCORD_TOKEN=TOKEN,
        SHAX_DB_PATH=str(tmp_path / "x.db"),
        SHAX_DEV_GUILD_ID="123456789012345678",
        DISCORD_API_BASE_URL="http://127.0.0.1:8080/api/v10/",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:8080/gateway",
        SHAX_CHALLENGE_EXPIRY_SECONDS="120",
        SHAX_TURN_TIMEOUT_SECONDS="3600",
        SHAX_TICK_SECONDS="0.5",
        SHAX_AI_WORKERS="3",
        SHAX_PICTURE_WORKERS="4",
        SHAX_REPLAY_WORKERS="2",
        SHAX_SHARDS="2",
        SHAX_SYNC_COMMANDS="yes",
        SHAX_LOG_LEVEL="debug",
    )
    assert s.discord_token == TOKEN and s.has_token
    assert s.db_path == tmp_path / "x.db"
    assert s.dev_guild_id == 123456789012345678
    assert s.api_base_url == "http://127.0.0.1:8080/api/v10"
    assert s.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert (s.challenge_expiry_seconds, s.turn_timeout_seconds, s.ai_workers) == (120, 3600, 3)
    assert (s.shards, s.sync_commands, s.log_level) == (2, "always", "DEBUG")
    assert s.tick_seconds == 0.5
    assert (s.picture_workers, s.replay_workers) == (4, 2)


def test_dotenv_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("SHAX_AI_WORKERS=4\nSHAX_LOG_LEVEL=WARNING\n# a comment\nSHAX_SHARDS=\n")
    s = load_settings({"SHAX_LOG_LEVEL": "ERROR"}, dotenv_path=env_file)
    assert (s.ai_workers, s.log_level, s.shards) == (4, "ERROR", None)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("SHAX_DEV_GUILD_ID", "my-server", "SHAX_DEV_GUILD_ID must be a Discord server id"),
        ("SHAX_CHALLENGE_EXPIRY_SECONDS", "ten", "must be a whole number"),
        ("SHAX_TURN_TIMEOUT_SECONDS", "0", "greater than 0"),
        ("SHAX_TICK_SECONDS", "often", "must be a number of seconds, such as 30 or 0.5"),
        ("SHAX_TICK_SECONDS", "0", "more than 0 and at most 3600 seconds"),
        ("SHAX_AI_WORKERS", "500", "between 1 and 64"),
        ("SHAX_PICTURE_WORKERS", "0", "between 1 and 64"),
        ("SHAX_REPLAY_WORKERS", "two", "must be a whole number"),
        ("SHAX_SHARDS", "-1", "greater than 0"),
        ("SHAX_SYNC_COMMANDS", "maybe", "auto, always, never"),
        ("SHAX_LOG_LEVEL", "LOUD", "SHAX_LOG_LEVEL must be one of"),
        ("DISCORD_API_BASE_URL", "discord.com/api", "starting with http:// or https://"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg", "starting with ws:// or wss://"),
        ("SHAX_DB_PATH", "/no/such/dir/shax.db", "does not exist"),
    ],
)
def test_malformed_setting_is_one_sentence(name: str, value: str, words: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(**{name: value, "DISCORD_TOKEN": TOKEN})
    message = str(info.value)
    assert words in message
    assert message.endswith(".") and "\n" not in message
    assert TOKEN not in message


@pytest.mark.parametrize("bad", ['"' + TOKEN + '"', "Bot " + TOKEN, TOKEN + " extra", "abc"])
def test_malformed_token_is_refused_without_echoing_it(bad: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(DISCORD_TOKEN=bad)
    assert "DISCORD_TOKEN" in str(info.value)
    assert TOKEN not in str(info.value) and "abc" not in str(info.value)


def test_token_is_not_in_the_repr() -> None:
    assert TOKEN not in repr(load(DISCORD_TOKEN=TOKEN))


def _run_bot(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "none.env"), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", **env},
        timeout=60,
    )


def test_sync_without_a_token_says_how_to_add_one(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, {}, "sync")
    assert result.returncode == 2
    assert "No Discord token is configured" in result.stderr
    assert "Add DISCORD_TOKEN to .env (see .env.example)" in result.stderr
    assert "Traceback" not in result.stderr


def test_main_with_a_bad_setting_prints_one_sentence_and_exits_2(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, {"DISCORD_TOKEN": TOKEN, "SHAX_AI_WORKERS": "lots"})
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "shax-bot: SHAX_AI_WORKERS must be a whole number, not 'lots'."
    )
    assert TOKEN not in result.stderr + result.stdout


def test_a_postgresql_url_is_the_bot_s_database_and_never_printed(tmp_path: Path) -> None:
    url = "postgresql://shax:s3cret@db.example:5432/shax"
    s = load(SHAX_DATABASE_URL=url, SHAX_DB_PATH=str(tmp_path / "console.db"))
    assert s.database == url and s.database_url == url
    assert s.db_path == tmp_path / "console.db"  # the console's file stays
    assert "s3cret" not in repr(s)


def test_a_sqlite_url_names_the_file(tmp_path: Path) -> None:
    s = load(SHAX_DATABASE_URL=f"sqlite:///{tmp_path / 'x.db'}", SHAX_DB_PATH="ignored.db")
    assert s.database == s.db_path == tmp_path / "x.db" and s.database_url is None
    assert load().database == Path("shax.db")


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://root:hunter2@host/db", "postgresql://user:password@host/database"),
        ("sqlite:///no/such/dir/x.db", "SHAX_DATABASE_URL is 'no/such/dir/x.db'"),
        ("postgresql://", "or sqlite:///path (a file)"),
    ],
)
def test_a_bad_database_url_names_the_two_kinds(url: str, words: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)) as caught:
        load(SHAX_DATABASE_URL=url)
    assert "hunter2" not in str(caught.value)


def test_env_example_documents_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    for name in (
        "DISCORD_TOKEN",
        "SHAX_DB_PATH",
        "SHAX_DATABASE_URL",
        "SHAX_BACKUP_DIR",
        "SHAX_BACKUP_KEEP",
        "SHAX_DEV_GUILD_ID",
        "DISCORD_API_BASE_URL",
        "DISCORD_GATEWAY_URL",
        "SHAX_CHALLENGE_EXPIRY_SECONDS",
        "SHAX_TURN_TIMEOUT_SECONDS",
        "SHAX_TICK_SECONDS",
        "SHAX_AI_WORKERS",
        "SHAX_PICTURE_WORKERS",
        "SHAX_REPLAY_WORKERS",
        "SHAX_SHARDS",
        "SHAX_SYNC_COMMANDS",
        "SHAX_LOG_LEVEL",
    ):
        assert f"{name}=" in text, name
    loaded = load_settings({}, dotenv_path=ROOT / ".env.example")
    assert loaded == load()  # the example's values are the defaults


def test_no_token_prints_the_invite_link_before_the_console(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "none.env")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        input="/quit\n",
        timeout=60,
    )
    assert result.returncode == 0
    assert "https://discord.com/oauth2/authorize?client_id=YOUR_APPLICATION_ID" in result.stderr
    assert "scope=bot+applications.commands" in result.stderr
    assert "Traceback" not in result.stderr


def test_game_threads_setting_is_one_of_three(tmp_path: Path) -> None:
    assert load(SHAX_GAME_THREADS="Always").game_threads == "always"
    assert load().game_threads == "busy"
    with pytest.raises(ConfigError, match="SHAX_GAME_THREADS must be one of busy, always, never"):
        load(SHAX_GAME_THREADS="sometimes")


def test_shard_ids_name_this_process_shards() -> None:
    settings = load(SHAX_SHARDS="4", SHAX_SHARD_IDS="2, 0")
    assert settings.shards == 4 and settings.shard_ids == (0, 2)
    assert load(SHAX_SHARDS="4").shard_ids is None
    with pytest.raises(ConfigError, match="needs SHAX_SHARDS"):
        load(SHAX_SHARD_IDS="0")
    with pytest.raises(ConfigError, match="from 0 to 3"):
        load(SHAX_SHARDS="4", SHAX_SHARD_IDS="4")
    with pytest.raises(ConfigError, match="separated by commas"):
        load(SHAX_SHARDS="4", SHAX_SHARD_IDS="one")
