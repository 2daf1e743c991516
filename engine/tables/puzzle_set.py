"""The shipped puzzle set: where its puzzles come from, how each is graded, and the
command that makes it, ``python -m engine puzzles``.

Puzzles (:mod:`engine.tables.puzzles`) are drawn from positions real play reaches:

* **shax** and **shax-small**: every position of games between the bot's
  :data:`LEVELS` from a random opening (at a fixed depth, so a seed makes the same games),
  in the movement (valued by the endgame tables; on shax up to six stones against five),
  and on shax-small in the placement and the opening removals too, where the solved
  board values every action exactly;
* **jar**: every position the game can reach at all (it is small), the placement and the
  movement, valued by the solved board; the best (the hardest) are kept;
* **walks** from the movement puzzles found so far (an earlier set's and the games'): a few
  random steps on from each, every position on the way tried (:func:`from_walks`); the
  records stay real games, so every puzzle is reachable, and the tables prove them;
* on **shax-small**, random placements too (:func:`from_placements`), where the solved
  board values every placement (laba-qaad, two lines closed by one stone, is found there).

Each puzzle is a different position up to the board's symmetries
(:func:`~engine.tables.puzzle_shapes.canonical`); at most :data:`ONE_MOVE_SHARE` of a
board's set is won in one move; the rarer themes are kept first (:data:`RARE_THEMES`).
Each is graded (:func:`grade`): ``depth``, how deep a search must look before the answer
is the one best action (in the movement a search that counts stones alone, as reading
ahead does; in the placement the bot's own evaluation); ``tempting``, how many wrong first
actions a shallow search likes about as much, or that make a jare; and ``choices``, the
legal actions to choose among. They seed its ``rating``
(:func:`starting_rating`), which players' results then move (Glicko-2, in the bot).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.position import Action, Phase, Position, Step
from engine.tables import Tables, open_tables, tables_dir
from engine.tables.puzzle_shapes import Canonical, canonical, themes_of
from engine.tables.puzzles import (
    Puzzle,
    PuzzleTheme,
    StepActions,
    after,
    check,
    check_proof,
    proof_of,
    read_puzzles,
    shipped,
    solve_line,
    solve_placement,
    solver_steps,
    steps,
)
from engine.tables.solved import Solved, open_solved

GRADE_DEPTH = 8
"""The deepest search :func:`grade` tries; an answer it never finds grades one deeper."""
SHALLOW_DEPTH = 2
"""The search whose preferences make a wrong action tempting."""
TEMPT_MARGIN = 25
"""A wrong action scored this close to the answer by that search (a quarter of a stone)
tempts."""
ONE_MOVE_SHARE = 0.25
"""The most of a board's set that is won in one move (the commonest puzzles by far)."""
PLACEMENT_SHARE = 0.45
"""The most of shax-small's set that is placement puzzles (the rest: the movement)."""
LEVELS = ("easy", "medium")
"""The levels whose games the puzzles are taken from (varied, human-looking play)."""
PER_GAME = 6
"""The most puzzles taken from one game's movement and the positions one step off it."""
PLACEMENT_PER_GAME = 1
"""The most placement puzzles (the opening removals' included) taken from one game."""
TARGETS: dict[str, int] = {"shax": 1000, "shax-small": 1000, "jar": 60}
"""How many puzzles the set has of each board (fewer where the shares allow no more)."""
GAMES: dict[str, int] = {"shax": 16000, "shax-small": 3000, "jar": 0}
"""How many games the set's puzzles are drawn from, on each board."""
WALKS: dict[str, int] = {"shax": 12000, "shax-small": 6000, "jar": 0}
"""How many random walks go on from the movement puzzles found, on each board."""
WALK_STEPS = 24
"""The most random steps of one walk."""
PLACEMENTS: dict[str, int] = {"shax": 0, "shax-small": 12000, "jar": 0}
"""How many random placements (whole placement phases) are tried, on each board."""
RARE_THEMES = (
    PuzzleTheme.DOUBLE_THREAT,
    PuzzleTheme.OODAN,
    PuzzleTheme.LABA_QAAD,
    PuzzleTheme.XADHIG,
    PuzzleTheme.IRMAAN,
    PuzzleTheme.SACRIFICE,
)
"""Themes few puzzles show: a puzzle of one is chosen before the others of its kind."""
SEED = 40
"""The seed of the shipped set."""


