"""Puzzles from perfect play: positions where exactly one move wins, by the endgame tables.

A puzzle is a movement-phase position reached by the bot's levels playing each other from
a random opening, where the player to act wins with exactly one first *step* — a move,
and the removal it earns when it makes a jare: the two are one step of the solution —
while every other step draws or loses, and the win takes ``moves`` of the solver's steps
(1 to :data:`MAX_MOVES`). The defence is the tables' best: the longest resistance. Every
later step of the solver is the only one that keeps the win as quick, except the last,
where any step that ends the game in the solver's favour is right (:func:`answer`).

Each puzzle is graded: ``depth`` is how deep the evaluation search must look before it
picks the winning first action, ``tempting`` how many wrong first actions a shallow
search likes at least as much; ``rating`` is the starting puzzle rating they make, which
the players' results then move (Glicko-2, in the bot).

``python -m engine puzzles`` prints puzzles as JSON lines (:func:`run_puzzles`); the
bot's own set ships in :data:`SHIPPED` (``python -m engine puzzles --check FILE`` checks a
file of them again).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.errors import ShaxError
from engine.position import Action, Phase, Position, Step
from engine.record import replay
from engine.tables import Probe, Tables, open_tables, tables_dir

MAX_MOVES = 6
"""The longest win a puzzle asks for, in the solver's steps."""
MIN_CHOICES = 3
"""The fewest moves a puzzle's position offers: with one or two there is little to find."""
GRADE_DEPTH = 10
"""The deepest search :func:`grade` tries; a win it never finds grades one deeper."""
SHALLOW_DEPTH = 2
"""The search whose preferences make a wrong action tempting."""
ONE_MOVE_SHARE = 0.3
"""Wins in one are the commonest puzzles by far (a jare that leaves the opponent two
stones); :func:`generate` keeps this share of those it finds, for a set of every length."""
LEVELS = ("easy", "medium")
"""The levels whose games the puzzles are taken from (varied, human-looking play)."""

SHIPPED = Path(__file__).resolve().parent / "puzzles"
"""The puzzles that ship with the engine, a JSON-lines file per board
(``shax.jsonl``), so that puzzles work before any table is built."""

StepActions = tuple[Action, ...]
"""One step: a move, or a move and the removal it earns."""


class PuzzleTheme(StrEnum):
    """What a puzzle is about, in the game's own words (docs/GLOSSARY.md, the sources).

    The values are stable ids: they are stored with each puzzle (``"themes"`` in a JSON
    line) and chosen by players, so a value is never renamed. A puzzle has every theme
    its solution shows (:func:`themes_of`), in this order."""

    JARE_WINS_STONE = "jare_wins_stone"
    """The answer makes a jare and takes a stone."""
    QUIET_MOVE = "quiet_move"
    """The answer makes no jare: it prepares the win (the eye looks for captures first)."""
    DOUBLE_THREAT = "double_threat"
    """After the answer two different moves would each make a jare: the defence can stop
    one, not both."""
    IRMAAN = "irmaan"
    """The answer makes an irmaan, a running jare: a stone that shunts between two points
    and makes a jare on every move, with no opposing stone able to step in."""
    XADHIG = "xadhig"
    """Xadhig ("rope"), the blockade: a step of the solution leaves the defence with no
    move."""
    OODAN = "oodan"
    """Closed: a freeing move of the solution makes a jare that captures nothing."""
    SACRIFICE = "sacrifice"
    """The defence takes a stone of the solver's on the way, and the solver wins anyway."""
    LABA_QAAD = "laba_qaad"
    """Laba-qaad, two jare at once: the answer, a placement, completes two lines."""
    FIRST_JARE = "first_jare"
    """The answer, a placement, makes the first jare: its player removes first."""
    PLACEMENT_RACE = "placement_race"
    """A placement puzzle: the stone to place that wins the game from the placement on."""
    OPENING_REMOVAL = "opening_removal"
    """The opening removal (qaadista bilowga): the one stone to take before the movement."""
    THREE_IN_A_ROW = "three_in_a_row"
    """Jar: the win is three in a row made by a move."""


