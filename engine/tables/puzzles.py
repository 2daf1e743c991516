"""Puzzles from perfect play: positions where exactly one move wins, by the endgame tables.

A puzzle is a movement-phase position where the player to act wins with exactly one
first *step* — a move, and the removal it earns when it makes a jare: the two are one
step of the solution — while every other step draws or loses, and the win takes
``moves`` of the solver's steps (1 to :data:`MAX_MOVES`). The defence is the tables'
best: the longest resistance. Every later step of the solver is the only one that keeps
the win as quick, except the last, where any step that ends the game in the solver's
favour is right (:func:`answer`). No value a puzzle rests on leans on the 100-move count.
On the boards solved whole (shax-small, jar) a puzzle may also be a placement position or
an opening removal where exactly one action keeps a win (:func:`solve_placement`): its
solution is that one action.

Each puzzle carries its grade (``depth``, ``tempting``, ``choices``, the ``rating`` they
seed), its :class:`PuzzleTheme` ids and its ``proof``: the value of every step the
solver could take at each of their steps, which :func:`check_proof` checks against the
rules alone, without tables. The set that ships is in :data:`SHIPPED`, made by
:mod:`engine.tables.puzzle_set` (``python -m engine puzzles``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.errors import ShaxError
from engine.position import Action, Phase, Position, Step
from engine.record import replay
from engine.tables import Probe, Tables
from engine.tables.solved import Solved, solved_scores
from engine.variants import Variant

MAX_MOVES = 8
"""The longest win a puzzle asks for, in the solver's steps."""
MIN_CHOICES = 3
"""The fewest moves a puzzle's position offers: with one or two there is little to find."""

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
    """After the answer, or a later quiet step of the solution, two different moves would
    each make a jare: the defence can stop one, not both."""
    IRMAAN = "irmaan"
    """The answer makes an irmaan, a running jare: a stone that shunts between two points
    and makes a jare on every move, with no opposing stone able to step in."""
    XADHIG = "xadhig"
    """Xadhig ("rope"), the blockade: a step of the solution leaves the defence with no
    move."""
    OODAN = "oodan"
    """Closed: a freeing move on the solution's line (the solver's, or the defence's when
    the solver is the one blocked) makes a jare that captures nothing."""
    SACRIFICE = "sacrifice"
    """The defence takes a stone of the solver's on the way, and the solver wins anyway."""
    LABA_QAAD = "laba_qaad"
    """Laba-qaad, two jare at once: the answer, a placement, completes two lines (a move
    never can: every neighbour of a point lies on one of its lines)."""
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
    choices: int = 0
    """The legal actions at the puzzle's position (the moves to choose among)."""
    proof: tuple[tuple[tuple[str, str], ...], ...] = ()
    """What proves the solution: at each of the solver's steps on the line, every step
    they could take with its value (:func:`value_text`), as the tables or the solved
    board give it. With it, a board whose tables are not at hand is checked against
    the rules alone (:func:`check_proof`)."""

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
            "choices": self.choices,
            "proof": [dict(values) for values in self.proof],
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
            choices=int(data.get("choices", 0)),
            proof=tuple(
                tuple((str(k), str(v)) for k, v in values.items())
                for values in data.get("proof", ())
            ),
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
    counted from before the step; ``None`` where the tables do not reach, and where the
    100-move count would decide (a win it cuts to a draw): no puzzle leans on it."""
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
    if not mine.in_time(child.clock):
        return None
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
    one move of the player to act wins (with the removal it earns, if any), among
    :data:`MIN_CHOICES` or more, and each of the solver's steps but the last is the only
    one that keeps the quickest win. On the last step every step that ends the game in
    the solver's favour is right (a jare's removal that leaves two stones, whichever stone
    it takes). A step that blocks the defence is followed by the solver's freeing move
    (xadhig), as the rules have it; no value on the way may lean on the 100-move count."""
    return solve_line(tables, position)[0]


