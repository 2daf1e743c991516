"""Custom ids: every kind round-trips through its template and fits Discord's limit."""

from __future__ import annotations

from bot.discord.custom_ids import (
    CUSTOM_ID_MAX,
    TEMPLATES,
    CustomId,
    accept_id,
    act_id,
    daily_id,
    decline_id,
    draw_id,
    giveup_id,
    nextpuzzle_id,
    nodraw_id,
    parse_custom_id,
    puzzle_id,
    rematch_id,
    resign_id,
    review_id,
    to_id,
)


def test_custom_ids_round_trip_and_fit_discords_limit() -> None:
    big = 2**63 - 1
    ids = {
        act_id(big, big): CustomId("act", game_id=big, version=big),
        to_id(big, big, "g7"): CustomId("to", game_id=big, version=big, src="g7"),
        resign_id(5, 6): CustomId("resign", game_id=5, version=6),
        draw_id(5, 6): CustomId("draw", game_id=5, version=6),
        nodraw_id(5, 6): CustomId("nodraw", game_id=5, version=6),
        rematch_id(5): CustomId("rematch", game_id=5),
        review_id(5): CustomId("review", game_id=5),
        accept_id(9): CustomId("accept", challenge_id=9),
        decline_id(9): CustomId("decline", challenge_id=9),
        puzzle_id(big, big): CustomId("puzzle", attempt_id=big, version=big),
        giveup_id(big): CustomId("giveup", attempt_id=big),
        nextpuzzle_id(big): CustomId("nextpuzzle", attempt_id=big),
        daily_id(big): CustomId("daily", daily_id=big),
    }
    for text, parsed in ids.items():
        assert len(text) <= CUSTOM_ID_MAX
        assert parse_custom_id(text) == parsed
    assert set(TEMPLATES) == {p.kind for p in ids.values()}
    assert parse_custom_id("other:thing") is None
    assert parse_custom_id("shax:act:1") is None