@dataclass(frozen=True)
class Puzzle:
    """A puzzle as data: the game that reaches it and the line that solves it."""

    variant: str
    record: tuple[str, ...]
    """The actions from the empty board to the puzzle's position."""
    solution: tuple[str, ...]
    """The actions from there to the win: the solver's steps (removals included) and the
    defence's answers between them."""
    moves: int
    """The solver's steps to the win (win in ``moves``)."""
    depth: int
    tempting: int
    rating: int
    themes: tuple[PuzzleTheme, ...] = ()
    """What the puzzle is about (``"themes"``: a list of :class:`PuzzleTheme` ids)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "record": " ".join(self.record),
            "solution": " ".join(self.solution),
            "moves": self.moves,
            "depth": self.depth,
            "tempting": self.tempting,
            "rating": self.rating,
            "themes": [t.value for t in self.themes],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            variant=str(data["variant"]),
            record=tuple(str(data["record"]).split()),
            solution=tuple(str(data["solution"]).split()),
            moves=int(data["moves"]),
            depth=int(data["depth"]),
            tempting=int(data["tempting"]),
            rating=int(data["rating"]),
            themes=tuple(PuzzleTheme(t) for t in data.get("themes", ())),
        )

    def position(self) -> Position:
        """The position the solver faces."""
        return replay(self.variant, self.record)


# -- steps and their values -----------------------------------------------------------


def steps(position: Position) -> list[StepActions]:
    """Every step the player to act can take: each move, with each removal it earns."""
    found: list[StepActions] = []
    for action in position.legal_actions():
        child = position.play(action)
        if child.outcome is None and child.step is Step.REMOVE and child.turn == position.turn:
            found.extend((action, removal) for removal in child.legal_actions())
        else:
            found.append((action,))
    return found


def after(position: Position, step: StepActions) -> Position:
    for action in step:
        position = position.play(action)
    return position


def step_value(tables: Tables, position: Position, step: StepActions) -> Probe | None:
    """The value of taking ``step`` for the player who takes it, in moves to the end
    counted from before the step; ``None`` where the tables do not reach."""
    me = position.turn
    child = after(position, step)
    if child.outcome is not None:
        if child.outcome.winner is None:
            return Probe("draw", 0)
        return Probe("win" if child.outcome.winner.value == me else "loss", 1)
    found = tables.probe(child)
    if found is None:
        return None
    mine = found if child.turn == me else found.flipped()
    if not mine.in_time(child.clock) and mine.result != "draw":
        return Probe("draw", 0)  # the 100-move rule ends it first
    return Probe(mine.result, mine.moves + 1 if mine.result != "draw" else 0)


def valued_steps(tables: Tables, position: Position) -> list[tuple[StepActions, Probe]] | None:
    """Every step with its value, or ``None`` when one of them is outside the tables."""
    valued = []
    for step in steps(position):
        value = step_value(tables, position, step)
        if value is None:
            return None
        valued.append((step, value))
    return valued


def solver_moves(plies: int) -> int:
    """A win ``plies`` moves away (the solver's and the defence's), in the solver's steps."""
    return (plies + 1) // 2


def defence(tables: Tables, position: Position) -> StepActions | None:
    """The tables' best defence: the step that loses the slowest (a draw or a win if the
    position allows one, though a puzzle's never does)."""
    valued = valued_steps(tables, position)
    if not valued:
        return None
    return max(valued, key=lambda sv: sv[1].rank())[0]


