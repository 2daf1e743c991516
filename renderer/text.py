"""Text: player names and words in every script, from the Noto fonts shipped in
``renderer/fonts`` (SIL OFL 1.1, see ``renderer/fonts/README.md``).

A fallback chain picks, per grapheme, the first font that draws it (emoji come
last, in outline, in the text's colour); a grapheme no font has (a rare ideograph,
a private-use character) is drawn as a small rounded box, never dropped with its
neighbours. Each run of one font is shaped whole by Pillow's raqm layout
(HarfBuzz), which places the marks, reorders the vowels and forms the conjuncts and
stacks of the scripts of South and South-East Asia and Tibet, joins Mongolian, and
orders right-to-left runs (Arabic, Hebrew). Pillow has raqm where it finds FriBiDi
on the system (Debian's ``libfribidi0``); without it Arabic is joined with
``arabic_reshaper`` and the runs are reversed here, but the scripts that need
shaping are drawn letter by letter.
"""

from __future__ import annotations

import json
import math
import threading
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import regex
from PIL import Image, ImageDraw, ImageFont, features

from engine import MOVE_LIMIT, Color, Outcome, Phase, Position, Step, Termination
from shax_i18n import N_, Translator, translator

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SCRIPT_FONTS: tuple[str, ...] = (
    "NotoSansBengali-Regular.ttf",
    "NotoSansGurmukhi-Regular.ttf",
    "NotoSansGujarati-Regular.ttf",
    "NotoSansOriya-Regular.ttf",
    "NotoSansTamil-Regular.ttf",
    "NotoSansTelugu-Regular.ttf",
    "NotoSansKannada-Regular.ttf",
    "NotoSansMalayalam-Regular.ttf",
    "NotoSansSinhala-Regular.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansLao-Regular.ttf",
    "NotoSansKhmer-Regular.ttf",
    "NotoSansMyanmar-Regular.ttf",
    "NotoSerifTibetan-Regular.ttf",
    "NotoSansMongolian-Regular.ttf",
    "NotoSansGeorgian-Regular.ttf",
    "NotoSansArmenian-Regular.ttf",
)
"""The scripts of South and South-East Asia, Tibet, Mongolia and the Caucasus, each
font whole (Noto has only a serif face for Tibetan)."""
FONT_CHAIN: tuple[str, ...] = (
    "NotoSans-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansEthiopic-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf",
    *SCRIPT_FONTS,
    "NotoSansCJK-Common.otf",
    "NotoSansSymbols2-Regular.ttf",
    "NotoEmoji-Regular.ttf",
)
"""The fallback chain, in order: a grapheme is drawn with the first font that has it."""
_EMOJI_FONT = FONT_CHAIN.index("NotoEmoji-Regular.ttf")
_EMOJI_STYLE = "\ufe0f"
"""The variation selector that asks for a character's emoji form."""
PLACEHOLDER = -1
"""The "font" of a grapheme that no font draws: a small rounded box."""
ELLIPSIS = "\u2026"

_local = threading.local()
_GRAPHEME = regex.compile(r"\X")
_IGNORABLE = frozenset({0x200C, 0x200D, 0xFE0E, 0xFE0F})
"""Joiners and variation selectors: no font needs its own glyph for them."""


def use_raqm() -> bool:
    """Whether Pillow can shape text with raqm (HarfBuzz and FriBiDi)."""
    return bool(features.check("raqm"))


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[list[int], list[int]], ...]:
    """Per font of the chain: the starts and ends of the code point spans it draws."""
    data = json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))
    out = []
    for name in FONT_CHAIN:
        spans = data[name]
        out.append(([lo for lo, _ in spans], [hi for _, hi in spans]))
    return tuple(out)


def font_has(index: int, cp: int) -> bool:
    """Whether font ``index`` of :data:`FONT_CHAIN` has a glyph for code point ``cp``."""
    starts, ends = _coverage()[index]
    k = bisect_right(starts, cp) - 1
    return k >= 0 and cp <= ends[k]


@lru_cache(maxsize=8192)
def font_for(grapheme: str) -> int:
    """Index in :data:`FONT_CHAIN` of the first font that draws every character of
    ``grapheme`` (joiners and variation selectors aside); else the first that draws
    its base character; else :data:`PLACEHOLDER`."""
    cps = [ord(c) for c in grapheme if ord(c) not in _IGNORABLE] or [ord(grapheme[0])]
    if _EMOJI_STYLE in grapheme and all(font_has(_EMOJI_FONT, cp) for cp in cps):
        return _EMOJI_FONT  # asked for as an emoji (❤️), though a text font has it too
    base = None
    for i in range(len(FONT_CHAIN)):
        if all(font_has(i, cp) for cp in cps):
            return i
        if base is None and font_has(i, cps[0]):
            base = i
    return PLACEHOLDER if base is None else base


