"""Puzzles by theme, a player's puzzles under ``/shax rating``, a server's puzzle
leaderboard, and a typed answer sent again, through the service on SQLite and on
PostgreSQL: a chosen theme gives a puzzle of it near the player's puzzle rating, else the
nearest of it, else names the themes left; the themes show once a try is over."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

import pytest

from bot.service.facade import ShaxService
from bot.service.puzzle_themes import THEME_WINDOW
from bot.service.puzzles import new_puzzle
from bot.service.replies import (
    BadOption,
    Place,
    PuzzleControls,
    Reply,
    StaleBoard,
    User,
    UserError,
)
from bot.storage import NewPuzzle, PuzzleRow, Rating
from engine import replay
from engine.tables.puzzles import Puzzle, PuzzleTheme, answer
from tests.bot.conftest import AMINA, BASHIR, CAWO, HERE
from tests.bot.storage.conftest import (  # noqa: F401 - fixtures
    Processes,
    database,
    postgres_server,
    processes,
)
from tests.services import refused, words

ELSEWHERE_SERVER = Place(11, 600)


async def solve(service: ShaxService, user: User, place: Place) -> Reply:
    """Answer the player's open puzzle with its winning line: the last reply."""
    current = await service.puzzles.desk.open_try(user.id)
    assert current is not None
    while current is not None:
        reply = await service.play(
            user, place, current.puzzle.solution[len(current.attempt.played)]
        )
        current = await service.puzzles.desk.open_try(user.id)
    return reply


@pytest.fixture
async def service(processes: Processes) -> ShaxService:  # noqa: F811 - the storage tests' fixture
    return await processes(puzzle_rng=random.Random(1))


async def stored(service: ShaxService, variant: str = "shax-small") -> list[PuzzleRow]:
    await service.puzzles.desk.ready()
    rows = [
        await service.storage.puzzles.get_puzzle(i)
        for i in await service.storage.puzzles.puzzle_ids(variant)
    ]
    return [row for row in rows if row is not None]


async def only_themes(
    service: ShaxService, themes: Mapping[int, Sequence[PuzzleTheme]], variant: str = "shax-small"
) -> list[PuzzleRow]:
    """Give the puzzles of ``variant`` named by id these themes and every other none (as
    if shipped so, whatever themes the shipped set has); the puzzles as stored before."""
    rows = await stored(service, variant)
    await service.storage.puzzles.seed_puzzles([with_themes(r, themes.get(r.id, ())) for r in rows])
    return rows


def with_themes(row: PuzzleRow, themes: Sequence[PuzzleTheme]) -> NewPuzzle:
    """The stored puzzle as it would ship with ``themes`` (its rating as it stands)."""
    return new_puzzle(row, row.glicko, themes)


async def test_a_chosen_theme_gives_one_near_else_the_nearest_else_names_the_themes_left(
    service: ShaxService,
) -> None:
    rows = sorted(await stored(service), key=lambda r: abs(r.glicko.rating - 1500))
    near, other = rows[0], rows[1]
    far = min(rows, key=lambda r: r.glicko.rating)  # the farther once she solved one
    irmaan, xadhig = PuzzleTheme.IRMAAN, PuzzleTheme.XADHIG
    chosen = {near.id: [irmaan], far.id: [irmaan], other.id: [xadhig]}
    await only_themes(service, chosen)
    # Stored puzzles take the themes they ship with, once, and keep their ratings.
    shipped = [with_themes(r, chosen.get(r.id, ())) for r in rows]
    assert await service.storage.puzzles.seed_puzzles(shipped) == 0
    again = await service.storage.puzzles.get_puzzle(far.id)
    assert again is not None and again.themes == ("irmaan",) and again.glicko == far.glicko
    assert await service.storage.puzzles.seed_puzzles([with_themes(far, [xadhig, irmaan])]) == 1
    assert await service.storage.puzzles.seed_puzzles([with_themes(far, [irmaan])]) == 1

    first = await service.puzzles.puzzle(AMINA, HERE, "shax-small", "irmaan")
    found = await service.puzzles.desk.open_try(AMINA.id)
    assert found is not None and found.puzzle.id == near.id
    assert "nearest" not in words(first.text)
    assert "Theme:" not in words(first.text)  # said once the try is over
    solved = await solve(service, AMINA, HERE)
    assert "Theme: Irmaan (running jare)." in words(solved.text)
    assert "Nooca: Irmaan (jare socda)." in words(solved.text, "so")
    rating = await service.puzzles.desk.standing(AMINA.id)
    assert abs(far.glicko.rating - rating.rating.rating) > THEME_WINDOW

    second = await service.puzzles.puzzle(AMINA, HERE, "shax-small", "Irmaan")
    found = await service.puzzles.desk.open_try(AMINA.id)
    assert found is not None and found.puzzle.id == far.id
    assert "No Irmaan (running jare) puzzle is left near your puzzle rating" in words(second.text)
    assert "Irmaan (jare socda)" in words(second.text, "so")
    await service.puzzles.give_up(AMINA, HERE)

    pattern = (
        r"No Irmaan \(running jare\) puzzle of Shax \(small board\) is left for you\. "
        r"Themes with puzzles left there: Xadhig \(blockade\) \(`xadhig`\)\."
    )
    with refused(UserError, pattern):
        await service.puzzles.puzzle(AMINA, HERE, "shax-small", "irmaan")
    with refused(UserError, r"Noocyada xujooyin weli ku haray halkaas: Xadhig", "so"):
        await service.puzzles.puzzle(AMINA, HERE, "shax-small", "irmaan")
    assert await service.puzzles.desk.open_try(AMINA.id) is None
    with refused(UserError, r"No Sacrifice puzzle .* left there: Irmaan .*, Xadhig"):
        await service.puzzles.puzzle(BASHIR, HERE, "shax-small", "sacrifice")
    await service.puzzles.puzzle(AMINA, HERE, "shax-small", "xadhig")
    await service.puzzles.give_up(AMINA, HERE)
    with refused(UserError, r"nor one of any other theme: `/shax puzzle` without a theme"):
        await service.puzzles.puzzle(AMINA, HERE, "shax-small", "irmaan")


