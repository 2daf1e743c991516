"""The full-board values the package ships: searched with today's evaluation, read by
master from its first move without a tables folder, and made from a finished search."""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.ai.levels import LEVEL_TABLE
from engine.ai.player import choose_for_position
from engine.position import Position
from engine.tables import shipping
from engine.tables.__main__ import main
from engine.tables.fullboard import (
    DEFAULT_DEPTH,
    HEADER,
    FullBoardError,
    build_full_board,
    colex_rank,
    evaluation_digest,
    full_board_path,
    orbits,
    search_values,
)
from engine.tables.missing import missing_work
from engine.tables.native import expand_classes
from engine.tables.shipping import full_board_ready, full_board_values
from engine.variants import get_variant

SMALL = get_variant("shax-small")


def test_every_shipped_file_holds_values_of_todays_evaluation() -> None:
    files = sorted(shipping.SHIPPED_DIR.glob("*.fbv"))
    assert files, "the package ships no full-board values"
    for path in files:
        v = get_variant(path.stem)
        shipped = shipping.read_shipped(v)
        assert shipped is not None, f"{path} is damaged"
        assert not shipped.stale, (
            f"{path} was searched with another evaluation than today's (its weights or "
            f"engine/ai/_core.c changed): run python -m engine.tables full --variant {v.id} "
            "and commit the file it ships"
        )
        assert shipped.depth == DEFAULT_DEPTH


def test_shax_small_ships_the_values_todays_search_gives() -> None:
    shipped = shipping.read_shipped(SMALL)
    assert shipped is not None and not shipped.stale
    assert shipped.boards == 874
    classes = list(orbits(SMALL))
    picked = random.Random(7).sample(range(len(classes)), 40)
    again = search_values(SMALL, shipped.depth, [classes[i][0] for i in picked])
    assert again == [shipped.values[i] for i in picked]


def test_the_table_library_expands_a_value_per_class_to_every_board() -> None:
    classes = list(orbits(SMALL))
    per_class = array("h", random.Random(2).choices(range(-300, 300), k=len(classes)))
    out = expand_classes(SMALL, SMALL.pieces, shipping.c_values(per_class))
    for value, (_, ranks) in zip(per_class, classes, strict=True):
        assert {out[r] for r in ranks} == {value}
    with pytest.raises(ValueError, match="not one for each class"):
        expand_classes(SMALL, SMALL.pieces, shipping.c_values(per_class[:-1]))


def two_to_place(seed: int, count: int) -> list[Position]:
    """Placements with two stones left to place, by random play."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        root = Position.initial(SMALL)
        while root.in_hand(0) + root.in_hand(1) > 2:
            root = root.play(rng.choice(root.legal_actions()))
        out.append(root)
    return out


def best_by(values: Sequence[int], root: Position) -> int:
    """The value of ``root`` (two stones to place) by the full-board values after them."""
    best = []
    for mine in root.legal_actions():
        after = root.play(mine)
        full = after.play(after.legal_actions()[0])
        stones = full.white if full.turn == 0 else full.black
        value = values[colex_rank(stones)]
        value = value - 2 if value > 29000 else value + 2 if value < -29000 else value
        best.append(value if full.turn == root.turn else -value)
    return max(best)


def test_master_ends_the_placement_on_the_shipped_values_without_a_tables_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path / "nothing built"))
    values = full_board_values(SMALL)
    assert values is not None
    shipped = shipping.read_shipped(SMALL)
    assert shipped is not None
    for value, (mask, _) in zip(shipped.values, orbits(SMALL), strict=True):
        assert values[colex_rank(mask)] == value
    for root in two_to_place(5, 10):
        answer = choose_for_position(root, LEVEL_TABLE["master"], movetime=1.0)
        assert answer.score == best_by(values, root)


def test_master_goes_over_to_values_built_later_without_the_shipped_ones_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that played by the shipped values and then finds others built (here
    three plies deep) plays by those: its search keeps nothing it found with the first."""
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path))
    roots = two_to_place(9, 8)
    for root in roots:
        choose_for_position(root, LEVEL_TABLE["master"], movetime=0.5)
    build_full_board(SMALL, 3, tmp_path, workers=1)
    built = full_board_values(SMALL)
    assert built is not None and list(built) != list(full_board_values(SMALL, tmp_path / "no"))
    for root in roots:
        answer = choose_for_position(root, LEVEL_TABLE["master"], movetime=0.5)
        assert answer.score == best_by(built, root)


def test_nothing_is_built_for_a_board_that_ships_its_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert full_board_ready(tmp_path, SMALL)
    kinds = {(w.variant, w.kind) for w in missing_work(tmp_path)}
    assert ("shax-small", "full-board") not in kinds
    assert ("shax-small", "tables") in kinds
    monkeypatch.setattr(shipping, "SHIPPED_DIR", tmp_path / "shipping nothing")
    assert not full_board_ready(tmp_path, SMALL)
    assert ("shax-small", "full-board") in {(w.variant, w.kind) for w in missing_work(tmp_path)}