def font_at(index: int, size: int) -> ImageFont.FreeTypeFont:
    """Font ``index`` of the chain at ``size`` px; one instance per thread (FreeType
    objects are not shared between threads)."""
    fonts: dict[tuple[int, int, bool], ImageFont.FreeTypeFont] | None = getattr(
        _local, "fonts", None
    )
    if fonts is None:
        fonts = _local.fonts = {}
    raqm = use_raqm()
    key = (index, size, raqm)
    f = fonts.get(key)
    if f is None:
        engine = ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
        f = fonts[key] = ImageFont.truetype(
            str(FONT_DIR / FONT_CHAIN[index]), size, layout_engine=engine
        )
    return f


def font(size: int) -> ImageFont.FreeTypeFont:
    """The first font of the chain (Latin, Greek, Cyrillic) at ``size`` px."""
    return font_at(0, size)


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """``text`` composed (NFC), on one line, without control characters or bidi
    overrides (which could turn the rest of a picture around)."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
        elif cat == "Cc" or (cat == "Cf" and ord(ch) not in _IGNORABLE):
            continue
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def graphemes(text: str) -> list[str]:
    """The user-perceived characters of ``text`` (extended grapheme clusters)."""
    return list(_GRAPHEME.findall(text))


# -- runs: one font and one direction each, in visual order --------------------


@dataclass(frozen=True)
class Run:
    text: str
    """In logical order; an RTL run is turned around when drawn."""
    font: int
    """Index in :data:`FONT_CHAIN`, or :data:`PLACEHOLDER`."""
    rtl: bool


def _strength(grapheme: str) -> str:
    """``'L'``, ``'R'`` or ``'N'`` (neutral) for a grapheme, from its base character.
    Numbers read left to right, so they count as ``'L'`` inside a name."""
    bidi = unicodedata.bidirectional(grapheme[0])
    if bidi in ("R", "AL"):
        return "R"
    if bidi in ("L", "EN", "AN"):
        return "L"
    return "N"


def runs(text: str) -> list[Run]:
    """``text`` cut into runs of one font and one direction, in visual (left to right)
    order: the paragraph takes the direction of its first strong character, a neutral
    between two of the same direction takes it, other neutrals the paragraph's."""
    gs = graphemes(clean(text))
    if not gs:
        return []
    kinds = [_strength(g) for g in gs]
    strong = [k for k in kinds if k != "N"]
    para = strong[0] if strong else "L"
    dirs: list[str] = []
    for i, k in enumerate(kinds):
        if k != "N":
            dirs.append(k)
            continue
        before = next((kinds[j] for j in range(i - 1, -1, -1) if kinds[j] != "N"), para)
        after = next((kinds[j] for j in range(i + 1, len(kinds)) if kinds[j] != "N"), para)
        dirs.append(before if before == after else para)
    logical: list[tuple[list[str], int, bool]] = []
    for g, k, d in zip(gs, kinds, dirs, strict=True):
        rtl = d == "R"
        if logical:
            last_gs, last_font, last_rtl = logical[-1]
            # Spaces and punctuation stay in the font around them, so a run is
            # shaped whole (Arabic letters join across it).
            same = last_rtl == rtl and last_font != PLACEHOLDER
            if same and (k == "N" or font_for(g) == last_font) and _draws(last_font, g):
                last_gs.append(g)
                continue
        logical.append(([g], font_for(g), rtl))
    out = [Run("".join(parts), f, rtl) for parts, f, rtl in logical]
    if para == "L":
        return _reverse_rtl_groups(out, rtl=True)
    out.reverse()
    return _reverse_rtl_groups(out, rtl=False)


def _draws(index: int, grapheme: str) -> bool:
    return all(font_has(index, ord(c)) for c in grapheme if ord(c) not in _IGNORABLE)


def _reverse_rtl_groups(items: list[Run], rtl: bool) -> list[Run]:
    """Each maximal group of runs whose ``rtl`` is ``rtl``, turned around."""
    out: list[Run] = []
    group: list[Run] = []
    for run in items:
        if run.rtl == rtl:
            group.append(run)
            continue
        out.extend(reversed(group))
        group = []
        out.append(run)
    out.extend(reversed(group))
    return out


def _shown(run: Run) -> tuple[str, str | None]:
    """What to hand Pillow for a run, and the direction to pass (raqm only)."""
    if use_raqm():
        return run.text, "rtl" if run.rtl else "ltr"
    if not run.rtl:
        return run.text, None
    import arabic_reshaper  # only without raqm: join Arabic letters by hand

    shaped = arabic_reshaper.reshape(run.text)
    return "".join(reversed(graphemes(shaped))), None


def _placeholder_width(size: int) -> float:
    return round(size * 0.8)