def solve(tables: Tables, position: Position) -> tuple[StepActions, ...] | None:
    """The solution line of a puzzle at ``position``, or ``None`` if it is not one: exactly
    one move of the player to act wins (with the removal it earns, if any), and each of
    the solver's steps but the last is the only one that keeps the quickest win. On the
    last step every step that ends the game in the solver's favour is right (a jare's
    removal that leaves two stones, whichever stone it takes)."""
    if position.outcome is not None or position.phase is not Phase.MOVEMENT:
        return None
    if position.step is not Step.MOVE:
        return None
    line: list[StepActions] = []
    me = position.turn
    valued = valued_steps(tables, position)
    if valued is None or len({s[0] for s, _ in valued}) < MIN_CHOICES:
        return None
    if len({s[0] for s, v in valued if v.result == "win"}) != 1:
        return None
    while True:
        best = max(v.rank() for _, v in valued)
        quickest = [(s, v) for s, v in valued if v.rank() == best and v.result == "win"]
        if not quickest or solver_moves(quickest[0][1].moves) + len(line) // 2 > MAX_MOVES:
            return None
        step = quickest[0][0]
        child = after(position, step)
        if len(quickest) > 1 and child.outcome is None:
            return None  # two ways on: the line would not be the only answer
        line.append(step)
        if child.outcome is not None:
            won = child.outcome.winner is not None and child.outcome.winner.value == me
            return tuple(line) if won else None
        position = child
        if position.turn == me:  # the opponent was blocked and the freeing move is ours
            return None
        answer = defence(tables, position)
        if answer is None:
            return None
        line.append(answer)
        position = after(position, answer)
        if position.outcome is not None or position.step is not Step.MOVE:
            return None
        found = valued_steps(tables, position)
        if found is None:
            return None
        valued = found


# -- answering ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What one of the solver's actions did to a puzzle in progress."""

    verdict: str
    """``"right"`` (go on: the removal the move earned, or the next move), ``"solved"``
    or ``"wrong"``."""
    played: tuple[str, ...]
    """Every action since the puzzle's position, the defence's answers included; after a
    wrong action, as before it (a wrong action is not played)."""
    defence: tuple[str, ...]
    """The defence's answer to a right step (empty while the step goes on, or when it
    ended the game)."""


def answer(puzzle: Puzzle, played: Sequence[str], text: str) -> Answer:
    """The solver's action ``text`` after ``played``: right (the solution's action, or on
    the last step any that wins at once), solved, or wrong. An action that is not legal
    at all raises :class:`engine.errors.ShaxError`, as everywhere, and changes nothing."""
    position = puzzle.position()
    solver = position.turn
    for done in played:
        position = position.apply(done)
    if position.outcome is not None or position.turn != solver:
        raise ValueError("the puzzle is not waiting for the solver")
    action = position.parse(text)
    notation = action.notation(position.variant)
    on_line = tuple(played) == puzzle.solution[: len(played)]
    expected = puzzle.solution[len(played)] if on_line else None
    last = not on_line or _last_step(puzzle, position, len(played))
    child = position.apply(action)  # an illegal action raises, as a malformed one does
    now = (*played, notation)
    if child.outcome is not None:
        won = child.outcome.winner is not None and child.outcome.winner.value == solver
        return Answer("solved" if won else "wrong", now if won else tuple(played), ())
    if notation != expected:
        can_win = (
            child.step is Step.REMOVE
            and child.turn == solver
            and any(
                (o := child.play(r).outcome) is not None and o.winner is not None
                for r in child.legal_actions()
            )
        )
        if not (last and can_win):
            return Answer("wrong", tuple(played), ())
        return Answer("right", now, ())
    if child.turn == solver:  # the removal the move earned comes next
        return Answer("right", now, ())
    defence: list[str] = []
    position = child
    while position.turn != solver and len(now) + len(defence) < len(puzzle.solution):
        reply = puzzle.solution[len(now) + len(defence)]
        defence.append(reply)
        position = position.apply(reply)
    return Answer("right", (*now, *defence), tuple(defence))


def _last_step(puzzle: Puzzle, position: Position, index: int) -> bool:
    """Whether the solution's actions from ``index`` on are all the solver's."""
    solver = position.turn
    for notation in puzzle.solution[index:]:
        if position.turn != solver:
            return False
        position = position.apply(notation)
    return True


# -- grading --------------------------------------------------------------------------


