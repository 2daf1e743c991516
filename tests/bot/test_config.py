"""Settings: one declaration each, read from the environment and ``.env`` alike; one
sentence for a bad value (exit status 2), the file and line for a bad ``.env`` line, the
nearest real name for a misspelt one, and never a secret in what is printed."""

from __future__ import annotations

import inspect
import logging
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

import engine.ai.core
import engine.tables
from bot.config import (
    DEFAULTS,
    ConfigError,
    Settings,
    allowed,
    env_example,
    load_settings,
    names,
)
from bot.service.facade import ShaxService
from tests.bot.console.test_terminal import Terminal

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
ROOT = Path(__file__).resolve().parents[2]
FIELDS = {field.validation_alias: field for field in Settings.model_fields.values()}


def load(**env: str) -> Settings:
    return load_settings(env, dotenv_path=None)


def refusal(**env: str) -> str:
    with pytest.raises(ConfigError) as info:
        load(**env)
    return str(info.value)


def test_defaults() -> None:
    s = load()
    assert s == DEFAULTS == Settings()
    assert s.discord_token is None and not s.has_token
    assert s.db_path == Path("shax.db")
    assert s.dev_guild_id is None
    assert s.api_base_url == "https://discord.com/api/v10"
    assert s.gateway_url == "wss://gateway.discord.gg"
    assert (s.challenge_expiry_seconds, s.turn_timeout_seconds) == (600, 86_400)
    assert s.ai_workers >= 1 and s.shards is None and s.sync_commands == "auto"
    assert s.log_level == "INFO"
    assert s.tables_dir is None and s.ai_backend is None


def test_every_setting_is_read(tmp_path: Path) -> None:
    every = {
        "DISCORD_TOKEN": TOKEN,
        "SHAX_DB_PATH": str(tmp_path / "x.db"),
        "SHAX_DATABASE_URL": "postgresql://shax@db.example/shax",
        "SHAX_BACKUP_DIR": str(tmp_path / "backups"),
        "SHAX_BACKUP_KEEP": "3",
        "SHAX_DEV_GUILD_ID": "123456789012345678",
        "DISCORD_API_BASE_URL": "http://127.0.0.1:8080/api/v10/",
        "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
        "SHAX_CHALLENGE_EXPIRY_SECONDS": "120",
        "SHAX_TURN_TIMEOUT_SECONDS": "3600",
        "SHAX_TICK_SECONDS": "0.5",
        "SHAX_AI_WORKERS": "3",
        "SHAX_PICTURE_WORKERS": "4",
        "SHAX_REPLAY_WORKERS": "2",
        "SHAX_SHARDS": "2",
        "SHAX_SHARD_IDS": "1",
        "SHAX_SYNC_COMMANDS": "yes",
        "SHAX_GAME_THREADS": "never",
        "SHAX_LANGUAGE": "so",
        "SHAX_PUZZLE_HOUR": "18",
        "SHAX_LOG_LEVEL": "debug",
        "SHAX_TABLES_DIR": str(tmp_path / "tables"),
        "SHAX_AI_BACKEND": "Python",
        "SHAX_BUILD_TABLES": "small",
    }
    assert sorted(every) == sorted(names())
    s = load(**every)
    assert s.discord_token == TOKEN and s.has_token
    assert s.db_path == tmp_path / "x.db"
    assert s.database == s.database_url == "postgresql://shax@db.example/shax"
    assert (s.backup_dir, s.backup_keep) == (tmp_path / "backups", 3)
    assert s.dev_guild_id == 123456789012345678
    assert s.api_base_url == "http://127.0.0.1:8080/api/v10"
    assert s.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert (s.challenge_expiry_seconds, s.turn_timeout_seconds, s.ai_workers) == (120, 3600, 3)
    assert (s.shards, s.shard_ids, s.sync_commands, s.log_level) == (2, (1,), "always", "DEBUG")
    assert s.tick_seconds == 0.5
    assert (s.picture_workers, s.replay_workers) == (4, 2)
    assert (s.game_threads, s.language, s.puzzle_hour) == ("never", "so", 18)
    assert (s.tables_dir, s.ai_backend) == (tmp_path / "tables", "python")
    assert s.build_tables == "small"


