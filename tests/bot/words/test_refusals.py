"""The rules' refusals in words: the engine says which rule refuses an action and what it
is about (``engine.Refusal`` and its values); ``bot/words`` says it in the reader's language."""

from __future__ import annotations

from bot import words
from engine import Color, IllegalActionError, Outcome, Position, Refusal, Termination, replay
from shax_i18n import translator

EN = translator("en")


def test_every_refusal_of_the_rules_has_its_sentence() -> None:
    assert set(words.REFUSALS) == set(Refusal)


def test_a_refusal_names_its_colours_and_points_in_the_readers_language() -> None:
    own = {"point": "a1", "player": Color.WHITE, "opponent": Color.BLACK}
    assert words.illegal_reason(EN, Refusal.OWN_STONE, own) == (
        "a1 is white's own stone; remove one of black's"
    )
    assert words.illegal_reason(translator("so"), Refusal.OWN_STONE, own) == (
        "a1 waa dhagaxa cad laftiisa; qaad mid ka mid ah kuwa madow"
    )
    near = {"src": "a1", "dst": "c1", "near": ("a2", "b1")}
    assert words.illegal_reason(EN, Refusal.NOT_ADJACENT, near) == (
        "a1 and c1 are not adjacent (next to a1: a2 b1)"
    )


def test_the_end_of_a_finished_game_is_said_in_the_readers_language() -> None:
    ended = {"outcome": Outcome(Color.BLACK, Termination.THREE_IN_A_ROW)}
    assert words.illegal_reason(EN, Refusal.GAME_OVER, ended) == (
        "the game is over (Black wins: three in a row)"
    )
    assert words.illegal_reason(translator("so"), Refusal.GAME_OVER, ended) == (
        "ciyaartu way dhammaatay (Madow ayaa guuleystay: saddex isku xariiq ah)"
    )


def test_the_engines_refusal_is_said_as_before() -> None:
    """What a player reads of a refused action is the sentence it always was."""
    p = Position.initial("jar").apply("b2")
    try:
        p.apply("a1-a2")
    except IllegalActionError as refused:
        said = words.illegal_reason(EN, refused.refusal, refused.params)
    assert said == "stones are still being placed: black places a stone on an empty point"
    over = replay("jar", "c1 c2 a1 b1 c3 b3 c2-b2")
    try:
        over.apply("a1-a2")
    except IllegalActionError as refused:
        said = words.illegal_reason(EN, refused.refusal, refused.params)
    assert said == "the game is over (Black wins: three in a row)"
