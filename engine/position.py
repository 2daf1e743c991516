"""Positions and the rules of RULES.md: legal actions, applying them, outcomes.

A :class:`Position` is immutable and hashable. Applying an action returns a new
position. Sets of points are ints (bit ``i`` is point ``i`` of the variant).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, IntEnum
from typing import NamedTuple

from engine.errors import GameOverError, IllegalActionError, NotationError
from engine.variants import Color, Variant, get_variant, iter_bits
from engine.verdicts import Malformed, Outcome, Refusal, Termination

WHITE, BLACK = 0, 1
MOVE_LIMIT = 100
"""Moves in a row without a capture after which the game is drawn (50 each)."""
MAX_NOTATION = 16
"""Longer text is never an action (the longest, a move, is 5 characters)."""
REPETITIONS = 3
"""The occurrence of a movement-phase position that draws the game."""


class Phase(Enum):
    PLACEMENT = "placement"
    REMOVAL = "removal"
    """The two opening removals of shax, after the board is full."""
    MOVEMENT = "movement"


class Step(Enum):
    """What the player to act must do now."""

    PLACE = "place"
    REMOVE = "remove"
    MOVE = "move"
    FREE = "free"
    """Move so that the blocked opponent can move (jid i sii aan jar aheyn)."""


class Kind(IntEnum):
    PLACE = 0
    MOVE = 1
    REMOVE = 2


class Action(NamedTuple):
    """One action: a placement (``dst``), a move (``src`` to ``dst``) or a removal (``dst``)."""

    kind: Kind
    dst: int
    src: int = -1

    def notation(self, variant: Variant) -> str:
        names = variant.points
        if self.kind is Kind.MOVE:
            return f"{names[self.src]}-{names[self.dst]}"
        if self.kind is Kind.REMOVE:
            return "x" + names[self.dst]
        return names[self.dst]


def parse_action(variant: Variant, text: str) -> Action:
    """Read ``d7``, ``a7-d7`` or ``xg1`` on this board; raises :class:`NotationError`."""
    raw = text
    text = text.strip().lower()
    if not text:
        raise NotationError(raw, Malformed.EMPTY)

    if len(text) > MAX_NOTATION:
        raise NotationError(raw[:MAX_NOTATION] + "…", Malformed.TOO_LONG)

    def point(name: str) -> int:
        i = variant.index.get(name)
        if i is None:
            params = {"point": name, "variant": variant.id, "points": variant.points}
            raise NotationError(raw, Malformed.UNKNOWN_POINT, params=params)
        return i

    if text.startswith("x"):
        return Action(Kind.REMOVE, point(text[1:]))
    if "-" in text:
        parts = text.split("-")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise NotationError(raw, Malformed.MOVE_FORM)
        return Action(Kind.MOVE, point(parts[1]), point(parts[0]))
    if len(text) > 4 or not text[0].isalpha() or not text[1:].isdigit():
        raise NotationError(raw, Malformed.NOT_AN_ACTION)
    return Action(Kind.PLACE, point(text))


class Position:
    """A moment of a game: the stones, what the player to act must do, and the outcome.

    Immutable and hashable. ``history`` holds the movement-phase keys (board and
    player to act) since the last removal, for the repetition rule.
    """

    __slots__ = (
        "_hash",
        "black",
        "clock",
        "first_jare_index",
        "hand",
        "history",
        "outcome",
        "phase",
        "step",
        "turn",
        "variant",
        "white",
    )

    variant: Variant
    white: int
    black: int
    hand: tuple[int, int]
    turn: int
    phase: Phase
    step: Step
    first_jare_index: int
    clock: int
    history: tuple[int, ...]
    outcome: Outcome | None

    def __init__(
        self,
        variant: Variant,
        white: int,
        black: int,
        hand: tuple[int, int],
        turn: int,
        phase: Phase,
        step: Step,
        first_jare_index: int = -1,
        clock: int = 0,
        history: tuple[int, ...] = (),
        outcome: Outcome | None = None,
    ) -> None:
        self.variant = variant
        self.white = white
        self.black = black
        self.hand = hand
        self.turn = turn
        self.phase = phase
        self.step = step
        self.first_jare_index = first_jare_index
        self.clock = clock
        self.history = history
        self.outcome = outcome
        self._hash = -1

    # -- construction -------------------------------------------------------

    @classmethod
    def initial(cls, variant: str | Variant) -> Position:
        """The empty board, white to place."""
        v = get_variant(variant)
        return cls(v, 0, 0, (v.pieces, v.pieces), WHITE, Phase.PLACEMENT, Step.PLACE)

    @classmethod
    def setup(
        cls,
        variant: str | Variant,
        white: str | Iterable[str] = (),
        black: str | Iterable[str] = (),
        to_move: Color | str = Color.WHITE,
        *,
        removal_due: bool = False,
        clock: int = 0,
    ) -> Position:
        """A movement-phase position from a diagram, for puzzles and tests.

        ``to_move`` is the player due to move; if that player is blocked the
        opponent must free them, exactly as after a real move. With
        ``removal_due`` the player has just formed a jare and must remove a stone.
        """
        v = get_variant(variant)
        w, b = _mask(v, white), _mask(v, black)
        if w & b:
            raise ValueError(f"points with two stones: {' '.join(v.names(w & b))}")
        for color, mask in (("white", w), ("black", b)):
            if not 0 < mask.bit_count() <= v.pieces:
                raise ValueError(f"{color} needs between 1 and {v.pieces} stones")
        player = (Color[to_move.upper()] if isinstance(to_move, str) else to_move).value
        hand = (0, 0)
        if removal_due:
            return cls(v, w, b, hand, player, Phase.MOVEMENT, Step.REMOVE, -1, clock)
        return _begin_turn(v, w, b, hand, player, -1, clock, ())

    # -- value semantics -----------------------------------------------------

    def _args(self) -> tuple[object, ...]:
        """The constructor's arguments: what a position is."""
        return (
            self.variant,
            self.white,
            self.black,
            self.hand,
            self.turn,
            self.phase,
            self.step,
            self.first_jare_index,
            self.clock,
            self.history,
            self.outcome,
        )

    def _fields(self) -> tuple[object, ...]:
        # Variants are singletons: compare and hash them by id.
        return (self.variant.id, *self._args()[1:])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._fields() == other._fields()

    def __hash__(self) -> int:
        if self._hash == -1:
            self._hash = hash(self._fields())
        return self._hash

    def __repr__(self) -> str:
        return f"<Position {self.variant.id} {self.phase.value}/{self.step.value} {self.to_fen()}>"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Position, self._args())

    # -- reading -------------------------------------------------------------

    @property
    def key(self) -> int:
        """Board and player to act as one int: the repetition key."""
        n = self.variant.size
        return self.white | self.black << n | self.turn << (2 * n)

    @property
    def to_move(self) -> Color | None:
        """The player who must act now (the opponent, during a freeing move); ``None`` when over."""
        return None if self.outcome else Color(self.turn)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def first_jare(self) -> Color | None:
        """Who formed the first jare while placing, if anyone did: that player removes
        first in shax and moves first in jar."""
        return None if self.first_jare_index < 0 else Color(self.first_jare_index)

    @property
    def blocked(self) -> Color | None:
        """The player who cannot move and is being freed, during a freeing move."""
        return Color(1 - self.turn) if self.step is Step.FREE and not self.outcome else None

    @property
    def empty(self) -> int:
        return self.variant.all_points & ~(self.white | self.black)

    def stones(self, color: Color | int) -> int:
        """Bitmask of a player's stones on the board."""
        c = color.value if isinstance(color, Color) else color
        return self.black if c else self.white

    def count(self, color: Color | int) -> int:
        """Stones a player has on the board."""
        return self.stones(color).bit_count()

    def in_hand(self, color: Color | int) -> int:
        """Stones a player still has to place."""
        c = color.value if isinstance(color, Color) else color
        return self.hand[c]

    def at(self, point: str | int) -> Color | None:
        """The colour of the stone on a point, or ``None``."""
        i = self.variant.index[point] if isinstance(point, str) else point
        if self.white >> i & 1:
            return Color.WHITE
        if self.black >> i & 1:
            return Color.BLACK
        return None

    def board(self) -> dict[str, Color]:
        """Every occupied point and its stone's colour."""
        v = self.variant
        out = {v.points[i]: Color.WHITE for i in iter_bits(self.white)}
        out.update({v.points[i]: Color.BLACK for i in iter_bits(self.black)})
        return out

    def to_fen(self) -> str:
        """A compact text of the board: points in order, W/B/. for white, black, empty."""
        return "".join(
            "W" if self.white >> i & 1 else "B" if self.black >> i & 1 else "."
            for i in range(self.variant.size)
        )

    @property
    def moves_without_capture(self) -> int:
        return self.clock

    def can_move(self, color: Color | int) -> bool:
        """Whether a player has a stone next to an empty point."""
        c = color.value if isinstance(color, Color) else color
        own = self.black if c else self.white
        return _mobile(self.variant, own, self.empty)

    def jare_formed(self, action: Action) -> int:
        """Lines of three this placement or move would complete for the player to act (a mask)."""
        if action.kind is Kind.REMOVE:
            return 0
        own = self.black if self.turn else self.white
        if action.kind is Kind.MOVE:
            own &= ~(1 << action.src)
        own |= 1 << action.dst
        formed = 0
        for line in self.variant.lines_through[action.dst]:
            if own & line == line:
                formed |= line
        return formed

    # -- legal actions -------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now (empty when the game is over)."""
        if self.outcome:
            return []
        v = self.variant
        step = self.step
        if step is Step.PLACE:
            return [Action(Kind.PLACE, i) for i in iter_bits(self.empty)]
        if step is Step.REMOVE:
            opp = self.white if self.turn else self.black
            return [Action(Kind.REMOVE, i) for i in iter_bits(opp)]
        own = self.black if self.turn else self.white
        moves = _moves(v, own, self.empty)
        if step is Step.FREE:
            blocked = self.white if self.turn else self.black
            adj = v.adjacent
            freeing = [m for m in moves if adj[m.src] & blocked]
            return freeing or moves
        return moves

    def legal_notations(self) -> list[str]:
        """The legal actions in notation, sorted."""
        v = self.variant
        return sorted(a.notation(v) for a in self.legal_actions())

    def parse(self, text: str) -> Action:
        """Read an action in notation on this position's board (legality not checked)."""
        return parse_action(self.variant, text)

    # -- applying ------------------------------------------------------------

    def apply(self, action: Action | str) -> Position:
        """The position after a legal action; raises a specific error otherwise."""
        if isinstance(action, str):
            action = self.parse(action)
        legal = self.legal_actions()
        if action not in legal:
            self._refuse(action, legal)
        return self.play(action)

    def play(self, action: Action) -> Position:
        """The position after ``action``, which must be legal (not checked: for search loops)."""
        v = self.variant
        turn = self.turn
        white, black = self.white, self.black
        kind = action.kind
        dst_bit = 1 << action.dst

        if kind is Kind.PLACE:
            if turn:
                black |= dst_bit
            else:
                white |= dst_bit
            hand = (
                (self.hand[0] - 1, self.hand[1])
                if turn == WHITE
                else (self.hand[0], self.hand[1] - 1)
            )
            own = black if turn else white
            first = self.first_jare_index
            # A jare while placing captures nothing and wins nothing: the game only
            # remembers who formed the first one.
            if first < 0 and any(own & line == line for line in v.lines_through[action.dst]):
                first = turn
            if hand[0] or hand[1]:
                return Position(v, white, black, hand, 1 - turn, Phase.PLACEMENT, Step.PLACE, first)
            # The first-jare player acts first (removes in shax, moves in jar), else black.
            opener = first if first >= 0 else BLACK
            if v.family == "jar":
                return _begin_turn(v, white, black, hand, opener, first, 0, ())
            return Position(v, white, black, hand, opener, Phase.REMOVAL, Step.REMOVE, first)

        if kind is Kind.REMOVE:
            if turn:
                white &= ~dst_bit
            else:
                black &= ~dst_bit
            first = self.first_jare_index
            if self.phase is Phase.REMOVAL:
                remover = first if first >= 0 else BLACK
                if turn == remover:
                    return Position(
                        v, white, black, self.hand, 1 - turn, Phase.REMOVAL, Step.REMOVE, first
                    )
                return _begin_turn(v, white, black, self.hand, remover, first, 0, ())
            opp = white if turn else black
            if opp.bit_count() <= 2:
                return Position(
                    v,
                    white,
                    black,
                    self.hand,
                    turn,
                    Phase.MOVEMENT,
                    Step.REMOVE,
                    first,
                    0,
                    (),
                    Outcome(Color(turn), Termination.TWO_PIECES),
                )
            return _begin_turn(v, white, black, self.hand, 1 - turn, first, 0, ())

        # A move, ordinary or freeing.
        src_bit = 1 << action.src
        if turn:
            black ^= src_bit | dst_bit
        else:
            white ^= src_bit | dst_bit
        clock = self.clock + 1
        # A freeing move is oodan: it never captures or wins. Otherwise a move that forms
        # a line (every line through its point is new: the point was empty) captures in
        # shax and wins in jar; a line standing since the placement does neither.
        if self.step is not Step.FREE:
            own = black if turn else white
            if any(own & line == line for line in v.lines_through[action.dst]):
                if v.family == "jar":
                    return Position(
                        v,
                        white,
                        black,
                        self.hand,
                        turn,
                        Phase.MOVEMENT,
                        self.step,
                        self.first_jare_index,
                        clock,
                        self.history,
                        Outcome(Color(turn), Termination.THREE_IN_A_ROW),
                    )
                return Position(
                    v,
                    white,
                    black,
                    self.hand,
                    turn,
                    Phase.MOVEMENT,
                    Step.REMOVE,
                    self.first_jare_index,
                    clock,
                    self.history,
                )
        return _begin_turn(
            v, white, black, self.hand, 1 - turn, self.first_jare_index, clock, self.history
        )

    # -- explaining refusals -----------------------------------------------

    def _refuse(self, action: Action, legal: list[Action]) -> None:
        v = self.variant
        names = v.points
        text = action.notation(v)
        legal_text = sorted(a.notation(v) for a in legal)
        if self.outcome:
            raise GameOverError(text, Refusal.GAME_OVER, [], params={"outcome": self.outcome})
        me = Color(self.turn)
        them = me.other
        step = self.step
        own = self.black if self.turn else self.white
        opp = self.white if self.turn else self.black
        params: dict[str, object] = {"player": me, "opponent": them}
        if step is Step.PLACE:
            if action.kind is not Kind.PLACE:
                refusal = Refusal.STILL_PLACING
                params = {"player": me}
            else:
                refusal = Refusal.POINT_TAKEN
                params = {"point": names[action.dst]}
        elif step is Step.REMOVE:
            if action.kind is not Kind.REMOVE:
                refusal = (
                    Refusal.OPENING_REMOVAL_DUE
                    if self.phase is Phase.REMOVAL
                    else Refusal.JARE_REMOVAL_DUE
                )
            elif own >> action.dst & 1:
                refusal = Refusal.OWN_STONE
                params["point"] = names[action.dst]
            else:
                refusal = Refusal.NOTHING_TO_REMOVE
                params = {"point": names[action.dst], "opponent": them}
        else:
            refusal, params = self._explain_move(action, own, opp, me)
        raise IllegalActionError(text, refusal, legal_text, params=params)

    def _explain_move(
        self, action: Action, own: int, opp: int, me: Color
    ) -> tuple[Refusal, dict[str, object]]:
        """Why a move is refused: the rule, and the points and colours it is about."""
        v = self.variant
        names = v.points
        them = me.other
        if action.kind is Kind.PLACE:
            return Refusal.ALL_PLACED, {"player": me}
        if action.kind is Kind.REMOVE:
            return Refusal.NO_REMOVAL_DUE, {"player": me}
        src, dst = action.src, action.dst
        if not own >> src & 1:
            if opp >> src & 1:
                return Refusal.OPPONENTS_STONE, {
                    "point": names[src],
                    "opponent": them,
                    "player": me,
                }
            return Refusal.NOTHING_TO_MOVE, {"point": names[src], "player": me}
        if not v.adjacent[src] >> dst & 1:
            near = tuple(v.names(v.adjacent[src]))
            return Refusal.NOT_ADJACENT, {"src": names[src], "dst": names[dst], "near": near}
        if not self.empty >> dst & 1:
            return Refusal.OCCUPIED, {"point": names[dst]}
        if self.step is Step.FREE:
            return Refusal.MUST_FREE, {"opponent": them, "player": me}
        return Refusal.NOT_ALLOWED, {}  # unreachable with the rules above


