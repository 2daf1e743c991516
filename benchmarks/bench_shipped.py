"""Benchmark of reading the full-board values the package ships: what ``master``'s first
move of a process pays for them (read, digest, decompress, expand to every board).

    python benchmarks/bench_shipped.py                    # each board the package ships
    python benchmarks/bench_shipped.py --variant shax     # one board (random values in a
                                                          # temporary file if it ships none)

Each figure is taken in a fresh process, as a new bot process pays it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tables import shipping
from engine.variants import get_variant

MEASURE = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from engine.tables.shipping import read_shipped, shipped_values
from engine.variants import get_variant
v = get_variant({variant!r})
folder = Path({folder!r})
start = time.perf_counter()
values = shipped_values(v, folder)
took = time.perf_counter() - start
shipped = read_shipped(v, folder)
assert values is not None and shipped is not None
print(f"{{v.id}}: {{shipped.boards:,}} boards, {{shipped.size:,}} bytes shipped, "
      f"{{len(values):,}} values read and expanded in {{took * 1000:.0f}} ms")
"""


def measure(variant: str, folder: Path) -> None:
    root = str(Path(__file__).resolve().parents[1])
    code = MEASURE.format(root=root, variant=variant, folder=str(folder))
    subprocess.run([sys.executable, "-c", code], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=("shax", "shax-small"), default=None)
    args = parser.parse_args()
    if args.variant is None:
        for path in sorted(shipping.SHIPPED_DIR.glob("*.fbv")):
            measure(path.stem, shipping.SHIPPED_DIR)
        return 0
    v = get_variant(args.variant)
    if shipping.read_shipped(v) is not None:
        measure(v.id, shipping.SHIPPED_DIR)
        return 0
    import random
    from array import array

    from engine.tables.fullboard import orbits

    boards = sum(1 for _ in orbits(v))
    values = array("h", (random.randint(-400, 400) for _ in range(boards)))
    with tempfile.TemporaryDirectory() as folder:
        shipping.write_shipped(v, 11, 0.0, values, Path(folder))
        measure(v.id, Path(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