# -- grading --------------------------------------------------------------------------


def grade(position: Position, first: Action) -> tuple[int, int]:
    """``(depth, tempting)`` for a puzzle whose winning first action is ``first``: the
    shallowest search in which it scores above every other action, and how many wrong
    first actions tempt. In the movement the search counts stones alone (it sees a win
    only when the captures that make it are inside its depth, as reading ahead does), and
    a wrong action tempts when it makes a jare (a capture is what the eye looks for
    first) or when that search one ply short of ``depth`` scores it as high as the
    answer. In the placement, where nothing is captured, the search is the bot's own
    evaluation, and a wrong action tempts when its search of :data:`SHALLOW_DEPTH` plies
    scores it within :data:`TEMPT_MARGIN` of the answer or above."""
    from engine.ai import core
    from engine.ai.levels import weights_for

    weights = weights_for(position.variant.id)
    movement = position.phase is Phase.MOVEMENT
    seeing = {name: value if name == "mat" else 0 for name, value in weights.items()}
    depth, short = GRADE_DEPTH + 1, dict[Action, int]()
    for d in range(1, GRADE_DEPTH + 1):
        params = core.make_params(
            seeing if movement else weights, max_depth=d, tt_log2=16, all_scores=True
        )
        scores = dict(core.search(position, params).root)
        right = scores.get(first)
        if right is not None and all(v < right for a, v in scores.items() if a != first):
            depth = d
            break
        short = scores
    margin = 0
    if not movement:
        params = core.make_params(weights, max_depth=SHALLOW_DEPTH, tt_log2=16, all_scores=True)
        short, margin = dict(core.search(position, params).root), TEMPT_MARGIN
    right = short.get(first, 10**9) - margin  # one ply in: nothing tempts but a jare
    tempting = 0
    for action in position.legal_actions():
        if action == first:
            continue
        jare = movement and position.play(action).step is Step.REMOVE
        tempting += jare or short.get(action, -(10**9)) >= right
    return depth, tempting


def starting_rating(moves: int, depth: int, tempting: int, choices: int) -> int:
    """A puzzle's first rating, before anyone has tried it: a deeper search to find the
    answer, more wrong moves that tempt, more moves to choose among and a longer win all
    start it higher. Players' results move it from there."""
    return (
        700
        + 100 * min(depth, GRADE_DEPTH + 1)
        + 45 * min(tempting, 8)
        + 6 * min(choices, 40)
        + 60 * (moves - 1)
    )


def make_puzzle(
    tables: Tables, solved: Solved | None, record: Sequence[str], position: Position
) -> Puzzle | None:
    """The puzzle at ``position`` (reached by ``record``), graded, if it is one."""
    if position.phase is Phase.MOVEMENT:
        if position.step is not Step.MOVE or tables.probe(position) is None:
            return None
        line, values = solve_line(tables, position)
    elif solved is not None:
        line, values = solve_placement(solved, position)
    else:
        return None
    if line is None:
        return None
    return finish(record, position, line, values)


def unseen_puzzle(
    tables: Tables,
    solved: Solved | None,
    seen: set[Canonical],
    record: Sequence[str],
    position: Position,
) -> Puzzle | None:
    """:func:`make_puzzle`'s puzzle at ``position``, unless ``seen`` holds the position up
    to symmetry already; ``seen`` gains it."""
    key = canonical(position)
    if key in seen:
        return None
    seen.add(key)
    return make_puzzle(tables, solved, record, position)


def finish(
    record: Sequence[str],
    position: Position,
    line: Sequence[StepActions],
    values: Any,
) -> Puzzle:
    v = position.variant
    depth, tempting = grade(position, line[0][0])
    moves = solver_steps(position, line)
    choices = len(position.legal_actions())
    return Puzzle(
        variant=v.id,
        record=tuple(record),
        solution=tuple(a.notation(v) for step in line for a in step),
        moves=moves,
        depth=depth,
        tempting=tempting,
        rating=starting_rating(moves, depth, tempting, choices),
        themes=themes_of(position, line),
        choices=choices,
        proof=proof_of(values),
    )