async def test_the_next_puzzle_keeps_the_theme_chosen_for_the_last(service: ShaxService) -> None:
    """*Next puzzle* after a try of a chosen theme gives another of that theme on the same
    board, kept across tries, and says so once none is left; after a try of no theme, any."""
    rows = await stored(service)
    xadhig, irmaan = PuzzleTheme.XADHIG, PuzzleTheme.IRMAAN
    await only_themes(service, {rows[0].id: [xadhig], rows[1].id: [xadhig], rows[2].id: [irmaan]})
    await service.puzzles.puzzle(AMINA, HERE, "shax-small", "xadhig")
    first = await service.puzzles.desk.open_try(AMINA.id)
    assert first is not None and first.attempt.theme == "xadhig"
    await solve(service, AMINA, HERE)
    second = await service.puzzles.next_puzzle(AMINA, HERE, first.attempt.id)
    found = await service.puzzles.desk.open_try(AMINA.id)
    assert found is not None and found.puzzle.id in (rows[0].id, rows[1].id)
    assert found.puzzle.id != first.puzzle.id and found.attempt.theme == "xadhig"
    assert "Theme:" not in words(second.text)  # said once it is over
    given_up = await service.puzzles.give_up(AMINA, HERE)
    assert isinstance(given_up.controls, PuzzleControls) and given_up.controls.theme == "xadhig"
    with refused(UserError, r"No Xadhig \(blockade\) puzzle of Shax \(small board\) is left"):
        await service.puzzles.next_puzzle(AMINA, HERE, found.attempt.id)
    assert await service.puzzles.desk.open_try(AMINA.id) is None
    # Another's try gives nothing of its theme away; a try of no theme is followed by any.
    await service.puzzles.puzzle(BASHIR, HERE, "shax-small", "irmaan")
    theirs = await service.puzzles.desk.open_try(BASHIR.id)
    assert theirs is not None
    await service.puzzles.give_up(BASHIR, HERE)
    await service.puzzles.next_puzzle(AMINA, HERE, theirs.attempt.id)
    plain = await service.puzzles.desk.open_try(AMINA.id)
    assert plain is not None and plain.attempt.theme is None and plain.puzzle.variant == "shax"


async def test_a_theme_that_is_none_is_refused_and_changes_nothing(service: ShaxService) -> None:
    with refused(BadOption, r"Unknown puzzle theme 'riddle' — choose one of: .*`irmaan`"):
        await service.puzzles.puzzle(AMINA, HERE, "shax", "riddle")
    with refused(BadOption, r"Nooca xujada 'riddle' lama yaqaan.*Irmaan \(jare socda\)", "so"):
        await service.puzzles.puzzle(AMINA, HERE, "shax", "riddle")
    assert await service.puzzles.desk.open_try(AMINA.id) is None
    assert await service.storage.puzzles.solver(AMINA.id) is None


async def test_the_puzzle_leaderboard_lists_the_servers_solvers_and_rating_shows_puzzles(
    service: ShaxService,
) -> None:
    empty = words((await service.statistics.leaderboard(HERE, "puzzles")).text)
    assert "Nobody here has a puzzle rating yet" in empty
    await service.puzzles.puzzle(AMINA, HERE, "shax-small")
    await solve(service, AMINA, HERE)
    await service.puzzles.puzzle(BASHIR, HERE, "shax-small")
    await service.puzzles.give_up(BASHIR, HERE)
    await service.puzzles.puzzle(CAWO, ELSEWHERE_SERVER, "shax-small")
    await solve(service, CAWO, ELSEWHERE_SERVER)

    table = words((await service.statistics.leaderboard(HERE, "Puzzles")).text)
    lines = table.splitlines()
    assert lines[0].startswith("**Puzzles**")
    assert re.fullmatch(r"1\. Amina — 1\d\d\d\? \(1 solved\)", lines[1]), lines
    assert re.fullmatch(r"2\. Bashir — 1\d\d\d\? \(0 solved\)", lines[2]), lines
    assert len(lines) == 3  # Cawo tried hers on another server
    assert "Cawo" in words((await service.statistics.leaderboard(ELSEWHERE_SERVER, "puzzles")).text)
    assert "**Xujooyin**" in words(
        (await service.statistics.leaderboard(HERE, "puzzles")).text, "so"
    )
    with refused(BadOption, r"choose streaks, ratings, both or puzzles"):
        await service.statistics.leaderboard(HERE, "riddles")

    rating = words((await service.ratings.rating(HERE, AMINA)).text)
    assert "has no rating here yet" in rating  # no rated game
    pattern = r"Puzzles \(every server\): rating 1\d\d\d\? · 1 solved of 1 rated try · streak 1"
    assert re.search(pattern + r", best 1", rating), rating
    somali = words((await service.ratings.rating(HERE, AMINA)).text, "so")
    assert "Xujooyin (server kasta)" in somali
    assert "Puzzles" not in words((await service.ratings.rating(HERE, User(104, "Deeqa"))).text)


