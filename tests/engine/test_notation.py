"""Notation, records and the friendly errors for bad input."""

from __future__ import annotations

import pytest

from engine import (
    SHAX,
    Action,
    Color,
    GameOverError,
    IllegalActionError,
    Kind,
    Malformed,
    NotationError,
    Outcome,
    Position,
    RecordError,
    Refusal,
    Termination,
    UnknownVariantError,
    format_record,
    get_variant,
    normalize_record,
    parse_action,
    replay,
)
from engine.english import MALFORMED, REFUSALS, headline, outcome_text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("d7", Action(Kind.PLACE, SHAX.point("d7"))),
        ("a7-d7", Action(Kind.MOVE, SHAX.point("d7"), SHAX.point("a7"))),
        ("xg1", Action(Kind.REMOVE, SHAX.point("g1"))),
        ("  XG1 ", Action(Kind.REMOVE, SHAX.point("g1"))),
    ],
)
def test_actions_are_read_in_the_notation_of_the_rules(text: str, action: Action) -> None:
    assert parse_action(SHAX, text) == action
    assert action.notation(SHAX) == text.strip().lower()


@pytest.mark.parametrize("text", ["", "d", "d77x", "a7-", "-d7", "a7-d7-g7", "hello", "x", "7d"])
def test_malformed_notation_says_how_to_write_an_action(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(SHAX, text)
    assert "a7-d7" in str(info.value) or "is not a point" in str(info.value)


def test_an_unknown_point_names_the_points_of_the_board() -> None:
    with pytest.raises(NotationError, match="'d4' is not a point on the shax board") as info:
        parse_action(SHAX, "d4")
    assert "a1 a4 a7" in str(info.value)


def test_an_unknown_variant_lists_the_variants() -> None:
    with pytest.raises(UnknownVariantError, match="shax, shax-small, jar"):
        get_variant("chess")


def test_placing_on_an_occupied_point_lists_the_empty_points() -> None:
    p = Position.initial("jar").apply("b2")
    with pytest.raises(IllegalActionError) as info:
        p.apply("b2")
    assert "already taken" in info.value.reason
    assert info.value.legal == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]


def test_moving_while_placing_is_refused_with_the_reason() -> None:
    with pytest.raises(IllegalActionError, match="still being placed"):
        Position.initial("shax").apply("a7-d7")


def test_moving_a_stone_that_is_not_yours_is_refused() -> None:
    p = Position.setup("shax", white="a7 b6 c5", black="g1 f2 e3")
    with pytest.raises(IllegalActionError, match="g1 is black's stone"):
        p.apply("g1-g4")
    with pytest.raises(IllegalActionError, match="d7 is empty"):
        p.apply("d7-g7")


def test_moving_onto_an_occupied_point_is_refused() -> None:
    p = Position.setup("shax", white="a7 d7 c5", black="g1 f2 e3")
    with pytest.raises(IllegalActionError, match="d7 is occupied"):
        p.apply("a7-d7")


def test_removing_your_own_or_an_empty_point_is_refused() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3")
    p = p.apply("d6-d7")
    with pytest.raises(IllegalActionError, match="own stone"):
        p.apply("xb2")
    with pytest.raises(IllegalActionError, match="is empty"):
        p.apply("xd6")


def test_a_removal_when_none_is_due_is_refused() -> None:
    p = Position.setup("shax", white="a7 b6 c5", black="g1 f2 e3")
    with pytest.raises(IllegalActionError, match="no removal is due"):
        p.apply("xg1")


def test_a_refused_action_leaves_the_position_unchanged() -> None:
    p = Position.setup("shax", white="a7 b6 c5", black="g1 f2 e3")
    before = (p, hash(p), p.to_fen())
    with pytest.raises(IllegalActionError):
        p.apply("a7-g7")
    assert (p, hash(p), p.to_fen()) == before


def test_a_record_replays_to_the_same_position_as_playing_it() -> None:
    record = "d7 a7 g7 a4 d6 a1 xa1"
    p = Position.initial("shax")
    for action in ["d7", "a7", "g7", "a4", "d6", "a1"]:
        p = p.apply(action)
    assert replay("shax", record.rsplit(" ", 1)[0]) == p
    assert replay("shax", record.split()[:-1]) == p


def test_a_bad_record_names_the_action_and_its_index() -> None:
    with pytest.raises(RecordError) as info:
        replay("jar", "a1 b1 a1 c1")
    err = info.value
    assert err.index == 2 and err.action == "a1"
    assert "action 3 ('a1')" in str(err) and "already taken" in str(err)
    assert isinstance(err.cause, IllegalActionError)


def test_records_are_formatted_and_normalized() -> None:
    assert normalize_record("jar", " A1  b1 ") == ["a1", "b1"]
    p = Position.initial("jar")
    a = p.legal_actions()[0]
    assert format_record([a, "B2"], "jar") == f"{a.notation(p.variant)} b2"


def test_an_outcome_is_a_value_whose_english_is_for_scripts() -> None:
    """The engine says who won and why as values; its English (``engine.english``) is
    for its command line and its exceptions, the players' words are ``bot/words``'."""
    won = Outcome(Color.WHITE, Termination.TWO_PIECES)
    assert won.result == "white" and headline(won) == "White wins"
    assert outcome_text(won) == "White wins: black has only two stones left"
    drawn = Outcome(None, Termination.THREEFOLD_REPETITION)
    assert drawn.result == "draw" and headline(drawn) == "Draw"
    assert outcome_text(drawn) == "Draw: the same position occurred three times"
    for termination in Termination:
        for winner in (Color.WHITE, Color.BLACK, None):
            assert outcome_text(Outcome(winner, termination))  # every ending has words


def test_a_refusal_is_a_value_with_the_points_and_colours_it_is_about() -> None:
    p = Position.initial("jar").apply("b2")
    with pytest.raises(IllegalActionError) as taken:
        p.apply("b2")
    assert (taken.value.refusal, taken.value.params) == (Refusal.POINT_TAKEN, {"point": "b2"})
    with pytest.raises(IllegalActionError) as placing:
        p.apply("a1-a2")
    assert (placing.value.refusal, placing.value.params) == (
        Refusal.STILL_PLACING,
        {"player": Color.BLACK},
    )
    with pytest.raises(NotationError) as unknown:
        parse_action(SHAX, "d4")
    assert unknown.value.malformed is Malformed.UNKNOWN_POINT
    assert unknown.value.params["point"] == "d4"
    over = replay("jar", "c1 c2 a1 b1 c3 b3 c2-b2")  # black makes three in a row
    assert over.outcome is not None
    with pytest.raises(GameOverError) as ended:
        over.apply("a1-a2")
    assert ended.value.refusal is Refusal.GAME_OVER
    assert ended.value.params == {"outcome": over.outcome}


def test_every_refusal_and_malformed_text_has_its_english_for_scripts() -> None:
    assert set(REFUSALS) == set(Refusal) and set(MALFORMED) == set(Malformed)


def test_absurdly_long_text_is_refused_without_being_echoed_in_full() -> None:
    with pytest.raises(NotationError, match="far too long") as info:
        parse_action(SHAX, "a7-" + "d" * 6000)
    assert len(str(info.value)) < 200
