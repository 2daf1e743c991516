"""The named moments (engine/moments.py) on hand-built positions, near-misses included."""

from __future__ import annotations

import random

import pytest

from engine import Color, Kind, Phase, Position, Step, replay
from engine.moments import (
    Moment,
    Shuttle,
    has_irmaan,
    irmaan,
    irmaan_appeared,
    lines_completed,
    moments_after,
)

W, B = Color.WHITE, Color.BLACK


def moments(before: Position, text: str) -> frozenset[Moment]:
    action = before.parse(text)
    return moments_after(before, action, before.apply(action))


def points(position: Position, mask: int) -> str:
    return " ".join(position.variant.names(mask))


# -- irmaan ---------------------------------------------------------------------------

# White's a7 d7 g7 stands; b6 and f6 wait on the line below: d7 shunts to d6 and back,
# forming a jare every move. Black is far away.
IRMAAN_WHITE = "a7 d7 g7 b6 f6"
FAR_BLACK = "c3 e3 d1"


def test_a_stone_that_forms_a_jare_on_every_shunt_is_an_irmaan() -> None:
    p = Position.setup("shax", IRMAAN_WHITE, FAR_BLACK)
    [shuttle] = irmaan(p, W)
    v = p.variant
    assert isinstance(shuttle, Shuttle)
    assert (v.points[shuttle.stone], v.points[shuttle.empty]) == ("d7", "d6")
    assert points(p, shuttle.standing) == "a7 d7 g7"
    assert points(p, shuttle.forming) == "b6 d6 f6"
    assert irmaan(p, B) == []


def test_the_stone_standing_outside_both_jares_is_the_same_irmaan() -> None:
    # The stone on d6 completes b6 d6 f6 now and a7 d7 g7 from d7.
    p = Position.setup("shax", "a7 g7 b6 d6 f6", FAR_BLACK)
    [shuttle] = irmaan(p, W)
    assert p.variant.points[shuttle.stone] == "d6"


def test_the_move_that_completes_an_irmaan_announces_it() -> None:
    before = Position.setup("shax", "a7 d7 g7 b6 f4", FAR_BLACK)
    assert irmaan(before, W) == []
    assert moments(before, "f4-f6") == {Moment.IRMAAN}


def test_shunting_an_irmaan_forms_a_jare_but_is_not_announced_again() -> None:
    before = Position.setup("shax", IRMAAN_WHITE, FAR_BLACK)
    after = before.apply("d7-d6")
    assert after.step is Step.REMOVE  # the shunt formed b6 d6 f6
    assert irmaan(after, W)
    assert moments_after(before, before.parse("d7-d6"), after) == frozenset()


def test_an_opponent_stone_next_to_the_empty_point_can_block_it_so_no_irmaan() -> None:
    # Black on d5 can step into d6 whenever it is empty.
    p = Position.setup("shax", IRMAAN_WHITE, "d5 c3 e3")
    assert irmaan(p, W) == []
    before = Position.setup("shax", "a7 d7 g7 b6 f4", "d5 c3 e3")
    assert Moment.IRMAAN not in moments(before, "f4-f6")


def test_an_opponent_stone_next_to_the_stone_can_block_the_point_it_leaves() -> None:
    # Shunting d6 to d7 leaves d6 open to the black stone on d5.
    p = Position.setup("shax", "a7 g7 b6 d6 f6", "d5 c3 e3")
    assert irmaan(p, W) == []


def test_moving_out_of_a_jare_and_back_is_not_an_irmaan() -> None:
    # d7 to d6 forms nothing (f6 is missing): a jare only every second move.
    p = Position.setup("shax", "a7 d7 g7 b6", FAR_BLACK)
    assert irmaan(p, W) == []


def test_a_shunt_that_forms_a_jare_only_one_way_is_not_an_irmaan() -> None:
    # From d6 back to d7 forms nothing: g7 is missing.
    p = Position.setup("shax", "a7 d7 b6 d6 f6", FAR_BLACK)
    assert irmaan(p, W) == []


def test_a_capture_that_removes_the_blocker_makes_the_irmaan() -> None:
    before = Position.setup("shax", IRMAAN_WHITE, "d5 c3 e3 a1", removal_due=True)
    assert moments(before, "xd5") == {Moment.IRMAAN}
    before = Position.setup("shax", IRMAAN_WHITE, "d5 c3 e3 a1", removal_due=True)
    assert moments(before, "xa1") == frozenset()


# The irmaan is announced for whoever has one now and had none before, whoever acted.

