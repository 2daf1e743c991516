"""``python -m renderer``: a board picture or a replay of a record, for people and scripts."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

from engine import VARIANT_IDS, Color, ShaxError, UnknownVariantError
from renderer.board import BoardView, render_board
from renderer.replay import REPLAY_FILENAME, render_replay
from renderer.theme import THEME_ALIASES, THEME_NAMES
from shax_i18n import LANGUAGES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m renderer",
        description="Draw the board at the end of a Shax game record, or replay the record.",
    )
    parser.add_argument("--variant", default="shax", help=f"one of: {', '.join(VARIANT_IDS)}")
    parser.add_argument(
        "--record", default="", help='the actions from the start, e.g. "d7 a7 g7 ... xg1 a7-d7"'
    )
    parser.add_argument("-o", "--output", help="file to write (default board.png, or replay.gif)")
    parser.add_argument(
        "--replay", action="store_true", help="write an animated GIF of the whole record"
    )
    parser.add_argument(
        "--theme",
        default="sand",
        help=f"one of: {', '.join((*THEME_ALIASES, *THEME_NAMES))}",
    )
    parser.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="PX",
        help="shrink the board picture to this width, as a chat shows it (e.g. 400)",
    )
    parser.add_argument("--white", default="", help="white player's name (default: White)")
    parser.add_argument("--black", default="", help="black player's name (default: Black)")
    parser.add_argument("--flip", action="store_true", help="draw from black's side")
    parser.add_argument("--caption", default=None, help="a line of text under the board")
    parser.add_argument(
        "--point-names", action="store_true", help="write each empty point's name on it"
    )
    parser.add_argument(
        "--language", default="en", choices=list(LANGUAGES), help="of the words on the picture"
    )
    parser.add_argument(
        "--series",
        default=None,
        metavar="COLOR:N",
        help="series stones (the central square, or the panel on jar), e.g. white:3",
    )
    return parser


def _series(text: str | None) -> tuple[Color | None, int]:
    if not text:
        return None, 0
    name, _, count = text.partition(":")
    try:
        color = Color[name.strip().upper()]
        n = int(count)
    except (KeyError, ValueError):
        raise ValueError(f"--series wants COLOR:N such as white:3, not {text!r}") from None
    if n < 0:
        raise ValueError("--series: the number of stones cannot be negative")
    return color, n


def _shrink(png: bytes, width: int) -> bytes:
    """``png`` scaled down to ``width`` pixels wide (Lanczos), as a chat client shows it."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    if not 16 <= width <= img.width:
        raise ValueError(f"--width must be between 16 and {img.width} pixels")
    small = img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    small.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        color, stones = _series(args.series)
        view = BoardView(
            white_name=args.white,
            black_name=args.black,
            series_color=color,
            series_stones=stones,
            theme=args.theme,
            flip=args.flip,
            caption=args.caption,
            point_names=args.point_names,
            language=args.language,
        )
        if args.replay:
            data = render_replay(args.variant, args.record, view)
            out = Path(args.output or REPLAY_FILENAME)
        else:
            data = render_board(args.variant, args.record, view)
            if args.width is not None:
                data = _shrink(data, args.width)
            out = Path(args.output or "board.png")
    except (ShaxError, UnknownVariantError, ValueError) as exc:
        print(f"python -m renderer: {exc}", file=sys.stderr)
        return 2
    try:
        out.write_bytes(data)
    except OSError as exc:
        print(f"python -m renderer: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(out)
    return 0