def test_dotenv_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "SHAX_AI_WORKERS=4\nSHAX_LOG_LEVEL=WARNING\n# a comment\nSHAX_SHARDS=\n"
        'export SHAX_GAME_THREADS="always"\nshax_language = so\n'
    )
    s = load_settings({"SHAX_LOG_LEVEL": "ERROR", "SHAX_AI_WORKERS": " "}, dotenv_path=env_file)
    assert (s.ai_workers, s.log_level, s.shards) == (4, "ERROR", None)
    assert (s.game_threads, s.language) == ("always", "so")


@pytest.mark.parametrize(
    ("name", "value", "sentence"),
    [
        (
            "SHAX_DEV_GUILD_ID",
            "my-server",
            "SHAX_DEV_GUILD_ID must be a Discord server id (a number), not 'my-server'.",
        ),
        (
            "SHAX_CHALLENGE_EXPIRY_SECONDS",
            "ten",
            "SHAX_CHALLENGE_EXPIRY_SECONDS must be a whole number from 1 to 604800, not 'ten'.",
        ),
        (
            "SHAX_TURN_TIMEOUT_SECONDS",
            "0",
            "SHAX_TURN_TIMEOUT_SECONDS must be a whole number from 1 to 2592000, not '0'.",
        ),
        (
            "SHAX_TICK_SECONDS",
            "often",
            "SHAX_TICK_SECONDS must be a number more than 0 and at most 3600, not 'often'.",
        ),
        (
            "SHAX_TICK_SECONDS",
            "0",
            "SHAX_TICK_SECONDS must be a number more than 0 and at most 3600, not '0'.",
        ),
        (
            "SHAX_AI_WORKERS",
            "500",
            "SHAX_AI_WORKERS must be a whole number from 1 to 64, not '500'.",
        ),
        ("SHAX_SHARDS", "-1", "SHAX_SHARDS must be a whole number from 1 to 10000, not '-1'."),
        (
            "SHAX_SYNC_COMMANDS",
            "maybe",
            "SHAX_SYNC_COMMANDS must be one of auto, always, never, not 'maybe'.",
        ),
        (
            "SHAX_LOG_LEVEL",
            "LOUD",
            "SHAX_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'LOUD'.",
        ),
        ("SHAX_LANGUAGE", "fr", "SHAX_LANGUAGE must be one of en, so, not 'fr'."),
        ("SHAX_AI_BACKEND", "rust", "SHAX_AI_BACKEND must be one of c, python, not 'rust'."),
        (
            "DISCORD_API_BASE_URL",
            "discord.com/api",
            "DISCORD_API_BASE_URL must be a URL starting with http:// or https://, "
            "not 'discord.com/api'.",
        ),
        (
            "DISCORD_GATEWAY_URL",
            "https://gateway.discord.gg",
            "DISCORD_GATEWAY_URL must be a URL starting with ws:// or wss://, "
            "not 'https://gateway.discord.gg'.",
        ),
        (
            "SHAX_DB_PATH",
            "/no/such/dir/shax.db",
            "SHAX_DB_PATH is '/no/such/dir/shax.db', but the directory '/no/such/dir' does not "
            "exist; create it or choose another path.",
        ),
        (
            "SHAX_BACKUP_DIR",
            "/no/such/dir/backups",
            "SHAX_BACKUP_DIR is '/no/such/dir/backups', but '/no/such/dir' does not exist; "
            "create it or choose another folder.",
        ),
        (
            "SHAX_TABLES_DIR",
            "/no/such/dir/tables",
            "SHAX_TABLES_DIR is '/no/such/dir/tables', but '/no/such/dir' does not exist; "
            "create it or choose another folder.",
        ),
        (
            "SHAX_TABLES_DIR",
            "/etc/hostname",
            "SHAX_TABLES_DIR is '/etc/hostname', which is a file; name a folder.",
        ),
    ],
)
def test_malformed_setting_is_one_sentence(name: str, value: str, sentence: str) -> None:
    assert refusal(**{name: value, "DISCORD_TOKEN": TOKEN}) == sentence


def test_every_bad_choice_or_number_names_the_setting_the_value_and_the_range() -> None:
    for name, field in FIELDS.items():
        extra = field.json_schema_extra
        assert isinstance(extra, dict) and isinstance(name, str)
        if "enum" in extra or field.metadata:
            message = refusal(**{name: "bogus"})
            assert message == f"{name} must be {allowed(field)}, not 'bogus'.", message


def test_several_bad_values_are_one_sentence_each() -> None:
    message = refusal(SHAX_AI_WORKERS="lots", SHAX_LANGUAGE="fr", SHAX_TICK_SECONDS="-1")
    assert message.splitlines() == [
        "SHAX_TICK_SECONDS must be a number more than 0 and at most 3600, not '-1'.",
        "SHAX_AI_WORKERS must be a whole number from 1 to 64, not 'lots'.",
        "SHAX_LANGUAGE must be one of en, so, not 'fr'.",
    ]