# White forms the first jare (a1 a4 a7); the opening removal xb4 leaves the a4/b4 shuttle
# (a1 a4 a7 stands, b2 b6 waits for b4) and black's xf2 begins the movement with it ready.
# White then captures with it three times.
READY_AT_THE_START = (
    "a1 b4 a4 g7 a7 d6 b2 c5 b6 d5 c4 e4 d7 f4 f6 c3 e5 e3 g4 d2 d3 d1 f2 g1 xb4 xf2 "
    "a4-b4 xg7 d2-f2 b4-a4 xd6 f2-d2 a4-b4 xd5"
)


def announcements(variant: str, record: str) -> list[tuple[int, Color]]:
    """Each action of a record after which someone has a new irmaan: (index, who)."""
    out = []
    p = Position.initial(variant)
    for i, text in enumerate(record.split()):
        after = p.apply(text)
        out += [(i, c) for c in irmaan_appeared(p, after)]
        p = after
    return out


def test_an_irmaan_ready_as_the_movement_begins_is_announced_once() -> None:
    assert announcements("shax", READY_AT_THE_START) == [(25, W)]  # after black's xf2
    p = replay("shax", READY_AT_THE_START.split()[:25])
    assert p.phase is Phase.REMOVAL and irmaan(p, W)  # already there, not yet moving
    after = p.apply("xf2")
    assert Moment.IRMAAN not in moments_after(p, p.parse("xf2"), after)  # black acted


def test_an_irmaan_is_not_announced_during_the_opening_removals() -> None:
    p = replay("shax", READY_AT_THE_START.split()[:24])
    after = p.apply("xb4")  # white's removal makes the shuttle, but nobody moves yet
    assert irmaan(after, W) and irmaan_appeared(p, after) == ()
    assert moments(p, "xb4") == frozenset()


def test_the_opponents_move_that_takes_the_only_blocker_away_gives_the_irmaan() -> None:
    # Black's d5 alone can step into d6; moving it to c5 leaves white's shuttle free.
    before = Position.setup("shax", IRMAAN_WHITE, "d5 c3 e3 a1", to_move=B)
    assert irmaan(before, W) == []
    after = before.apply("d5-c5")
    assert irmaan_appeared(before, after) == (W,)
    assert moments_after(before, before.parse("d5-c5"), after) == frozenset()  # not black's


def test_the_blocker_stepping_into_the_point_or_another_stone_moving_gives_nothing() -> None:
    before = Position.setup("shax", IRMAAN_WHITE, "d5 c3 e3 a1", to_move=B)
    for move in ("d5-d6", "c3-c4", "a1-a4"):
        assert irmaan_appeared(before, before.apply(move)) == (), move


# The stone on d6 stands in b6 d6 f6 and can shunt to d7 (a7 d7 g7) or to d5 (c5 d5 e5).
TWO_WAYS_WHITE = "a7 g7 b6 d6 f6 c5 e5"


def test_a_stone_with_two_points_to_shunt_to_is_announced_once_not_on_each_return() -> None:
    p = Position.setup("shax", "a7 g7 b6 d6 f6 c5 e4", "a1 d1 g1 c3 e3 f2", to_move=W)
    assert irmaan(p, W) and not has_irmaan(p, B)
    found = []
    for text in (
        "e4-e5",
        "f2-d2",
        "d6-d7",
        "xa1",
        "d2-f2",
        "d7-d6",
        "xd1",
        "f2-d2",
        "d6-d5",
        "xg1",
        "d2-f2",
        "d5-d6",
    ):
        after = p.apply(text)
        found.append((text, moments_after(p, p.parse(text), after), irmaan_appeared(p, after)))
        p = after
    # e4-e5 completes the second way (c5 d5 e5): white already had an irmaan, so no cry.
    assert all(m == frozenset() and who == () for _, m, who in found), found
    assert len(irmaan(p, W)) == 2  # back on d6, both ways open


def test_an_irmaan_blocked_and_then_freed_is_announced_again() -> None:
    p = Position.setup("shax", IRMAAN_WHITE + " g1", "c5 c3 e3 a1", to_move=B)
    assert irmaan(p, W)
    blocked = p.apply("c5-d5")  # d5 is next to d6: black could step into it
    assert irmaan(blocked, W) == [] and irmaan_appeared(p, blocked) == ()
    waiting = blocked.apply("g1-g4")
    freed = waiting.apply("d5-c5")
    assert irmaan_appeared(waiting, freed) == (W,)


def test_an_irmaan_on_the_small_board_uses_a_join() -> None:
    # a3 and b3 are joined (not a line): a3 completes a1 a3 a5, b3 completes b2 b3 b4.
    p = Position.setup("shax-small", "a1 a3 a5 b2 b4", "d4 e1")
    [shuttle] = irmaan(p, W)
    v = p.variant
    assert (v.points[shuttle.stone], v.points[shuttle.empty]) == ("a3", "b3")