def won_in_one(puzzle: Puzzle) -> bool:
    """Whether the answer ends the game at once (a placement puzzle never does)."""
    return puzzle.moves == 1 and len(puzzle.record) > 0 and _movement(puzzle)


def _movement(puzzle: Puzzle) -> bool:
    return puzzle.position().phase is Phase.MOVEMENT


# -- where they come from ---------------------------------------------------------------


def game_positions(
    variant: str, rng: random.Random, max_open: int = 8
) -> Iterator[tuple[list[str], Position]]:
    """The positions of one game between two of :data:`LEVELS` from a random opening,
    each level searching to its own depth (the same game for the same ``rng``)."""
    from engine.ai.player import check_level, choose_for_position

    position = Position.initial(variant)
    record: list[str] = []
    for _ in range(rng.randint(0, max_open)):
        if position.phase is not Phase.PLACEMENT:
            break
        yield record, position
        action = rng.choice(position.legal_actions())
        nxt = position.play(action)
        if nxt.outcome is not None:
            break
        record = [*record, action.notation(position.variant)]
        position = nxt
    players = [check_level(rng.choice(LEVELS)), check_level(rng.choice(LEVELS))]
    while position.outcome is None:
        yield record, position
        level = players[position.turn]
        chosen = choose_for_position(
            position, level, seed=rng.getrandbits(32), depth=level.max_depth
        ).action
        record = [*record, chosen]
        position = position.apply(chosen)


def candidates(record: list[str], position: Position) -> Iterator[tuple[list[str], Position]]:
    """The positions a game's position offers as puzzles: itself and, in the movement,
    every position one step away (the player's other choices: a puzzle is often the
    chance a mistake gives)."""
    yield record, position
    if position.phase is not Phase.MOVEMENT or position.step not in (Step.MOVE, Step.FREE):
        return
    v = position.variant
    for step in steps(position):
        child = after(position, step)
        if child.outcome is None:
            yield [*record, *(a.notation(v) for a in step)], child


