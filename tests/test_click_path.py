"""A click, file by file (docs/ARCHITECTURE.md): the list there is true of the code, the
stored move is reached through at most 8 files, and nothing stands between a component
and the part of the service that does the work."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.discord.intime import InTime
from bot.discord.respond import Responder

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## A click, file by file"
MOST_TO_THE_STORED_MOVE = 8

_ITEM = re.compile(r"^(\d+)\. `([^`]+)` — (.*?)(?=^\d+\. |^\S|\Z)", re.M | re.S)
_COUNT = re.compile(r"(\d+) files")


def _section() -> str:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start : end if end != -1 else len(text)]


def _paths() -> list[tuple[int, list[tuple[int, str, list[str]]]]]:
    """Each list of the section: the count it states, and its items (number, file, the
    names given with it: the backticked words before its first colon)."""
    parts = re.split(r"^(?=To the stored move|On to the edited message)", _section(), flags=re.M)
    found = []
    for part in parts[1:]:
        stated = _COUNT.search(part.splitlines()[0])
        assert stated is not None, part.splitlines()[0]
        items = []
        for number, path, rest in _ITEM.findall(part):
            names = re.findall(r"`([A-Za-z_][A-Za-z0-9_.]*)`", rest.split(":", 1)[0])
            items.append((int(number), path, names))
        found.append((int(stated[1]), items))
    return found


def _defines(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    holder, _, member = name.rpartition(".")
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    if not holder:
        return any(isinstance(n, functions) and n.name == name for n in tree.body)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == holder:
            return any(isinstance(n, functions) and n.name == member for n in node.body)
    return False


def test_the_listed_click_path_is_true_of_the_code() -> None:
    (stored, to_store), (shown, to_show) = _paths()
    assert [n for n, _, _ in to_store] == list(range(1, len(to_store) + 1))
    assert [n for n, _, _ in to_show] == list(range(len(to_store) + 1, shown + 1))
    assert stored == len(to_store) <= MOST_TO_THE_STORED_MOVE
    files = [path for _, path, _ in to_store + to_show]
    assert len(set(files)) == len(files), "a file is counted once"
    for _, path, names in to_store + to_show:
        assert (ROOT / path).is_file(), path
        assert names, f"{path}: say which function the click runs there"
        for name in names:
            assert _defines(ROOT / path, name), f"{path} defines no {name}"


def _function(path: Path, holder: str, name: str) -> ast.AST:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == holder:
            for member in node.body:
                if isinstance(member, ast.AsyncFunctionDef) and member.name == name:
                    return member
    raise AssertionError(f"{path} has no {holder}.{name}")


def test_a_move_select_calls_the_turns_with_no_layer_between() -> None:
    components = ROOT / "bot" / "discord" / "components.py"
    callback = _function(components, "ActSelect", "callback")
    called = [ast.unparse(node.func) for node in ast.walk(callback) if isinstance(node, ast.Call)]
    assert "service.turns.play" in called, called
    runtime = [
        node
        for node in ast.parse(components.read_text(encoding="utf-8")).body
        if isinstance(node, ast.ImportFrom)
    ]
    assert all(node.module != "bot.service.facade" for node in runtime)


def test_a_click_is_answered_in_time_where_it_comes_in() -> None:
    # The responder's click is the in-time answer's own, which makes the service call.
    assert Responder.click is InTime.click
    answer = _function(ROOT / "bot" / "discord" / "intime.py", "InTime", "_answer")
    calls = [node.func for node in ast.walk(answer) if isinstance(node, ast.Call)]
    assert any(isinstance(f, ast.Name) and f.id == "call" for f in calls)