def grade(position: Position, first: Action) -> tuple[int, int]:
    """``(depth, tempting)`` for a puzzle whose winning first action is ``first``:
    the shallowest search that picks it, and how many wrong first moves tempt: those that
    make a jare (a capture is what the eye looks for first) and those that a search of
    :data:`SHALLOW_DEPTH` plies likes at least as much."""
    from engine.ai import core
    from engine.ai.levels import weights_for

    weights = weights_for(position.variant.id)
    depth = GRADE_DEPTH + 1
    for d in range(1, GRADE_DEPTH + 1):
        params = core.make_params(weights, max_depth=d, tt_log2=16)
        if core.search(position, params).action == first:
            depth = d
            break
    params = core.make_params(weights, max_depth=SHALLOW_DEPTH, tt_log2=16, all_scores=True)
    root = dict(core.search(position, params).root)
    right = root.get(first, -(10**9))
    tempting = 0
    for action in position.legal_actions():
        if action == first:
            continue
        captures = position.play(action).step is Step.REMOVE
        tempting += captures or root.get(action, -(10**9)) >= right
    return depth, tempting


def starting_rating(moves: int, depth: int, tempting: int) -> int:
    """A puzzle's first rating, before anyone has tried it: deeper, longer and more
    tempting puzzles start higher. Players' results move it from there."""
    return 900 + 110 * depth + 90 * min(tempting, 6) + 70 * (moves - 1)


def make_puzzle(tables: Tables, record: Sequence[str], position: Position) -> Puzzle | None:
    """The puzzle at ``position`` (reached by ``record``), if it is one."""
    line = solve(tables, position)
    if line is None:
        return None
    depth, tempting = grade(position, line[0][0])
    v = position.variant
    moves = (len(line) + 1) // 2
    return Puzzle(
        variant=v.id,
        record=tuple(record),
        solution=tuple(a.notation(v) for step in line for a in step),
        moves=moves,
        depth=depth,
        tempting=tempting,
        rating=starting_rating(moves, depth, tempting),
    )


# -- finding them in games --------------------------------------------------------------


def game_positions(
    variant: str, rng: random.Random, max_open: int = 8
) -> Iterator[tuple[list[str], Position]]:
    """The positions of one game between two of :data:`LEVELS` from a random opening."""
    from engine.ai.player import check_level, choose_for_position

    position = Position.initial(variant)
    record: list[str] = []
    for _ in range(rng.randint(0, max_open)):
        if position.phase is not Phase.PLACEMENT:
            break
        action = rng.choice(position.legal_actions())
        nxt = position.play(action)
        if nxt.outcome is not None:
            break
        record.append(action.notation(position.variant))
        position = nxt
    players = [check_level(rng.choice(LEVELS)), check_level(rng.choice(LEVELS))]
    while position.outcome is None:
        yield record, position
        level = players[position.turn]
        chosen = choose_for_position(position, level, seed=rng.getrandbits(32)).action
        record = [*record, chosen]
        position = position.apply(chosen)


def generate(
    tables: Tables,
    count: int,
    seed: int,
    *,
    progress: Callable[[int, int], None] | None = None,
    max_games: int | None = None,
) -> Iterator[Puzzle]:
    """``count`` puzzles (fewer if ``max_games`` games give no more), each from a
    different position; at most two from one game, and not from consecutive moves."""
    rng = random.Random(seed)
    variant = tables.variant.id
    seen: set[tuple[int, int, int]] = set()
    found = games = 0
    while found < count and (max_games is None or games < max_games):
        games += 1
        taken = 0
        last_ply = -10
        for record, position in game_positions(variant, rng):
            if taken == 2 or len(record) - last_ply < 4:
                continue
            if position.step is not Step.MOVE or tables.probe(position) is None:
                continue
            key = (position.white, position.black, position.turn)
            if key in seen:
                continue
            puzzle = make_puzzle(tables, record, position)
            if puzzle is None or (puzzle.moves == 1 and rng.random() >= ONE_MOVE_SHARE):
                continue
            seen.add(key)
            taken += 1
            last_ply = len(record)
            found += 1
            yield puzzle
            if progress is not None:
                progress(found, games)
            if found == count:
                return


# -- checking ----------------------------------------------------------------------------