def from_games(
    tables: Tables,
    solved: Solved | None,
    seed: int,
    seen: set[Canonical],
    *,
    games: int,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of ``games`` games and the positions one step off them (at most
    :data:`PER_GAME` a game), each a position not in ``seen`` (which gains every
    position tried)."""
    rng = random.Random(seed)
    found = 0
    for game in range(1, games + 1):
        taken = {True: 0, False: 0}  # in the movement, and not
        for record, position in game_positions(tables.variant.id, rng):
            movement = position.phase is Phase.MOVEMENT
            for where, candidate in candidates(record, position):
                if taken[movement] == (PER_GAME if movement else PLACEMENT_PER_GAME):
                    break
                puzzle = unseen_puzzle(tables, solved, seen, where, candidate)
                if puzzle is None:
                    continue
                taken[movement] += 1
                found += 1
                yield puzzle
        if progress is not None:
            progress(found, game)


def from_puzzles(
    tables: Tables, solved: Solved | None, earlier: Sequence[Puzzle], seen: set[Canonical]
) -> Iterator[Puzzle]:
    """The puzzles of an earlier set that are still puzzles by today's rules (solved
    and graded again), each a position not in ``seen`` (which gains it)."""
    for old in earlier:
        puzzle = unseen_puzzle(tables, solved, seen, old.record, old.position())
        if puzzle is not None:
            yield puzzle


def from_walks(
    tables: Tables,
    solved: Solved | None,
    seed: int,
    seen: set[Canonical],
    starts: Sequence[Puzzle],
    *,
    walks: int,
) -> Iterator[Puzzle]:
    """The puzzles met on ``walks`` random walks, each from one of the movement puzzles
    ``starts`` (chosen at random) up to :data:`WALK_STEPS` random steps on (a move and the
    removal it earns one step), each a position not in ``seen`` (which gains every
    position tried). The walks play on from real games, so each record is one."""
    rng = random.Random(f"walks {seed}")
    movement = [p for p in starts if _movement(p)]
    for _ in range(walks if movement else 0):
        start = rng.choice(movement)
        position, record = start.position(), list(start.record)
        v = position.variant
        for _ in range(rng.randint(1, WALK_STEPS)):
            step = rng.choice(steps(position))
            position = after(position, step)
            record += [a.notation(v) for a in step]
            if position.outcome is not None:
                break
            puzzle = unseen_puzzle(tables, solved, seen, record, position)
            if puzzle is not None:
                yield puzzle


def from_placements(
    tables: Tables, solved: Solved, seed: int, seen: set[Canonical], *, games: int
) -> Iterator[Puzzle]:
    """The placement puzzles (the opening removals' too) of ``games`` placement phases
    played at random, each a position not in ``seen`` (which gains every position
    tried)."""
    rng = random.Random(f"placements {seed}")
    for _ in range(games):
        position, record = Position.initial(tables.variant.id), list[str]()
        while position.outcome is None and position.phase is not Phase.MOVEMENT:
            puzzle = unseen_puzzle(tables, solved, seen, record, position)
            if puzzle is not None:
                yield puzzle
            action = rng.choice(position.legal_actions())
            record.append(action.notation(position.variant))
            position = position.play(action)


def every_position(variant: str) -> Iterator[tuple[list[str], Position]]:
    """Every position of a (small) board the game reaches, one of each class up to the
    symmetries, by the shortest record (breadth first, actions in order)."""
    start = Position.initial(variant)
    seen = {canonical(start)}
    frontier: list[tuple[list[str], Position]] = [([], start)]
    while frontier:
        following: list[tuple[list[str], Position]] = []
        for record, position in frontier:
            yield record, position
            for action in position.legal_actions():
                child = position.play(action)
                if child.outcome is not None:
                    continue
                key = canonical(child)
                if key not in seen:
                    seen.add(key)
                    following.append(([*record, action.notation(position.variant)], child))
        frontier = following


def from_every_position(tables: Tables, solved: Solved) -> list[Puzzle]:
    """Every puzzle of a small board (jar): one for each position up to symmetry."""
    found = []
    for record, position in every_position(tables.variant.id):
        if position.step is Step.REMOVE and position.phase is Phase.MOVEMENT:
            continue
        puzzle = make_puzzle(tables, solved, record, position)
        if puzzle is not None:
            found.append(puzzle)
    return found


# -- choosing the set ---------------------------------------------------------------------


def choose(puzzles: Sequence[Puzzle], count: int, *, hardest: bool = False) -> list[Puzzle]:
    """``count`` of ``puzzles`` (fewer, if the shares allow no more): as many placement
    puzzles as :data:`PLACEMENT_SHARE` and won in one as :data:`ONE_MOVE_SHARE` allow,
    the rest the other movement puzzles; of each kind those of a :data:`RARE_THEMES`
    theme first, then the others, each in their order, or the hardest first (by starting
    rating) with ``hardest``; the chosen in their order."""
    pool = sorted(puzzles, key=lambda p: -p.rating) if hardest else list(puzzles)
    kinds: dict[str, list[Puzzle]] = {"one": [], "place": [], "move": []}
    for puzzle in sorted(pool, key=lambda p: not set(p.themes) & set(RARE_THEMES)):
        kind = "one" if won_in_one(puzzle) else "move" if _movement(puzzle) else "place"
        kinds[kind].append(puzzle)
    place = min(len(kinds["place"]), int(PLACEMENT_SHARE * count))
    one = min(len(kinds["one"]), int(ONE_MOVE_SHARE * count))
    move = min(len(kinds["move"]), count - place - one)
    while True:  # too few others: fewer of these
        if one > ONE_MOVE_SHARE * (move + place + one):
            one -= 1
        elif place > PLACEMENT_SHARE * (move + place + one):
            place -= 1
        else:
            break
    chosen = {id(p) for kind, n in (("one", one), ("place", place), ("move", move))
              for p in kinds[kind][:n]}  # fmt: skip
    return [p for p in pool if id(p) in chosen]


def make_set(
    variant: str,
    tables: Tables,
    solved: Solved | None,
    seed: int,
    count: int,
    games: int,
    progress: Callable[[int, int], None] | None = None,
    earlier: Sequence[Puzzle] = (),
    *,
    walks: int | None = None,
    placements: int | None = None,
) -> list[Puzzle]:
    """A board's set of ``count`` puzzles (see :func:`choose`): those of an ``earlier``
    set that still are, then those of ``games`` games, of ``walks`` walks from all these
    (default :data:`WALKS`) and of ``placements`` random placements (default
    :data:`PLACEMENTS`); jar's of every position."""
    if variant == "jar":
        if solved is None:
            raise ValueError("jar's puzzles come from its solved board")
        return choose(from_every_position(tables, solved), count, hardest=True)
    seen: set[Canonical] = set()
    found = list(from_puzzles(tables, solved, earlier, seen))
    found += from_games(tables, solved, seed, seen, games=games, progress=progress)
    walks = WALKS[variant] if walks is None else walks
    found += from_walks(tables, solved, seed, seen, list(found), walks=walks)
    if solved is not None:
        placements = PLACEMENTS[variant] if placements is None else placements
        found += from_placements(tables, solved, seed, seen, games=placements)
    return choose(found, count)


# -- the report ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What a board's set holds."""

    variant: str
    count: int
    distinct: int
    one_move: int
    placement: int
    themes: dict[str, int]
    depths: dict[int, int]
    ratings: tuple[int, int, int, int, int]
    """The least, the lower quartile, the median, the upper quartile and the most."""
    choices_median: float
    tempting_median: float

    def lines(self) -> list[str]:
        share = self.one_move / self.count if self.count else 0.0
        return [
            f"{self.variant}: {self.count} puzzles, {self.distinct} distinct up to symmetry, "
            f"{self.one_move} won in one move ({share:.0%}), {self.placement} in the "
            "placement or the opening removals",
            "  themes: " + ", ".join(f"{k} {n}" for k, n in self.themes.items()),
            "  search depth to find the answer: "
            + ", ".join(f"{d}: {n}" for d, n in sorted(self.depths.items())),
            "  rating: least {}, quartiles {} {} {}, most {}".format(*self.ratings),
            f"  median legal moves {self.choices_median:g}, "
            f"median tempting wrong moves {self.tempting_median:g}",
        ]


def report(variant: str, puzzles: Sequence[Puzzle]) -> Report:
    ratings = sorted(p.rating for p in puzzles) or [0]
    quarter = statistics.quantiles(ratings, n=4) if len(ratings) > 1 else [ratings[0]] * 3
    themes = Counter(t.value for p in puzzles for t in p.themes)
    return Report(
        variant=variant,
        count=len(puzzles),
        distinct=len({canonical(p.position()) for p in puzzles}),
        one_move=sum(won_in_one(p) for p in puzzles),
        placement=sum(not _movement(p) for p in puzzles),
        themes=dict(themes.most_common()),
        depths=dict(Counter(p.depth for p in puzzles)),
        ratings=(
            ratings[0],
            round(quarter[0]),
            round(quarter[1]),
            round(quarter[2]),
            ratings[-1],
        ),
        choices_median=statistics.median([p.choices for p in puzzles] or [0]),
        tempting_median=statistics.median([p.tempting for p in puzzles] or [0]),
    )


# -- the command line -----------------------------------------------------------------------

VARIANTS = ("shax", "shax-small", "jar")


def add_parser(sub: Any) -> None:
    """``python -m engine puzzles``, under the engine's command line."""
    parser = sub.add_parser(
        "puzzles",
        help="make the puzzle set from the endgame tables, or report on it",
        description="Make the puzzle set: positions where one move wins, by the endgame "
        "tables, from games between the bot's levels, random walks on from the puzzles "
        "found, random placements on shax-small (by its solved board) and every position "
        "of jar; the shipped set: --keep the set before it, --games 0. Build "
        "the tables first: python -m engine.tables build --max 6 --max-total 11, and "
        "python -m engine.tables solve --variant shax-small and --variant jar. Writes one "
        "JSON-lines file a board and prints a report; progress goes to standard error.",
    )
    parser.add_argument("--variant", choices=(*VARIANTS, "all"), default="all")
    parser.add_argument(
        "--count", type=int, default=None, help="puzzles a board (default: the shipped set's)"
    )
    parser.add_argument(
        "--games", type=int, default=None, help="games a board (default: the shipped set's)"
    )
    parser.add_argument(
        "--walks", type=int, default=None, help="random walks a board (default: the shipped set's)"
    )
    parser.add_argument(
        "--placements",
        type=int,
        default=None,
        help="random placements on shax-small (default: the shipped set's)",
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--tables", type=Path, default=None, help="default: $SHAX_TABLES_DIR")
    parser.add_argument(
        "--out", type=Path, default=None, help="the folder to write to (default: print)"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="first take the puzzles of an earlier set (a folder of <board>.jsonl) that "
        "still are puzzles",
    )
    parser.add_argument(
        "--check", type=Path, default=None, metavar="FILE", help="check a file of puzzles"
    )
    parser.add_argument(
        "--report", action="store_true", help="report on the shipped set and make nothing"
    )
    parser.set_defaults(run=run_puzzles)


def run_puzzles(args: argparse.Namespace) -> int:
    variants = VARIANTS if args.variant == "all" else (args.variant,)
    if args.report:
        for variant in variants:
            print("\n".join(report(variant, shipped(variant)).lines()))
        return 0
    if args.count is not None and args.count < 1:
        print("--count takes a whole number of puzzles, 1 or more.", file=sys.stderr)
        return 2
    where = args.tables if args.tables is not None else tables_dir()
    if args.check is not None:
        if args.variant == "all":
            print("--check takes the board of the file: --variant.", file=sys.stderr)
            return 2
        return _check_file(args.variant, where, args.check)
    for variant in variants:
        tables = open_tables(variant, where)
        if tables is None:
            print(
                f"No endgame tables for {variant} in {where}: build them with "
                f"python -m engine.tables build --dir {where}.",
                file=sys.stderr,
            )
            return 2
        start = time.monotonic()
        count = args.count if args.count is not None else TARGETS[variant]

        def progress(found: int, games: int, variant: str = variant) -> None:
            print(f"\r{variant}: {found} puzzles from {games} games", end="", file=sys.stderr)
            sys.stderr.flush()

        games = args.games if args.games is not None else GAMES[variant]
        solved = open_solved(variant, where)
        earlier = read_puzzles(args.keep / f"{variant}.jsonl") if args.keep is not None else []
        puzzles = make_set(
            variant,
            tables,
            solved,
            args.seed,
            count,
            games,
            progress,
            earlier,
            walks=args.walks,
            placements=args.placements,
        )
        print(file=sys.stderr)
        text = "".join(json.dumps(p.to_json()) + "\n" for p in puzzles)
        if args.out is None:
            print(text, end="")
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{variant}.jsonl").write_text(text)
        lines = report(variant, puzzles).lines()
        lines.append(f"  made in {time.monotonic() - start:.0f} s (seed {args.seed})")
        print("\n".join(lines), file=sys.stderr if args.out is None else sys.stdout)
    return 0


def _check_file(variant: str, where: Path, path: Path) -> int:
    try:
        lines = [line for line in path.read_text().splitlines() if line.strip()]
    except OSError as exc:
        print(f"Cannot read {path}: {exc.strerror}.", file=sys.stderr)
        return 2
    tables = open_tables(variant, where)
    solved = open_solved(variant, where)
    bad = 0
    for number, line in enumerate(lines, 1):
        try:
            puzzle = Puzzle.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            problems = [f"not a puzzle ({exc})"]
        else:
            position = puzzle.position()
            covered = (
                tables is not None
                and position.phase is Phase.MOVEMENT
                and tables.probe(position) is not None
            )
            if tables is not None and (covered or solved is not None):
                problems = check(tables, puzzle, solved)
            else:
                problems = check_proof(puzzle)
        for problem in problems:
            print(f"{path}:{number}: {problem}")
        bad += bool(problems)
    print(f"{len(lines) - bad} of {len(lines)} puzzles are right.")
    return 1 if bad else 0