def test_no_irmaan_is_announced_once_the_game_is_over() -> None:
    # The capture leaves black two stones: the game ends.
    before = Position.setup("shax", IRMAAN_WHITE, "d5 c3 e3", removal_due=True)
    after = before.apply("xd5")
    assert after.is_over
    assert moments_after(before, before.parse("xd5"), after) == frozenset()


# -- laba-qaad -----------------------------------------------------------------------


def placed(*actions: str) -> Position:
    p = Position.initial("shax")
    for a in actions:
        p = p.apply(a)
    return p


def test_a_placement_that_completes_two_lines_is_laba_qaad() -> None:
    # White's a7 completes a7 d7 g7 and a1 a4 a7 at once.
    before = placed("d7", "c5", "g7", "e5", "a4", "c3", "a1", "e3")
    assert len(lines_completed(before, before.parse("a7"))) == 2
    assert moments(before, "a7") == {Moment.LABA_QAAD}


def test_a_placement_that_completes_one_line_is_not_laba_qaad() -> None:
    before = placed("d7", "c5", "g7", "e5", "a4", "c3", "b2", "e3")
    assert len(lines_completed(before, before.parse("a7"))) == 1
    assert moments(before, "a7") == frozenset()


@pytest.mark.parametrize("variant", ["shax", "shax-small"])
def test_a_move_never_completes_two_lines(variant: str) -> None:
    rng = random.Random(14)
    for _ in range(40):
        p = Position.initial(variant)
        while not p.is_over and p.clock < 60:
            actions = p.legal_actions()
            for a in actions:
                if a.kind is Kind.MOVE:
                    assert len(lines_completed(p, a)) <= 1
            p = p.play(rng.choice(actions))


# -- haarig (the blockade) and oodan --------------------------------------------------

# Black's a7, a1 and g1 are each shut in by white's d7, a4, d1 and g4.
SHUT_IN_BLACK = "a7 a1 g1"


def test_the_move_that_blocks_the_opponent_is_haarig() -> None:
    before = Position.setup("shax", "d7 a4 g4 d2", SHUT_IN_BLACK)
    after = before.apply("d2-d1")
    assert after.blocked is B and after.to_move is W
    assert moments(before, "d2-d1") == {Moment.HAARIG}


def test_a_move_that_leaves_the_opponent_a_way_is_not_haarig() -> None:
    before = Position.setup("shax", "d7 a4 g4 d2", SHUT_IN_BLACK)
    assert moments(before, "d2-d3") == frozenset()


def test_the_freeing_move_is_not_a_new_blockade() -> None:
    before = Position.setup("shax", "d7 a4 d1 g4 b2", SHUT_IN_BLACK, to_move="black")
    assert before.step is Step.FREE and before.blocked is B
    assert moments(before, "g4-f4") == frozenset()


def test_a_freeing_move_that_completes_a_jare_is_oodan() -> None:
    before = Position.setup("shax", "d7 a4 d1 g4 b6 f6", SHUT_IN_BLACK, to_move="black")
    assert before.step is Step.FREE
    after = before.apply("d7-d6")
    assert after.step is not Step.REMOVE  # oodan: no capture
    assert Moment.OODAN in moments(before, "d7-d6")


def test_an_ordinary_move_that_completes_a_jare_is_not_oodan() -> None:
    before = Position.setup("shax", "d7 b6 f6 a1", "c3 e3 g1")
    assert before.step is Step.MOVE
    assert Moment.OODAN not in moments(before, "d7-d6")


def test_a_freeing_move_that_completes_nothing_is_not_oodan() -> None:
    before = Position.setup("shax", "d7 a4 d1 g4 b6 f6", SHUT_IN_BLACK, to_move="black")
    assert moments(before, "g4-f4") == frozenset()


# -- over whole games -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("shax", {Moment.LABA_QAAD, Moment.IRMAAN, Moment.HAARIG}),
        ("shax-small", set(Moment)),
        ("jar", set()),  # three stones each: no irmaan or laba-qaad is possible
    ],
)
def test_moments_in_random_games_keep_their_definitions(
    variant: str, expected: set[Moment]
) -> None:
    rng = random.Random(1988)
    seen: set[Moment] = set()
    for _ in range(30):
        p = Position.initial(variant)
        while not p.is_over and p.clock < 80:
            action = rng.choice(p.legal_actions())
            after = p.play(action)
            mover = Color(p.turn)
            found = moments_after(p, action, after)
            seen |= found
            if Moment.LABA_QAAD in found:
                assert action.kind is Kind.PLACE
            if Moment.OODAN in found:
                assert p.step is Step.FREE and lines_completed(p, action)
            if Moment.HAARIG in found:
                assert after.blocked is mover.other
            if Moment.IRMAAN in found:
                assert irmaan(after, mover)
            p = after
    assert expected <= seen
    if variant == "jar":
        assert not seen & {Moment.IRMAAN, Moment.LABA_QAAD}