@pytest.mark.parametrize("bad", ['"' + TOKEN + '"', "Bot " + TOKEN, TOKEN + " extra", "abc"])
def test_malformed_token_is_refused_without_echoing_it(bad: str) -> None:
    message = refusal(DISCORD_TOKEN=bad)
    assert message.startswith("DISCORD_TOKEN ") and message.endswith(".")
    assert TOKEN not in message and "abc" not in message


def test_secrets_are_not_in_the_repr() -> None:
    url = "postgresql://shax:s3cret@db.example/shax?password=an0ther"
    shown = repr(load(DISCORD_TOKEN=TOKEN, SHAX_DATABASE_URL=url)) + str(DEFAULTS)
    assert TOKEN not in shown and "s3cret" not in shown and "an0ther" not in shown


def test_a_postgresql_url_is_the_bot_s_database(tmp_path: Path) -> None:
    url = "postgresql://shax:s3cret@db.example:5432/shax"
    s = load(SHAX_DATABASE_URL=url, SHAX_DB_PATH=str(tmp_path / "console.db"))
    assert s.database == url and s.database_url == url
    assert s.db_path == tmp_path / "console.db"  # the console's file stays


def test_a_sqlite_url_names_the_file(tmp_path: Path) -> None:
    s = load(SHAX_DATABASE_URL=f"sqlite:///{tmp_path / 'x.db'}", SHAX_DB_PATH="ignored.db")
    assert s.database == s.db_path == tmp_path / "x.db" and s.database_url is None
    assert load().database == Path("shax.db")


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://root:hunter2@host/db?password=hunter3", "not a URL starting with 'mysql'."),
        ("sqlite:///no/such/dir/x.db", "SHAX_DATABASE_URL is 'no/such/dir/x.db'"),
        ("postgresql://", "or sqlite:///path (a file), not a URL starting with 'postgresql'."),
    ],
)
def test_a_bad_database_url_names_the_two_kinds_and_no_password(url: str, words: str) -> None:
    message = refusal(SHAX_DATABASE_URL=url)
    assert words in message and "\n" not in message
    assert "hunter" not in message


def test_env_example_is_written_from_the_declarations() -> None:
    text = (ROOT / ".env.example").read_text()
    assert text == env_example(), "run: python3 -m bot.config > .env.example"
    # Every declared setting, once, after its doc, at its default; and nothing else.
    assigned = re.findall(r"^([A-Z_]+)=(.*)$", text, re.MULTILINE)
    assert [name for name, _ in assigned] == list(names())
    for name, value in assigned:
        field = FIELDS[name]
        comment = text.split(f"\n{name}=")[0].rsplit("\n\n", 1)[-1]
        assert " ".join(comment.replace("# ", "").split()).startswith(
            " ".join(str(field.description).split())
        ), name
        assert (value == "") == (field.default is None), name
    assert load_settings({}, dotenv_path=ROOT / ".env.example") == DEFAULTS