def solve_line(
    tables: Tables, position: Position
) -> tuple[tuple[StepActions, ...] | None, list[dict[str, Probe]]]:
    """:func:`solve`'s line, and the value of every step the solver could take at each of
    their steps of it (what proves it)."""
    proof: list[dict[str, Probe]] = []
    if position.outcome is not None or position.phase is not Phase.MOVEMENT:
        return None, proof
    if position.step is not Step.MOVE:
        return None, proof
    line: list[StepActions] = []
    me = position.turn
    v = position.variant
    taken = 0  # the solver's steps so far
    valued = valued_steps(tables, position)
    if valued is None or len({s[0] for s, _ in valued}) < MIN_CHOICES:
        return None, proof
    if len({s[0] for s, v in valued if v.result == "win"}) != 1:
        return None, proof
    while True:
        proof.append({step_notation(v, s): value for s, value in valued})
        best = max(value.rank() for _, value in valued)
        quickest = [(s, value) for s, value in valued if value.rank() == best]
        if quickest[0][1].result != "win":
            return None, proof
        if taken + solver_moves(quickest[0][1].moves) > MAX_MOVES:
            return None, proof
        step = quickest[0][0]
        child = after(position, step)
        if len(quickest) > 1 and child.outcome is None:
            return None, proof  # two ways on: the line would not be the only answer
        line.append(step)
        taken += 1
        if child.outcome is not None:
            won = child.outcome.winner is not None and child.outcome.winner.value == me
            return (tuple(line), proof) if won else (None, proof)
        position = child
        while position.turn != me:
            answer = defence(tables, position)
            if answer is None:
                return None, proof
            line.append(answer)
            position = after(position, answer)
            if position.outcome is not None:
                return None, proof
        if position.step not in (Step.MOVE, Step.FREE):
            return None, proof
        found = valued_steps(tables, position)
        if found is None:
            return None, proof
        valued = found


def step_notation(variant: Variant, step: StepActions) -> str:
    """A step as it is written: the move, then the removal it earns (``a1-a4 xb2``)."""
    return " ".join(a.notation(variant) for a in step)


def value_text(value: Probe) -> str:
    """A value as a proof stores it: ``W5`` (a win in 5 of both sides' moves), ``L3``,
    ``D``."""
    return "D" if value.result == "draw" else f"{value.result[0].upper()}{value.moves}"


def text_value(text: str) -> Probe:
    """The value :func:`value_text` wrote."""
    if text == "D":
        return Probe("draw", 0)
    return Probe("win" if text[0] == "W" else "loss", int(text[1:]))


MAX_PLACEMENT_WIN = 100
"""The longest win a placement puzzle may ask for, in moves (placements included): the
movement that follows stays well inside the 100-move count."""


def solve_placement(
    solved: Solved, position: Position
) -> tuple[tuple[StepActions, ...] | None, list[dict[str, Probe]]]:
    """A placement puzzle (or an opening removal's) at ``position``, by the solved board:
    exactly one of :data:`MIN_CHOICES` or more actions keeps a win; the solution is that
    action alone. Also the value of every action (the proof)."""
    if position.outcome is not None or position.phase is Phase.MOVEMENT:
        return None, []
    scored = solved_scores(position, solved)
    if scored is None:
        return None, []
    v = position.variant
    values = [(a, Probe(p.result, p.moves + 1 if p.result != "draw" else 0)) for a, p in scored]
    proof = [{a.notation(v): value for a, value in values}]
    wins = [(a, value) for a, value in values if value.result == "win"]
    if len(values) < MIN_CHOICES or len(wins) != 1 or wins[0][1].moves > MAX_PLACEMENT_WIN:
        return None, proof
    return ((wins[0][0],),), proof


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
    the last step any that wins at once), solved (the game won, or the whole solution
    played: a placement puzzle asks for one action), or wrong. An action that is not legal
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
    if now == puzzle.solution:  # a placement puzzle: the one winning stone, found
        return Answer("solved", now, ())
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


# -- checking ----------------------------------------------------------------------------


def solver_steps(position: Position, line: Sequence[StepActions]) -> int:
    """How many of ``line``'s steps are the solver's (whoever acts at ``position``)."""
    me = position.turn
    count = 0
    for step in line:
        count += position.turn == me
        position = after(position, step)
    return count


def proof_of(values: list[dict[str, Probe]]) -> tuple[tuple[tuple[str, str], ...], ...]:
    return tuple(tuple((k, value_text(p)) for k, p in sorted(v.items())) for v in values)


