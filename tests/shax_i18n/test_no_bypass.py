"""No sentence a player reads bypasses the catalogue: a scan of the code.

Every string literal in ``bot/`` and ``renderer/`` that reads like prose (three words or
more) must be a catalogue message (an argument of ``gettext``, ``ngettext``,
``pgettext``, ``npgettext`` or ``N_``), or be one of the few kinds of text no player
reads: docstrings, log lines, errors for the operator, SQL, command-line help, and
Discord's registration of the commands (Discord has no Somali locale, so it shows those
in English whatever we do). The files and calls allowed are listed below, each with
its reason; anything else is a bypass.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot", "renderer")

CATALOGUE_CALLS = {"gettext", "ngettext", "pgettext", "npgettext", "N_"}
OPERATOR_FILES = {
    "bot/storage/backup.py": "backup errors for the operator (python -m bot backup, the log)",
    "bot/storage/checks.py": "the operator's database checks at start-up",
    "bot/storage/copy.py": "python -m bot migrate: the operator's copy to PostgreSQL",
    "bot/storage/dialects.py": "SQL: what differs between the engines; the server's errors",
    "bot/storage/migrations/__init__.py": "the operator's schema messages at start-up",
    "bot/storage/store.py": "SQL: every statement",
    "bot/storage/statements.py": "SQL: the statements every move runs",
    "bot/storage/challenge_store.py": "SQL: challenges and the standings",
    "bot/storage/tables.py": "SQL: the tables",
    "bot/storage/tournament_tables.py": "SQL: the tournament tables",
    "bot/storage/migrations/versions/0001_games_challenges_tallies_series.py": "SQL: the "
    "first tables as made, their checks",
    "bot/storage/migrations/versions/0006_puzzles.py": "SQL: the puzzle tables as made",
    "bot/storage/migrations/versions/0010_tournaments.py": "SQL: the tournament tables as made",
    "bot/config/declared.py": "the settings' docs, for the operator's .env.example",
    "bot/config/fields.py": "settings errors, printed to the operator at start-up",
    "bot/config/loading.py": "settings errors, printed to the operator at start-up",
    "bot/config/example.py": "the operator's .env.example",
    "bot/__main__.py": "the command line: its help and the no-token hint are the operator's",
    "bot/discord/runner.py": "start-up and shutdown messages in the operator's log",
    "bot/discord/invite.py": "permission names as Discord spells them",
    "bot/workers/processes.py": "worker process errors, logged",
    "bot/workers/tables.py": "the background build of the tables, in the operator's log",
    "renderer/cli.py": "the renderer's command line, for scripts",
}
ALLOWED_TEXTS = {
    ("bot/discord/cogs/play.py", "Challenge to Shax"): "the context menu's name, registered "
    "with Discord like the commands (no Somali locale)",
    ("bot/discord/threads.py", "A game of Shax"): "the reason in the server's audit log",
    ("bot/discord/threads.py", "Create Public Threads"): "a permission as Discord names it",
    ("bot/discord/intime.py", "interaction could not be acknowledged"): "an internal exception",
    ("bot/discord/intime.py", "the answer to interaction {} was not delivered in time"): "an "
    "internal exception, logged",
    ("renderer/board.py", "Your turn: move a stone 0123456789"): "glyphs drawn at warm-up",
}
QUIET_CALLS = {
    # logging: read by the operator
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    "critical",
    "log",
    # the name of a piece of the bot's background work (bot/discord/background.py), logged
    "start",
    # Discord's registration of the commands and their options (no Somali locale exists)
    "command",
    "describe",
    "Choice",
    "ContextMenu",
    "GroupCog",
    # the command line
    "add_argument",
    "add_parser",
    "ArgumentParser",
}
OPERATOR_ERRORS = {
    "RuntimeError",
    "ValueError",
    "TypeError",
    "KeyError",
    "ConfigError",
    "NotImplementedError",
    "AssertionError",
    "OSError",
    "BoardNotRecorded",  # logged, and the board recorded when the database is back
}
WORD = re.compile(r"\b[A-Za-z][a-z']+\b")


def is_prose(text: str) -> bool:
    """Three words or more, with spaces between: a sentence, not an id or a format."""
    return " " in text.strip() and len(WORD.findall(text)) >= 3


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _docstrings(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        # attribute docstrings: a bare string right after an assignment
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            for stmt in stmts if isinstance(stmts, list) else []:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    ids.add(id(stmt.value))
    return ids


def _allowed_inside(tree: ast.AST) -> set[int]:
    """Ids of every node inside a catalogue call, a quiet call or an operator error."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        inside = False
        if isinstance(node, ast.Call):
            name = _name(node.func)
            inside = name in CATALOGUE_CALLS or name in QUIET_CALLS
        elif isinstance(node, ast.ClassDef):  # a cog's group_description=, registered
            allowed.update(id(n) for k in node.keywords for n in ast.walk(k))
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            inside = _name(node.exc.func) in OPERATOR_ERRORS
        if inside:
            allowed.update(id(n) for n in ast.walk(node))
    return allowed


def bypasses(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each prose string literal in ``source`` outside the catalogue."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | _allowed_inside(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                for v in node.values
            )
            skip.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if is_prose(text):
            found.append((node.lineno, text))
    yield from sorted(found)


def scanned_files() -> Iterator[Path]:
    for package in SCANNED:
        yield from sorted((ROOT / package).rglob("*.py"))


def test_every_sentence_a_player_reads_goes_through_the_catalogue() -> None:
    found = []
    for path in scanned_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in OPERATOR_FILES:
            continue
        for line, text in bypasses(path.read_text(encoding="utf-8")):
            if (rel, text) in ALLOWED_TEXTS:
                continue
            found.append(f"{rel}:{line}: {text[:70]!r}")
    assert found == [], "English sentences outside the catalogue:\n" + "\n".join(found)


def test_the_scan_catches_the_bypasses_it_is_for() -> None:
    caught = """
def refuse(name):
    raise UserError(f"You can't challenge {name} here.")

def reply():
    return Reply(text="The board is out of date, sorry.")

LABEL = "Choose your move now"
"""
    assert [line for line, _ in bypasses(caught)] == [3, 6, 8]


def test_the_scan_lets_catalogue_messages_logs_and_docstrings_pass() -> None:
    fine = '''
"""A module docstring with many words in it."""

def refuse(t, name):
    """A function docstring, also words."""
    log.warning("Could not read the languages of user %s", name)
    raise UserError(t.gettext("You can't challenge {name} here.", name=name))

MESSAGE = N_("This challenge is no longer open.")
LEVEL = t.pgettext("level", "a hard bot level")
'''
    assert list(bypasses(fine)) == []


def test_the_allow_list_is_short_and_current() -> None:
    for rel in OPERATOR_FILES:
        assert (ROOT / rel).is_file(), rel
    assert len(ALLOWED_TEXTS) <= 8
    for rel, text in ALLOWED_TEXTS:
        assert text in (ROOT / rel).read_text(encoding="utf-8"), (rel, text)