def test_a_stale_shipped_file_is_not_used(tmp_path: Path) -> None:
    shipped = shipping.read_shipped(SMALL)
    assert shipped is not None
    path = shipping.write_shipped(SMALL, 11, 1.0, shipped.values, tmp_path).path
    assert shipping.shipped_values(SMALL, tmp_path) is not None
    raw = path.read_bytes()
    digest_at = shipping.HEADER.size - 16
    path.write_bytes(raw[:digest_at] + bytes(16) + raw[shipping.HEADER.size :])
    again = shipping.read_shipped(SMALL, tmp_path)
    assert again is not None and again.stale
    assert shipping.shipped_values(SMALL, tmp_path) is None
    assert "python -m engine.tables full --variant shax-small" in again.describe()


def test_a_finished_search_is_shipped_after_a_check_and_a_wrong_one_is_refused(
    tmp_path: Path,
) -> None:
    searched = tmp_path / "searched"
    build_full_board(SMALL, 3, searched, workers=1)
    out = tmp_path / "package"
    report = shipping.ship(SMALL, searched, folder=out, checks=874)
    assert report.checked == 874 and report.digest_matched
    shipped = shipping.read_shipped(SMALL, out)
    assert shipped is not None and not shipped.stale
    assert (shipped.depth, shipped.boards) == (3, 874)
    assert shipped.size < HEADER.size + 2 * 874
    built = full_board_values(SMALL, searched)
    assert built is not None
    assert list(built) == list(expand_classes(SMALL, 8, shipping.c_values(shipped.values)))

    path = full_board_path(searched, SMALL)
    raw = bytearray(path.read_bytes())
    digest_at = HEADER.size - 16
    raw[digest_at : HEADER.size] = bytes(16)  # another digest: the values vouch for themselves
    path.write_bytes(raw)
    report = shipping.ship(SMALL, searched, folder=out, checks=874)
    assert not report.digest_matched
    shipped = shipping.read_shipped(SMALL, out)
    assert shipped is not None and not shipped.stale  # today's digest written

    _, ranks = next(iter(orbits(SMALL)))
    for r in ranks:  # a value today's search does not give
        at = HEADER.size + 2 * r
        raw[at : at + 2] = (int.from_bytes(raw[at : at + 2], "little", signed=True) + 7).to_bytes(
            2, "little", signed=True
        )
    path.write_bytes(raw)
    with pytest.raises(FullBoardError, match="other values than today's search gives"):
        shipping.ship(SMALL, searched, folder=out, checks=874)
    at = HEADER.size + 2 * ranks[-1]
    raw[at] ^= 1  # one board of a class differs from the others
    path.write_bytes(raw)
    with pytest.raises(FullBoardError, match="damaged"):
        shipping.ship(SMALL, searched, folder=out, checks=874)
    with pytest.raises(FullBoardError, match="no finished full-board values"):
        shipping.ship(SMALL, tmp_path / "empty", folder=out)


def test_the_ship_command_says_its_figures_and_full_ships_at_the_default_depth_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "package"
    monkeypatch.setattr(shipping, "SHIPPED_DIR", out)
    assert main(["full", "--variant", "shax-small", "--depth", "3", "--dir", str(tmp_path)]) == 0
    assert "not shipped with the package (3 plies, not 11)" in capsys.readouterr().err
    assert not out.exists()
    assert main(["ship", "--variant", "shax-small", "--from", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert f"shipped shax-small's full-board values in {out / 'shax-small.fbv'}: 874 boards" in err
    assert "3 plies" in err and "bytes" in err
    assert "24 boards searched again give the values shipped" in err
    assert main(["info", "--dir", str(tmp_path)]) == 0
    assert "shax-small full boards shipped with the package: 874" in capsys.readouterr().out
    assert main(["ship", "--variant", "shax-small", "--from", str(tmp_path / "none")]) == 1
    assert "no finished full-board values" in capsys.readouterr().err

    deep = tmp_path / "deep"
    args = ["full", "--variant", "shax-small", "--dir", str(deep), "--workers", "1"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "shipped shax-small's full-board values" in err and "11 plies" in err
    shipped = shipping.read_shipped(SMALL)
    assert shipped is not None and shipped.path.parent == out and shipped.depth == 11


def test_the_digest_takes_in_the_weights_and_the_search_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from engine.ai import core, levels

    today = evaluation_digest(SMALL)
    weights = dict(levels.weights_for(SMALL.id))
    weights["mat"] += 1
    monkeypatch.setattr(levels, "weights_for", lambda variant: weights)
    assert evaluation_digest(SMALL) != today
    monkeypatch.undo()
    assert evaluation_digest(SMALL) == today
    source = tmp_path / "_core.c"
    text = core.SOURCE.read_bytes()
    source.write_bytes(text.replace(b"\n", b"\r\n"))  # a checkout with other line ends
    monkeypatch.setattr(core, "SOURCE", source)
    assert evaluation_digest(SMALL) == today
    source.write_bytes(text + b"\n/* another search */\n")
    assert evaluation_digest(SMALL) != today


def test_warming_up_the_search_reads_the_shipped_values_before_the_first_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.ai import warm_up

    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path))
    shipping._expanded.cache_clear()
    warm_up(("shax-small", "jar"))
    assert shipping._expanded.cache_info().currsize == 1