def check(tables: Tables, puzzle: Puzzle) -> list[str]:
    """What is wrong with a puzzle by the tables (nothing: ``[]``): the record is legal,
    the first step is the only win, the solution is the line :func:`solve` finds and
    wins in ``moves``."""
    try:
        position = puzzle.position()
    except ShaxError as exc:
        return [f"the record does not replay: {exc}"]
    line = solve(tables, position)
    if line is None:
        return ["the position is not a puzzle by the tables (no single winning step)"]
    v = position.variant
    solution = tuple(a.notation(v) for step in line for a in step)
    problems = []
    if solution != puzzle.solution:
        problems.append(f"the solution is {' '.join(solution)}, not {' '.join(puzzle.solution)}")
    if (len(line) + 1) // 2 != puzzle.moves:
        problems.append(f"the win takes {(len(line) + 1) // 2} moves, not {puzzle.moves}")
    end = position
    for notation in puzzle.solution:
        end = end.apply(notation)
    if (
        end.outcome is None
        or end.outcome.winner is None
        or end.outcome.winner.value != (position.turn)
    ):
        problems.append("the solution does not end in the solver's win")
    return problems


def shipped(variant: str) -> list[Puzzle]:
    """The puzzles that ship for ``variant`` (none for a board without a file)."""
    path = SHIPPED / f"{variant}.jsonl"
    if not path.is_file():
        return []
    return [Puzzle.from_json(json.loads(line)) for line in path.read_text().splitlines() if line]


# -- the command line -----------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    """``python -m engine puzzles``, under the engine's command line."""
    parser = sub.add_parser(
        "puzzles",
        help="puzzles from the endgame tables, as JSON lines",
        description="Find puzzles in games between the bot's levels: positions where one "
        "move wins, by the endgame tables (build them first: python -m engine.tables build, "
        "or build --small for shax-small alone). Prints one JSON line a puzzle; progress "
        "goes to standard error.",
    )
    parser.add_argument("--variant", choices=("shax", "shax-small"), default="shax")
    parser.add_argument("--count", type=int, default=10, help="how many puzzles (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=Path, default=None, help="default: $SHAX_TABLES_DIR")
    parser.add_argument(
        "--check", type=Path, default=None, metavar="FILE", help="check a file of puzzles instead"
    )
    parser.set_defaults(run=run_puzzles)


def run_puzzles(args: argparse.Namespace) -> int:
    where = args.tables if args.tables is not None else tables_dir()
    tables = open_tables(args.variant, where)
    if tables is None:
        print(
            f"No endgame tables for {args.variant} in {where}: build them with "
            f"python -m engine.tables build{' --small' if args.variant != 'shax' else ''} "
            f"--dir {where}.",
            file=sys.stderr,
        )
        return 2
    if args.check is not None:
        return _check_file(tables, args.check)
    if args.count < 1:
        print("--count takes a whole number of puzzles, 1 or more.", file=sys.stderr)
        return 2
    start = time.monotonic()

    def progress(found: int, games: int) -> None:
        elapsed = time.monotonic() - start
        left = elapsed / found * (args.count - found)
        print(
            f"\r{found}/{args.count} puzzles from {games} games, about {left:.0f} s left",
            end="",
            file=sys.stderr,
            flush=True,
        )

    for puzzle in generate(tables, args.count, args.seed, progress=progress):
        print(json.dumps(puzzle.to_json()), flush=True)
    print(file=sys.stderr)
    return 0


def _check_file(tables: Tables, path: Path) -> int:
    try:
        lines = [line for line in path.read_text().splitlines() if line.strip()]
    except OSError as exc:
        print(f"Cannot read {path}: {exc.strerror}.", file=sys.stderr)
        return 2
    bad = 0
    for number, line in enumerate(lines, 1):
        try:
            puzzle = Puzzle.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            problems = [f"not a puzzle ({exc})"]
        else:
            problems = check(tables, puzzle)
        for problem in problems:
            print(f"{path}:{number}: {problem}")
        bad += bool(problems)
    print(f"{len(lines) - bad} of {len(lines)} puzzles are right.")
    return 1 if bad else 0
