"""``python -m bot`` (``shax-bot``) runs the Discord bot; ``python -m bot local`` the console;
``migrate`` copies the SQLite file into PostgreSQL; ``backup`` copies the SQLite file."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import ConfigError, Settings, load_settings
from bot.storage import DatabaseLocked, Storage, StorageError
from bot.workers.tables import building_line, start_building
from shax_i18n import LANGUAGES

NO_TOKEN = """\
No Discord token is configured, so the bot cannot connect to Discord.
To add one: {add} to your bot's token
(Discord Developer Portal → your application → Bot → Reset Token)."""
CONSOLE_MEANWHILE = (
    "Meanwhile, here is the local console (start it any time with: python -m bot local)."
)


def no_token(env_file: str) -> str:
    """:data:`NO_TOKEN`, with the way to add a token to ``env_file`` as it is now."""
    if Path(env_file).is_file():
        return NO_TOKEN.format(add=f"set DISCORD_TOKEN in {env_file}")
    return NO_TOKEN.format(add=f"copy .env.example to {env_file} and set DISCORD_TOKEN")


def complain(message: str) -> None:
    """A message to the person starting the bot, a line at a time, on stderr."""
    for line in message.splitlines():
        print(f"shax-bot: {line}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shax-bot", description="Shax, the Somali mill game, on Discord."
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    sub = parser.add_subparsers(dest="command")
    local = sub.add_parser("local", help="play in this terminal, no Discord token needed")
    local.add_argument("--db", type=Path, default=None, help="SQLite file (default: SHAX_DB_PATH)")
    local.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the folder for board pictures and replays (default: ./shax-pictures)",
    )
    local.add_argument(
        "--name",
        default=None,
        help="your name in the games (default: asked in a terminal, else your login name)",
    )
    local.add_argument("--channel", type=int, default=1, help="the console's channel number")
    local.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        default=None,
        help="the language the console speaks: en or so (default: SHAX_LANGUAGE)",
    )
    sub.add_parser(
        "sync", help="register the slash commands with Discord once (after they changed), then exit"
    )
    migrate = sub.add_parser(
        "migrate", help="copy the SQLite database into an empty PostgreSQL one, and verify it"
    )
    migrate.add_argument("--to", required=True, metavar="URL", help="postgresql://…")
    migrate.add_argument(
        "--from", dest="source", type=Path, default=None, help="SQLite file (default: SHAX_DB_PATH)"
    )
    backup = sub.add_parser(
        "backup", help="copy the SQLite database to PATH, safely while the bot runs"
    )
    backup.add_argument("path", type=Path, help="a new file, or a folder to put it in")
    ratings = sub.add_parser("ratings", help="the players' ratings")
    ratings.add_argument(
        "action",
        choices=["recompute"],
        help="recompute: rate every finished game again, oldest first (also the games "
        "finished before ratings existed), replacing every rating",
    )
    ratings.add_argument(
        "--database",
        default=None,
        metavar="TARGET",
        help="a SQLite file or postgresql://… (default: the bot's, SHAX_DATABASE_URL or "
        "SHAX_DB_PATH)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(dotenv_path=args.env_file, warn=complain)
    except ConfigError as exc:
        complain(str(exc))
        return 2
    try:
        return dispatch(settings, args)
    except StorageError as exc:
        print(f"shax-bot: {exc}", file=sys.stderr)
        return 1


def dispatch(settings: Settings, args: argparse.Namespace) -> int:
    if args.command == "migrate":
        return run_migrate(args.source or settings.db_path, args.to)
    if args.command == "backup":
        return run_backup(settings, args.path)
    if args.command == "ratings":
        return run_recompute(args.database or settings.database)
    if args.command == "local":
        return run_local(settings, args)
    if not settings.has_token and args.command is None:
        print(no_token(args.env_file), file=sys.stderr)
        if not sys.stdin.isatty():
            # Nobody to play the console (a service started without its token): stop.
            return 2
        # In a terminal the main command with no token still gives something to play.
        print(CONSOLE_MEANWHILE, file=sys.stderr)
        print(invite_hint(), file=sys.stderr)
        return run_local(settings, args)
    return run_discord(settings, args.command)


def invite_hint() -> str:
    """How the bot is added to a server, with the link its permissions need."""
    from bot.discord.invite import invite_url

    return (
        "To add the bot to a server, open this link with your Application ID "
        f"(Developer Portal → General Information) in place of YOUR_APPLICATION_ID:\n"
        f"{invite_url(None)}"
    )


LOCKED_PATIENCE_SECONDS = 60.0
"""How long start-up waits for a database another program holds locked."""


def check_database(target: str | Path) -> None:
    """Open the database once before anything starts (running its migrations): a file
    that is not SQLite, damaged, read-only or too new raises :class:`StorageError`. One
    another program holds locked is tried again, saying so once, for up to
    :data:`LOCKED_PATIENCE_SECONDS`."""

    async def open_and_close() -> None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + LOCKED_PATIENCE_SECONDS
        said = False
        while True:
            try:
                await (await Storage.open(target)).close()
                return
            except DatabaseLocked as locked:
                if loop.time() >= give_up:
                    raise
                if not said:
                    said = True
                    complain(
                        f"The database {locked.path} is locked by another program; waiting "
                        f"up to {LOCKED_PATIENCE_SECONDS:.0f} s for it to let go…"
                    )
                await asyncio.sleep(1.0)

    asyncio.run(open_and_close())


def run_migrate(source: Path, target: str) -> int:
    from bot.storage.base import redacted
    from bot.storage.copy import migrate

    counts = asyncio.run(migrate(source, target))
    listed = ", ".join(f"{n} {table}" for table, n in counts.items())
    print(f"Copied {source} to {redacted(target)}: {listed}; every row verified.")
    return 0


def run_backup(settings: Settings, path: Path) -> int:
    from bot.storage.backup import backup
    from bot.storage.base import redacted

    if settings.database_url is not None:
        raise StorageError(
            f"The bot's database is PostgreSQL ({redacted(settings.database_url)}): back it up "
            "with pg_dump; python -m bot backup copies the SQLite file."
        )
    written = backup(settings.db_path, path)
    print(f"Backed up {settings.db_path} to {written}.")
    return 0


def run_recompute(target: str | Path) -> int:
    from bot.service.rating_replies import recompute

    async def recomputed() -> tuple[int, int, str]:
        storage = await Storage.open(target)
        try:
            changes = await recompute(storage)
        finally:
            await storage.close()
        players = {(c.guild_id, c.family, c.user_id) for c in changes}
        return len({c.game_id for c in changes}), len(players), storage.where

    print(recompute_summary(*asyncio.run(recomputed())))
    return 0


def recompute_summary(games: int, players: int, where: str) -> str:
    """What ``ratings recompute`` says it did: ``Rated 1 finished game again in …: 2 ratings.``"""
    rated = f"{games} finished game{'' if games == 1 else 's'}"
    ratings = f"{players} rating{'' if players == 1 else 's'}"
    return f"Rated {rated} again in {where}: {ratings}."


def run_local(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import run_console

    check_database(getattr(args, "db", None) or settings.db_path)
    line = building_line(settings.build_tables)  # what is built, and how long it takes
    if start_building(settings.build_tables) is not None and line is not None:
        complain(line)
    lang = getattr(args, "lang", None)
    return run_console(
        settings.model_copy(update={"language": lang}) if lang else settings,
        db=getattr(args, "db", None),
        out=getattr(args, "out", None),
        name=getattr(args, "name", None),
        channel=getattr(args, "channel", 1),
    )


def run_discord(settings: Settings, command: str | None) -> int:
    """Run the bot (or, with ``sync``, register its slash commands once and exit)."""
    if not settings.has_token:
        print(NO_TOKEN.splitlines()[0], file=sys.stderr)
        print("Add DISCORD_TOKEN to .env (see .env.example), then try again.", file=sys.stderr)
        return 2
    # Imported here so that the console never imports discord.
    import bot.discord

    try:
        if command == "sync":
            bot.discord.sync(settings)
        else:
            check_database(settings.database)
            bot.discord.runner.setup_logging(settings)  # the background build logs there
            start_building(settings.build_tables)
            bot.discord.run(settings)
    except ConfigError as exc:
        complain(str(exc))
        return 2
    except bot.discord.runner.SyncFailed as exc:
        complain(str(exc))
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