def check(tables: Tables, puzzle: Puzzle, solved: Solved | None = None) -> list[str]:
    """What is wrong with a puzzle by the tables (nothing: ``[]``): the record is legal,
    the first step is the only win, the solution is the line :func:`solve` finds (or
    :func:`solve_placement`, by ``solved``) and wins in ``moves``; the stored proof is
    the tables' values and holds by the rules (:func:`check_proof`)."""
    try:
        position = puzzle.position()
    except ShaxError as exc:
        return [f"the record does not replay: {exc}"]
    if position.phase is Phase.MOVEMENT:
        line, values = solve_line(tables, position)
    elif solved is None:
        return ["a placement puzzle is checked by the solved board, and it is not at hand"]
    else:
        line, values = solve_placement(solved, position)
    if line is None:
        return ["the position is not a puzzle by the tables (no single winning step)"]
    v = position.variant
    solution = tuple(a.notation(v) for step in line for a in step)
    problems = []
    if solution != puzzle.solution:
        problems.append(f"the solution is {' '.join(solution)}, not {' '.join(puzzle.solution)}")
    if solver_steps(position, line) != puzzle.moves:
        problems.append(f"the win takes {solver_steps(position, line)} moves, not {puzzle.moves}")
    if puzzle.proof and puzzle.proof != proof_of(values):
        problems.append("the stored proof is not the tables' values")
    return problems + check_proof(puzzle)


def check_proof(puzzle: Puzzle) -> list[str]:
    """What is wrong with a puzzle by its stored proof and the rules alone, without any
    table (nothing: ``[]``): at each of the solver's steps the proof values exactly the
    legal steps; the first step is the only winning move among :data:`MIN_CHOICES` or
    more; each step of the solution is the quickest win, the only one but where it ends
    the game, and its value counts down along the line to the game's end in the
    solver's favour (or, for a placement puzzle, to its one action)."""
    try:
        position = puzzle.position()
    except ShaxError as exc:
        return [f"the record does not replay: {exc}"]
    if not puzzle.proof:
        return ["no proof is stored"]
    start = position
    v = position.variant
    me = position.turn
    problems: list[str] = []
    done = 0  # solution actions played
    taken = 0  # the solver's steps
    due: int | None = None  # the value the solver's next step must have
    while done < len(puzzle.solution):
        actor = position.turn
        step = list(puzzle.solution[done : done + 2])
        try:
            child = position.apply(step[0])
            if child.outcome is None and child.step is Step.REMOVE and child.turn == actor:
                if len(step) < 2:
                    return [*problems, "the solution ends before its last step does"]
                child = child.apply(step[1])
            else:
                step = step[:1]
        except ShaxError as exc:
            return [*problems, f"the solution does not replay: {exc}"]
        done += len(step)
        if actor != me:
            due = None if due is None else due - 1
            position = child
            continue
        if taken >= len(puzzle.proof):
            return [*problems, "the proof ends before the solution"]
        values = {key: text_value(text) for key, text in puzzle.proof[taken]}
        legal = (
            {step_notation(v, s) for s in steps(position)}
            if position.phase is Phase.MOVEMENT
            else {a.notation(v) for a in position.legal_actions()}
        )
        where = f"at the solver's step {taken + 1}"
        if set(values) != legal:
            problems.append(f"{where} the proof does not value exactly the legal steps")
        mine = values.get(" ".join(step))
        best = max(p.rank() for p in values.values())
        if mine is None or mine.result != "win" or mine.rank() != best:
            problems.append(f"{where} the solution's step is not the quickest win")
            return problems
        if taken == 0:
            moves = {key.split()[0] for key in values}
            wins = {key.split()[0] for key, p in values.items() if p.result == "win"}
            if len(wins) != 1 or len(moves) < MIN_CHOICES:
                problems.append("the first step is not the only winning move of three or more")
        elif child.outcome is None and sum(p.rank() == best for p in values.values()) > 1:
            problems.append(f"{where} two steps win as quickly")
        if due is not None and mine.moves != due:
            problems.append(f"{where} the values do not count down along the line")
        due = mine.moves - 1
        taken += 1
        position = child
    if taken != len(puzzle.proof):
        problems.append("the proof values more steps than the solution has")
    if taken != puzzle.moves:
        problems.append(f"the solution has {taken} of the solver's steps, not {puzzle.moves}")
    if start.phase is Phase.MOVEMENT:
        end = position.outcome
        if end is None or end.winner is None or end.winner.value != me:
            problems.append("the solution does not end in the solver's win")
        elif due != 0:
            problems.append("the last value is not a win at once")
    return problems


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles of a JSON-lines file (none if there is no such file)."""
    if not path.is_file():
        return []
    return [Puzzle.from_json(json.loads(line)) for line in path.read_text().splitlines() if line]


def shipped(variant: str) -> list[Puzzle]:
    """The puzzles that ship for ``variant`` (none for a board without a file)."""
    return read_puzzles(SHIPPED / f"{variant}.jsonl")