def test_a_misspelt_setting_is_warned_about_with_the_nearest_name(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# settings\nSHAX_LANGAUGE=so\nDISCORD_TOKNE=x\nSHAX_ZZZ=1\nOTHER=2\n")
    warned: list[str] = []
    s = load_settings(
        {"SHAX_AI_WORKES": "3", "DISCORD_WEBHOOK": "kept", "SHAX_LANGUAGE": "en"},
        dotenv_path=env_file,
        warn=warned.append,
    )
    assert s == DEFAULTS
    where = str(env_file.absolute())
    assert warned == [
        f"SHAX_LANGAUGE ({where}, line 2) is not a setting of this bot; "
        "did you mean SHAX_LANGUAGE?",
        f"DISCORD_TOKNE ({where}, line 3) is not a setting of this bot; "
        "did you mean DISCORD_TOKEN?",
        f"SHAX_ZZZ ({where}, line 4) is not a setting of this bot; "
        "the settings are listed in .env.example.",
        "SHAX_AI_WORKES (in the environment) is not a setting of this bot; "
        "did you mean SHAX_AI_WORKERS?",
    ]


def test_a_misspelt_setting_goes_to_the_log_by_default(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.config"):
        load(SHAX_LANGAUGE="so")
    assert "did you mean SHAX_LANGUAGE?" in caplog.text


@pytest.mark.parametrize(
    ("lines", "sentence"),
    [
        (
            "SHAX_AI_WORKERS=2\nthis is not a setting\n",
            "Line 2 of {path} is not NAME=value: write each setting as NAME=value (quote a "
            "value with spaces), and start a comment with #.",
        ),
        (
            "=5\n# ok\nDISCORD_TOKEN='unterminated\n",
            "Lines 1 and 3 of {path} are not NAME=value: write each setting as NAME=value "
            "(quote a value with spaces), and start a comment with #.",
        ),
    ],
)
def test_a_bad_env_line_names_the_file_and_the_line(
    tmp_path: Path, lines: str, sentence: str, caplog: pytest.LogCaptureFixture
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(lines)
    with pytest.raises(ConfigError) as info:
        load_settings({}, dotenv_path=env_file)
    assert str(info.value) == sentence.format(path=env_file.absolute())
    assert "could not parse" not in caplog.text


def test_an_unreadable_env_file_is_one_sentence(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_bytes(b"SHAX_LANGUAGE=\xff\xfe\n")
    with pytest.raises(ConfigError, match=r"cannot be read: it is not UTF-8 text\.$"):
        load_settings({}, dotenv_path=env_file)


def test_the_engine_settings_are_put_into_the_process_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"SHAX_TABLES_DIR={tmp_path / 'tables'}\nSHAX_AI_BACKEND=Python\n")
    for name in ("SHAX_TABLES_DIR", "SHAX_AI_BACKEND"):
        monkeypatch.setenv(name, "")  # restored (or removed) after the test
        monkeypatch.delenv(name)
    load_settings({}, dotenv_path=env_file)  # a given environment is left alone
    assert "SHAX_TABLES_DIR" not in os.environ and "SHAX_AI_BACKEND" not in os.environ
    load_settings(dotenv_path=env_file)
    assert engine.tables.tables_dir() == tmp_path / "tables"
    assert engine.ai.core.choose_backend(os.environ["SHAX_AI_BACKEND"]).name == "python"


def engine_view(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    """What the engine of an AI worker uses (a chooser, so it runs where moves are chosen)."""
    choice = engine.ai.core.backend_choice()
    found = engine.tables.open_tables(variant) is not None
    return f"{choice.name} forced={choice.forced} {engine.tables.tables_dir()} tables={found}"


WORKER = """
import asyncio
from bot.config import load_settings
from bot.workers.ai import AIPool
from tests.bot.test_config import engine_view

load_settings()
pool = AIPool(1, chooser=engine_view)
print(asyncio.run(pool.processes.run(engine_view, "jar", (), "easy", 0)))
pool.shutdown()
"""


def test_engine_settings_in_env_reach_the_ai_workers(tmp_path: Path) -> None:
    """``SHAX_TABLES_DIR`` and ``SHAX_AI_BACKEND`` in ``.env`` (and nowhere else) change
    the search and the tables of the bot's AI worker processes."""
    tables = tmp_path / "tables"
    engine.tables.build("jar", 3, tables, threads=1)
    home = tmp_path / "home"
    home.mkdir()

    def worker_sees(env_text: str) -> str:
        (tmp_path / ".env").write_text(env_text)
        result = subprocess.run(
            [sys.executable, "-c", WORKER],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(home)},
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    default = worker_sees("SHAX_LANGUAGE=so\n")
    assert default.endswith(f"forced=False {home}/.cache/shax/tables tables=False")
    assert worker_sees(f"SHAX_TABLES_DIR={tables}\nSHAX_AI_BACKEND=python\n") == (
        f"python forced=True {tables} tables=True"
    )


def _run_bot(
    tmp_path: Path, env: dict[str, str], *args: str, env_file: str = "none.env", stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", env_file, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "SHAX_BUILD_TABLES": "off",
            **env,
        },
        input=stdin,
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
        "shax-bot: SHAX_AI_WORKERS must be a whole number from 1 to 64, not 'lots'."
    )
    assert TOKEN not in result.stderr + result.stdout


def test_main_with_bad_values_in_env_file_exits_2_with_a_sentence_each(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\nSHAX_AI_BACKEND=fast\nSHAX_TABLES_DIR=.env\n"
    )
    result = _run_bot(tmp_path, {}, env_file=".env")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "shax-bot: SHAX_TABLES_DIR is '.env', which is a file; name a folder.",
        "shax-bot: SHAX_AI_BACKEND must be one of c, python, not 'fast'.",
    ]
    assert result.stdout == ""


def test_main_with_a_bad_env_line_names_it_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"# my settings\nDISCORD_TOKEN {TOKEN}\n")
    result = _run_bot(tmp_path, {}, env_file=".env")
    assert result.returncode == 2
    assert result.stderr == (
        f"shax-bot: Line 2 of {tmp_path / '.env'} is not NAME=value: write each setting as "
        "NAME=value (quote a value with spaces), and start a comment with #.\n"
    )
    assert TOKEN not in result.stderr and "python-dotenv" not in result.stderr


def test_main_warns_about_a_misspelt_name_and_starts(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SHAX_LANGAUGE=so\n")
    result = _run_bot(
        tmp_path,
        {"SHAX_DATABSE_URL": "postgresql://u:s3cret@h/db"},
        "local",
        env_file=".env",
        stdin="/quit\n",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert (
        f"shax-bot: SHAX_LANGAUGE ({tmp_path / '.env'}, line 1) is not a setting of this bot; "
        "did you mean SHAX_LANGUAGE?"
    ) in lines
    assert (
        "shax-bot: SHAX_DATABSE_URL (in the environment) is not a setting of this bot; "
        "did you mean SHAX_DATABASE_URL?"
    ) in lines
    assert "s3cret" not in result.stderr + result.stdout


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://shax:s3cret@db.invalid/shax",
        "postgresql://shax@db.invalid/shax?password=s3cret",
        "postgres://db.invalid/shax?user=shax&password=s3cret&sslmode=require",
        "mysql://shax:s3cret@db.invalid/shax?password=s3cret",
    ],
)
def test_a_database_password_is_never_printed(tmp_path: Path, url: str) -> None:
    """Not when the URL is bad, nor when another setting is, nor in a misspelt name's
    warning."""
    (tmp_path / ".env").write_text(f"SHAX_DATABASE_URL={url}\nSHAX_DATABASE_ULR={url}\n")
    result = _run_bot(tmp_path, {"SHAX_BACKUP_KEEP": "0"}, env_file=".env")
    assert result.returncode == 2
    assert "SHAX_BACKUP_KEEP must be a whole number from 1 to 10000, not '0'." in result.stderr
    assert "did you mean SHAX_DATABASE_URL?" in result.stderr
    assert "s3cret" not in result.stderr + result.stdout


def test_no_token_in_a_terminal_prints_the_invite_link_and_starts_the_console(
    tmp_path: Path,
) -> None:
    term = Terminal(["-m", "bot", "--env-file", "none.env"], tmp_path)
    try:
        term.wait_prompt("Your name [someone]:")
        text = term.text
        term.send("\x04")  # Ctrl-D
        assert term.wait_exit() == 0
    finally:
        term.close()
    assert "copy .env.example to none.env and set DISCORD_TOKEN" in text
    assert "here is the local console" in text
    assert "https://discord.com/oauth2/authorize?client_id=YOUR_APPLICATION_ID" in text
    assert "scope=bot+applications.commands" in text
    assert "Traceback" not in term.text


def test_no_token_and_no_terminal_says_how_to_add_one_and_exits_2(tmp_path: Path) -> None:
    """A service started without its token: no console to read the end of its input."""
    result = _run_bot(tmp_path, {"SHAX_DB_PATH": str(tmp_path / "shax.db")})
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "No Discord token is configured, so the bot cannot connect to Discord.",
        "To add one: copy .env.example to none.env and set DISCORD_TOKEN to your bot's token",
        "(Discord Developer Portal → your application → Bot → Reset Token).",
    ]
    assert result.stdout == "" and not (tmp_path / "shax.db").exists()


def test_no_token_with_an_env_file_says_to_set_it_there(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SHAX_LANGUAGE=en\n")
    result = _run_bot(tmp_path, {}, env_file=".env", stdin="/quit\n")
    assert result.returncode == 2, result.stderr
    assert "To add one: set DISCORD_TOKEN in .env to your bot's token" in result.stderr
    assert "copy .env.example" not in result.stderr


def test_game_threads_setting_is_one_of_three() -> None:
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


def test_the_service_defaults_are_the_settings_defaults() -> None:
    given = inspect.signature(ShaxService).parameters
    assert given["challenge_expiry"].default == timedelta(seconds=600)
    assert given["turn_timeout"].default == timedelta(seconds=DEFAULTS.turn_timeout_seconds)
    assert given["game_threads"].default == DEFAULTS.game_threads
