"""The board as text: box-drawing lines, ○ white, ● black, point names on the edges."""

from __future__ import annotations

from engine import Color, Position, Variant

_JUNCTIONS = {
    # (left, right, up, down) → box-drawing character
    (0, 1, 0, 1): "┌",
    (1, 0, 0, 1): "┐",
    (0, 1, 1, 0): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "┬",
    (1, 1, 1, 0): "┴",
    (0, 1, 1, 1): "├",
    (1, 0, 1, 1): "┤",
    (1, 1, 1, 1): "┼",
    (1, 1, 0, 0): "─",
    (0, 0, 1, 1): "│",
}
STONES = {Color.WHITE: "○", Color.BLACK: "●"}
_DX, _DY = 4, 2


def text_board(position: Position) -> str:
    """The board in box-drawing characters: ○ white, ● black, point names on the edges."""
    v: Variant = position.variant
    size = v.grid
    width, height = (size - 1) * _DX + 1, (size - 1) * _DY + 1
    canvas = [[" "] * width for _ in range(height)]

    def cell(i: int) -> tuple[int, int]:
        file, rank = v.coords(i)
        return (size - 1 - rank) * _DY, file * _DX

    links: dict[int, set[str]] = {i: set() for i in range(v.size)}
    for a, b in v.edges:
        (ra, ca), (rb, cb) = cell(a), cell(b)
        if ra == rb:
            lo, hi = sorted((ca, cb))
            for c in range(lo + 1, hi):
                canvas[ra][c] = "─"
            left, right = (a, b) if ca < cb else (b, a)
            links[left].add("right")
            links[right].add("left")
        else:
            lo, hi = sorted((ra, rb))
            for r in range(lo + 1, hi):
                canvas[r][ca] = "│"
            top, bottom = (a, b) if ra < rb else (b, a)
            links[top].add("down")
            links[bottom].add("up")
    board = position.board()
    for i, name in enumerate(v.points):
        r, c = cell(i)
        color = board.get(name)
        if color is not None:
            canvas[r][c] = STONES[color]
        else:
            left, right, up, down = (int(d in links[i]) for d in ("left", "right", "up", "down"))
            canvas[r][c] = _JUNCTIONS.get((left, right, up, down), "+")
    lines = []
    for r, row in enumerate(canvas):
        rank = size - r // _DY if r % _DY == 0 else None
        label = f"{rank:>2} " if rank is not None else "   "
        lines.append(label + "".join(row).rstrip())
    files = [" "] * width
    for f in range(size):
        files[f * _DX] = chr(ord("a") + f)
    lines.append("   " + "".join(files).rstrip())
    return "\n".join(lines)


# -- the console ----------------------------------------------------------------------