def _mask(v: Variant, points: str | Iterable[str]) -> int:
    names = points.split() if isinstance(points, str) else points
    mask = 0
    for name in names:
        if name not in v.index:
            raise ValueError(f"{name!r} is not a point on the {v.id} board")
        mask |= 1 << v.index[name]
    return mask


def _mobile(v: Variant, own: int, empty: int) -> bool:
    adj = v.adjacent
    reach = 0
    while empty:
        low = empty & -empty
        reach |= adj[low.bit_length() - 1]
        empty ^= low
    return bool(reach & own)


def _moves(v: Variant, own: int, empty: int) -> list[Action]:
    adj = v.adjacent
    out = []
    move = Kind.MOVE
    while own:
        low = own & -own
        src = low.bit_length() - 1
        own ^= low
        targets = adj[src] & empty
        while targets:
            t = targets & -targets
            out.append(Action(move, t.bit_length() - 1, src))
            targets ^= t
    return out


def _begin_turn(
    v: Variant,
    white: int,
    black: int,
    hand: tuple[int, int],
    player: int,
    first: int,
    clock: int,
    history: tuple[int, ...],
) -> Position:
    """The movement-phase position where ``player`` is due to move.

    Resolves the blockade (the opponent frees a blocked player), then records the
    position for the repetition rule and applies the draw rules.
    """
    empty = v.all_points & ~(white | black)
    if _mobile(v, black if player else white, empty):
        actor, step = player, Step.MOVE
    elif _mobile(v, white if player else black, empty):
        actor, step = 1 - player, Step.FREE
    else:
        return Position(
            v,
            white,
            black,
            hand,
            player,
            Phase.MOVEMENT,
            Step.MOVE,
            first,
            clock,
            history,
            Outcome(None, Termination.MUTUAL_BLOCKADE),
        )
    n = v.size
    key = white | black << n | actor << (2 * n)
    history = (*history, key)
    outcome = None
    if history.count(key) >= REPETITIONS:
        outcome = Outcome(None, Termination.THREEFOLD_REPETITION)
    elif clock >= MOVE_LIMIT:
        outcome = Outcome(None, Termination.MOVE_LIMIT)
    return Position(
        v, white, black, hand, actor, Phase.MOVEMENT, step, first, clock, history, outcome
    )
