"""Make the fonts shipped in renderer/fonts/ from Debian's Noto packages and, for the
emoji, the Noto Emoji of the ``manimgx-fonts`` wheel (all SIL OFL 1.1).

    apt-get install fonts-noto-core fonts-noto-cjk
    python3 -m pip install fonttools manimgx-fonts
    python3 tools/subset_fonts.py
    python3 tools/subset_fonts.py --only NotoEmoji-Regular.ttf   # one font; the rest kept

Each font keeps its shaping tables (GSUB, GPOS, GDEF) and drops hinting; the CJK
font keeps the common ideographs (GB 2312 level 1 and JIS X 0208 level 1), kana
and the 2,350 Hangul syllables of KS X 1001. ``coverage.json`` lists, per font,
the code points it draws, for the renderer's fallback chain.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from fontTools.varLib import instancer

from renderer.text import SCRIPT_FONTS

NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
OUT = Path(__file__).resolve().parent.parent / "renderer" / "fonts"


def _ranges(*spans: tuple[int, int]) -> set[int]:
    return {cp for lo, hi in spans for cp in range(lo, hi + 1)}


def _encodable(cp: int, codec: str) -> bytes | None:
    try:
        return chr(cp).encode(codec)
    except UnicodeEncodeError:
        return None


def _common_cjk() -> set[int]:
    keep = _ranges(
        (0x3000, 0x303F),  # CJK punctuation
        (0x3040, 0x30FF),  # hiragana, katakana
        (0x31F0, 0x31FF),
        (0xFF01, 0xFF60),  # full-width forms
        (0x1100, 0x11FF),  # Hangul jamo
        (0x3130, 0x318F),
    )
    for cp in range(0x4E00, 0xA000):
        gb = _encodable(cp, "gb2312")
        if gb is not None and 0xB0 <= gb[0] <= 0xD7:  # level 1: the 3,755 common hanzi
            keep.add(cp)
        sj = _encodable(cp, "shift_jis")
        if sj is not None and 0x88 <= sj[0] <= 0x98 and sj != b"\x88\x9e":  # JIS level 1
            keep.add(cp)
    for cp in range(0xAC00, 0xD7A4):
        kr = _encodable(cp, "euc_kr")  # KS X 1001's syllables (others take 8 bytes)
        if kr is not None and len(kr) == 2:
            keep.add(cp)
    return keep


def _subset(font: TTFont, unicodes: set[int] | None, out: Path) -> list[int]:
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.hinting = False
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.drop_tables += ["DSIG"]
    sub = subset.Subsetter(opts)
    cmap = font.getBestCmap()
    sub.populate(unicodes=set(cmap) if unicodes is None else unicodes & set(cmap))
    sub.subset(font)
    font.save(out)
    return sorted(font.getBestCmap())


def _noto_emoji() -> TTFont:
    """Noto Emoji (outlines, drawn in the text's colour) at its regular weight."""
    spec = importlib.util.find_spec("manimgx_fonts")
    if spec is None or spec.origin is None:
        raise SystemExit("Noto Emoji comes from the manimgx-fonts wheel: pip install it")
    variable = TTFont(Path(spec.origin).parent / "NotoEmoji[wght].ttf")
    font = instancer.instantiateVariableFont(variable, {"wght": 400})
    del font["STAT"]
    return font


def _spans(cps: list[int]) -> list[list[int]]:
    spans: list[list[int]] = []
    for cp in cps:
        if spans and spans[-1][1] == cp - 1:
            spans[-1][1] = cp
        else:
            spans.append([cp, cp])
    return spans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", help="make these fonts only (file names)")
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    latin = _ranges(
        (0x0020, 0x024F),
        (0x0250, 0x02FF),
        (0x0300, 0x036F),
        (0x0370, 0x03FF),
        (0x0400, 0x052F),
        (0x1AB0, 0x1AFF),
        (0x1C80, 0x1C8F),
        (0x1D00, 0x1DFF),
        (0x1E00, 0x1FFF),
        (0x2000, 0x206F),
        (0x20A0, 0x20CF),
        (0x2100, 0x214F),
        (0x2190, 0x21FF),
        (0x2C60, 0x2C7F),
        (0x2DE0, 0x2DFF),
        (0xA640, 0xA69F),
        (0xA720, 0xA7FF),
        (0x25A0, 0x25FF),
        (0xFFFD, 0xFFFD),
    )

    def noto(name: str) -> Callable[[], TTFont]:
        return lambda: TTFont(NOTO / name)

    jobs: list[tuple[str, Callable[[], TTFont], set[int] | None]] = [
        ("NotoSans-Regular.ttf", noto("NotoSans-Regular.ttf"), latin),
        ("NotoSansArabic-Regular.ttf", noto("NotoSansArabic-Regular.ttf"), None),
        ("NotoSansHebrew-Regular.ttf", noto("NotoSansHebrew-Regular.ttf"), None),
        ("NotoSansEthiopic-Regular.ttf", noto("NotoSansEthiopic-Regular.ttf"), None),
        ("NotoSansDevanagari-Regular.ttf", noto("NotoSansDevanagari-Regular.ttf"), None),
        *((name, noto(name), None) for name in SCRIPT_FONTS),
        ("NotoSansSymbols2-Regular.ttf", noto("NotoSansSymbols2-Regular.ttf"), None),
        ("NotoSansCJK-Common.otf", lambda: TTCollection(CJK).fonts[2], _common_cjk()),  # SC
        # Everything but ASCII (its digits, # and * are Noto Sans's to draw).
        ("NotoEmoji-Regular.ttf", _noto_emoji, set(range(0x80, 0x110000))),
    ]
    for name, load, keep in jobs:
        if args.only and name not in args.only:
            continue
        cps = _subset(load(), keep, OUT / name)
        print(f"{name}: {len(cps)} code points, {(OUT / name).stat().st_size / 1e6:.2f} MB")
    # The coverage of every font in the folder, made now or before.
    coverage = {name: _spans(sorted(TTFont(OUT / name).getBestCmap())) for name, _, _ in jobs}
    (OUT / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n")
    total = sum((OUT / name).stat().st_size for name, _, _ in jobs)
    print(f"total {total / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