def _run_width(run: Run, size: int) -> float:
    if run.font == PLACEHOLDER:
        return _placeholder_width(size) * len(graphemes(run.text)) + size * 0.1
    shown, direction = _shown(run)
    return font_at(run.font, size).getlength(shown, direction=direction)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """Width of ``text`` drawn at ``size`` px, in pixels."""
    return sum(_run_width(run, size) for run in runs(text))


# -- drawing ------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """The alpha mask of ``text`` and the offset of its top-left from the anchor point."""
    parts = runs(text)
    primary = font(size)
    asc, desc = primary.getmetrics()
    top, bottom = asc, desc
    for run in parts:
        if run.font != PLACEHOLDER:
            a, b = font_at(run.font, size).getmetrics()
            top, bottom = max(top, a), max(bottom, b)
    widths = [_run_width(run, size) for run in parts]
    total = sum(widths)
    pad = max(2, size // 4)  # ink may reach past the advance (italic marks, bearings)
    mask = Image.new("L", (math.ceil(total) + 2 * pad, top + bottom), 0)
    d = ImageDraw.Draw(mask)
    x = float(pad)
    for run, w in zip(parts, widths, strict=True):
        if run.font == PLACEHOLDER:
            _draw_placeholders(d, x, top, size, len(graphemes(run.text)))
        else:
            shown, direction = _shown(run)
            d.text(
                (x, top),
                shown,
                font=font_at(run.font, size),
                fill=255,
                anchor="ls",
                direction=direction,
            )
        x += w
    dx = {"l": 0.0, "m": -total / 2, "r": -total}[anchor[0]]
    baseline = {"a": asc, "m": (asc - desc) / 2, "s": 0.0, "d": -desc}[anchor[1]]
    return mask, round(dx) - pad, round(baseline) - top


def _draw_placeholders(d: ImageDraw.ImageDraw, x: float, baseline: int, size: int, n: int) -> None:
    """A small rounded box per grapheme no font draws."""
    w = _placeholder_width(size)
    h = round(size * 0.7)
    line = max(1, round(size / 12))
    for k in range(n):
        left = x + size * 0.05 + k * w + size * 0.08
        box = (left, baseline - h, left + w - size * 0.16, baseline)
        d.rounded_rectangle(box, radius=max(1, round(size / 6)), outline=255, width=line)


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Draw ``text`` at ``xy``; ``anchor`` as Pillow's (``l``/``m``/``r`` then
    ``a``/``m``/``s``/``d``, from the first font's metrics). Masks are cached, as
    most text repeats."""
    if not text.strip():
        return
    mask, left, top = _text_mask(text, size, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


def fit(text: str, size: int, width: float) -> str:
    """``text`` (cleaned), cut with an ellipsis at a grapheme boundary if it is wider
    than ``width`` pixels at ``size``."""
    text = clean(text)
    if text_width(text, size) <= width:
        return text
    gs = graphemes(text)
    lo, hi = 0, len(gs)  # the longest prefix that fits with the ellipsis
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width("".join(gs[:mid]).rstrip() + ELLIPSIS, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(gs[:lo]).rstrip() + ELLIPSIS


_TAG = regex.compile(r"^(.*?\S)\s*(\([^()]*\))$")
"""A name with a closing part in brackets: ``Shax bot (master)``."""


def is_tagged(text: str) -> bool:
    """Whether ``text`` ends in a part in brackets, as a bot's name ends in its level."""
    return _TAG.match(text) is not None


def fit_shrinking(text: str, size: int, min_size: int, width: float) -> tuple[str, int]:
    """``text`` and the size to draw it at: the largest from ``size`` down to
    ``min_size`` at which it is at most ``width`` pixels wide. Failing that, it is cut
    at ``min_size`` (:func:`fit`), but a closing part in brackets, a bot's level
    (``Shax bot (master)``), is kept whole and the words before it are cut."""
    text = clean(text)
    for s in range(size, min_size - 1, -1):
        if text_width(text, s) <= width:
            return text, s
    size = min(size, min_size)
    tagged = _TAG.match(text)
    if tagged is not None:
        tag = " " + tagged.group(2)
        room = width - text_width(tag, size)
        if room >= text_width("x" + ELLIPSIS, size):
            return fit(tagged.group(1), size, room) + tag, size
    return fit(text, size, width), size


def wrap(text: str, size: int, width: float, max_lines: int = 4) -> list[str]:
    """``text`` broken into lines at most ``width`` pixels wide at ``size``."""
    lines: list[str] = []
    current = ""
    for word in clean(text).split():
        trial = f"{current} {word}" if current else word
        if text_width(trial, size) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], fit(" ".join(lines[max_lines - 1 :]), size, width)]
    return [fit(line, size, width) for line in lines]


def color_word(color: Color, t: Translator) -> str:
    """``"White"`` / ``"Black"``, capitalised as the picture writes them."""
    return t.pgettext("color", "White") if color is Color.WHITE else t.pgettext("color", "Black")