REPEATING = NewPuzzle(
    variant="shax-small",
    record="b3 a1 c5 b2 e3 c2 d2 e1 c1 d3 a3 d4 e5 a5 c4 b4 xd2 xa5 d3-d2 xc1 a3-a5 xc2 a1-a3 "
    "e3-d3 e1-c1 e5-e3 c1-c2 xa5 e3-e5 c2-c1 c5-a5",
    solution="c1-c2 xa5 c4-c5 c2-c1 c5-a5 c1-c2 xb3 a5-c5 a3-b3 xc5",
    moves=4,
    depth=1,
    tempting=0,
    glicko=Rating(1220, 200, 0.06),
)
"""A puzzle whose winning line takes ``xa5`` and, once the defence moved into a5, could
take it again (wrong there): a stone shunted back and forth between c1 and c2."""


async def repeating(service: ShaxService) -> PuzzleRow:
    """:data:`REPEATING`, stored (it ships at the time of writing; added if not)."""
    await service.puzzles.desk.ready()
    await service.storage.puzzles.seed_puzzles([REPEATING])
    for row in await stored(service):
        if " ".join(row.record) == REPEATING.record:
            return row
    raise AssertionError("the puzzle was not stored")


def repeat_legal_again(puzzle: PuzzleRow) -> tuple[int, str] | None:
    """Where on the winning line one of the solver's earlier actions is legal again and
    wrong: the actions played by then and that action."""
    line = Puzzle(puzzle.variant, puzzle.record, puzzle.solution, puzzle.moves, 0, 0, 0)
    position = replay(puzzle.variant, puzzle.record)
    solver, mine = position.turn, list[str]()
    for k, action in enumerate(puzzle.solution):
        if position.turn == solver:
            legal = position.legal_notations()
            for earlier in mine:
                if (
                    earlier in legal
                    and answer(line, puzzle.solution[:k], earlier).verdict == "wrong"
                ):
                    return k, earlier
            mine.append(action)
        position = position.apply(action)
    return None


async def test_a_typed_answer_sent_again_when_legal_again_is_answered_already(
    service: ShaxService,
) -> None:
    puzzle = await repeating(service)
    found = repeat_legal_again(puzzle)
    assert found is not None
    played, repeated = found
    await service.puzzles.desk.start_puzzle(AMINA, puzzle.id, None)
    while (now := await service.storage.puzzles.open_attempt(AMINA.id)) and len(
        now.played
    ) < played:
        await service.play(AMINA, HERE, puzzle.solution[len(now.played)])
    before = await service.storage.puzzles.open_attempt(AMINA.id)
    assert before is not None and before.played == puzzle.solution[:played]
    with refused(StaleBoard, "answered already"):
        await service.play(AMINA, HERE, repeated)
    with refused(StaleBoard, "answered already"):
        await service.play(AMINA, HERE, repeated.upper())
    assert await service.storage.puzzles.open_attempt(AMINA.id) == before
    # From its menu (which knows the moment it answers) the same action is judged.
    reply = await service.puzzles.answer(AMINA, HERE, repeated, before.id, before.version)
    assert "misses the quickest win" in words(reply.text)


async def test_a_placement_puzzle_asks_for_the_move_that_keeps_the_win(
    service: ShaxService,
) -> None:
    """A puzzle of the placement asks for one action, however long the win after it: it
    names no number of moves, and the one action solves it."""
    rows = await stored(service)
    placement = next(r for r in rows if replay(r.variant, r.record).phase.value != "movement")
    await only_themes(service, {placement.id: [PuzzleTheme.PLACEMENT_RACE]})
    shown = await service.puzzles.puzzle(AMINA, HERE, "shax-small", "placement_race")
    found = await service.puzzles.desk.open_try(AMINA.id)
    assert found is not None and found.puzzle.id == placement.id
    said = words(shown.text)
    assert "find the only move that keeps the win" in said and "win in" not in said
    assert "dhaqaaqa keliya ee guusha ilaaliya" in words(shown.text, "so")
    assert len(placement.solution) == 1
    solved = await solve(service, AMINA, HERE)
    assert f"**{placement.solution[0]}** wins. Solved!" in words(solved.text)
