"""How fast the renderer draws: ``python benchmarks/bench_renderer.py``.

For each variant, over positions sampled from seeded random games (warm caches):

- ``board``: median ms of ``render_board(variant, record)``: replaying the record,
  composing the picture and encoding the PNG, i.e. what the bot pays per move;
- ``picture``: the same from a position (``render_position``), without the replay;
- ``png``: median size of the encoded PNG;
- ``floor``: median ms of a bare ``Image.save(PNG)`` of the same final image,
  and ``ratio`` = board / floor (how much more than just encoding we spend);
- ``cold``: the first picture of a variant in a fresh cache (static board,
  sprites and palette drawn).

Then a 150-action shax replay: time and GIF size. Targets: shax board <= 15 ms and
ratio <= 2 with the real fonts (shaping included), PNG < 100 KB, replay < 2 s and
< 2 MB. ``python benchmarks/bench_renderer.py replay`` runs the replay alone.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from engine import VARIANT_IDS, Action, Position, iter_positions
from renderer import render_board, render_position, render_replay
from renderer.board import compose, palette, static_board
from renderer.layout import make_layout
from renderer.sprites import arrow_head, pebble, removed_mark, ring, stone
from tests.renderer.games import random_record  # the tests' seeded random games

REPEATS = 25
GAMES = 6


def timed_ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def median_ms(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    return statistics.median(timed_ms(fn) for _ in range(repeats))


def clear_caches() -> None:
    for cached in (
        static_board,
        palette,
        compose,
        make_layout,
        stone,
        ring,
        removed_mark,
        arrow_head,
        pebble,
    ):
        clear = getattr(cached, "cache_clear", None)
        if clear:
            clear()


def samples(variant: str) -> list[tuple[list[str], Position, Action | None, Position | None]]:
    """Positions across the game: a third in, two thirds in, and the end, of several games."""
    out = []
    for seed in range(GAMES):
        record = random_record(variant, seed)
        steps = list(iter_positions(variant, record))
        for cut in (len(record) // 3, 2 * len(record) // 3, len(record)):
            position, action = steps[cut]
            previous = steps[cut - 1][0] if cut else None
            out.append((record[:cut], position, action, previous))
    return out


def bench_variant(variant: str) -> str:
    clear_caches()
    first = samples(variant)[0]
    start = time.perf_counter()
    render_board(variant, first[0])
    cold = (time.perf_counter() - start) * 1000

    # The three timings of a position are interleaved, so that noise from other
    # processes on the machine falls on all of them alike.
    boards, pictures, floors, sizes, ratios = [], [], [], [], []
    for record, position, action, previous in samples(variant):
        data = render_board(variant, record)
        sizes.append(len(data))
        final = Image.open(io.BytesIO(data))
        final.load()
        runs: list[tuple[float, float, float]] = []

        def board(record: list[str] = record) -> bytes:
            return render_board(variant, record)

        def picture(
            p: Position = position, a: Action | None = action, q: Position | None = previous
        ) -> bytes:
            return render_position(p, a, q)

        def bare(img: Image.Image = final) -> None:
            img.save(io.BytesIO(), format="PNG")

        for _ in range(REPEATS):
            runs.append((timed_ms(board), timed_ms(picture), timed_ms(bare)))
        b, p, f = (statistics.median(column) for column in zip(*runs, strict=True))
        boards.append(b)
        pictures.append(p)
        floors.append(f)
        ratios.append(b / f)
    board = statistics.median(boards)
    floor = statistics.median(floors)
    return (
        f"{variant:<11} board {board:6.2f} ms  picture {statistics.median(pictures):6.2f} ms  "
        f"png {statistics.median(sizes) / 1000:5.1f} KB (max {max(sizes) / 1000:5.1f})  "
        f"floor {floor:5.2f} ms  ratio {statistics.median(ratios):4.2f}  cold {cold:6.1f} ms"
    )


def bench_replay(actions: int = 150) -> str:
    seed = 0
    record = random_record("shax", seed, actions)
    while len(record) < actions:
        seed += 1
        record = random_record("shax", seed, actions)
    clear_caches()
    start = time.perf_counter()
    data = render_replay("shax", record)
    cold = time.perf_counter() - start
    warm = median_ms(lambda: render_replay("shax", record), repeats=5) / 1000
    with Image.open(io.BytesIO(data)) as img:
        frames, size = getattr(img, "n_frames", 1), img.size
    return (
        f"replay shax {actions} actions: {warm:.2f} s warm, {cold:.2f} s cold, "
        f"{len(data) / 1e6:.2f} MB, {frames} frames of {size[0]}x{size[1]}"
    )


def main() -> None:
    if sys.argv[1:] == ["replay"]:
        print(bench_replay())
        return
    print(
        f"renderer benchmark (median of {REPEATS} runs per position, "
        f"{GAMES * 3} positions per variant)"
    )
    for variant in VARIANT_IDS:
        print(bench_variant(variant))
    print(bench_replay())


if __name__ == "__main__":
    main()