def _small(color: Color, t: Translator) -> str:
    return t.pgettext("color", "white") if color is Color.WHITE else t.pgettext("color", "black")


OUTCOME_REASONS: dict[Termination, str] = {
    Termination.TWO_PIECES: N_("{loser} has only two stones left"),
    Termination.THREE_IN_A_ROW: N_("three in a row"),
    Termination.RESIGNATION: N_("{loser} resigned"),
    Termination.TIMEOUT: N_("{loser} ran out of time"),
    Termination.MUTUAL_BLOCKADE: N_("neither player can move"),
    Termination.THREEFOLD_REPETITION: N_("the same position occurred three times"),
    Termination.MOVE_LIMIT: N_("100 moves without a capture"),
    Termination.AGREEMENT: N_("both players agreed"),
    Termination.ABORTED: N_("a first move did not come in time"),
}


def outcome_lines(outcome: Outcome, t: Translator) -> tuple[str, str]:
    """``("White wins", "black has only two stones left")`` in ``t``'s language."""
    if outcome.termination is Termination.ABORTED:
        head = t.gettext("Game aborted")
    elif outcome.winner is Color.WHITE:
        head = t.gettext("White wins")
    elif outcome.winner is Color.BLACK:
        head = t.gettext("Black wins")
    else:
        head = t.gettext("Draw")
    loser = _small(Color.BLACK if outcome.winner is Color.WHITE else Color.WHITE, t)
    return head, t.gettext(OUTCOME_REASONS[outcome.termination], loser=loser)


def status_lines(
    position: Position, outcome: Outcome | None = None, t: Translator | None = None
) -> tuple[str, str]:
    """What the picture says: a short headline and a detail line (in ``t``'s language,
    English when none).

    ``outcome`` is an ending the record cannot show (resignation, agreement,
    timeout); it takes precedence over the position's own.
    """
    t = t or translator(None)
    outcome = outcome or position.outcome
    if outcome is not None:
        # The result as the headline ("White wins"), the reason below it.
        return outcome_lines(outcome, t)
    me = Color(position.turn)
    them = me.other
    side, other = color_word(me, t), color_word(them, t)
    step = position.step
    if step is Step.PLACE:
        n = position.in_hand(me)
        first = position.first_jare
        if first is not None and position.variant.family == "shax":
            detail = t.ngettext(
                "{n} stone in hand; {color} formed the first jare and removes first",
                "{n} stones in hand; {color} formed the first jare and removes first",
                n,
                color=_small(first, t),
            )
        else:
            detail = t.ngettext("{n} stone in hand", "{n} stones in hand", n)
        return t.gettext("{side} to place", side=side), detail
    if step is Step.REMOVE:
        if position.phase is Phase.REMOVAL:
            detail = t.gettext(
                "a {color} stone, any one: the opening removal", color=_small(them, t)
            )
        else:
            detail = t.gettext(
                "a {color} stone, any one: {mover} formed a jare",
                color=_small(them, t),
                mover=_small(me, t),
            )
        return t.gettext("{side} to remove", side=side), detail
    if step is Step.FREE:
        return (
            t.gettext("{side} must free {other}", side=side, other=other),
            t.gettext(
                "jid i sii aan jar aheyn: {blocked} cannot move, so {mover} moves to open a "
                "way (no capture)",
                blocked=_small(them, t),
                mover=_small(me, t),
            ),
        )
    left = MOVE_LIMIT - position.clock
    head = t.gettext("{side} to move", side=side)
    if left <= MOVE_LIMIT // 2:
        return head, t.ngettext(
            "{n} move without a capture until a draw",
            "{n} moves without a capture until a draw",
            left,
        )
    return head, t.gettext("a stone along a line to the next empty point")


def status_text(
    position: Position, outcome: Outcome | None = None, t: Translator | None = None
) -> str:
    """The status in one line, e.g. ``'White to place (12 in hand)'`` or
    ``'White must free Black (jid i sii aan jar aheyn)'``."""
    t = t or translator(None)
    outcome = outcome or position.outcome
    if outcome is not None:
        head, reason = outcome_lines(outcome, t)
        return t.gettext("{headline}: {reason}", headline=head, reason=reason)
    me = Color(position.turn)
    side = color_word(me, t)
    if position.step is Step.PLACE:
        return t.gettext("{side} to place ({n} in hand)", side=side, n=position.in_hand(me))
    if position.step is Step.REMOVE:
        return t.gettext("{side} must remove a {color} stone", side=side, color=_small(me.other, t))
    if position.step is Step.FREE:
        return t.gettext(
            "{side} must free {other} (jid i sii aan jar aheyn)",
            side=side,
            other=color_word(me.other, t),
        )
    return t.gettext("{side} to move", side=side)
