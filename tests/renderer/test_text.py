"""Names in every script: the fallback chain, right-to-left order, emoji, ellipses."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import get_variant
from renderer import BoardView, render_board
from renderer import text as T
from renderer.layout import make_layout

NAMES = {
    "latin": ("Cabdi Ḥasan", "Zoë Ørsted", "NotoSans-Regular.ttf"),
    "cyrillic": ("Жанна", "Дмитрий", "NotoSans-Regular.ttf"),
    "greek": ("Ελένη", "Νίκος", "NotoSans-Regular.ttf"),
    "arabic": ("محمد", "فاطمة", "NotoSansArabic-Regular.ttf"),
    "hebrew": ("שלום", "דוד", "NotoSansHebrew-Regular.ttf"),
    "ethiopic": ("አበበ", "ማርታ", "NotoSansEthiopic-Regular.ttf"),
    "devanagari": ("प्रिया", "राहुल", "NotoSansDevanagari-Regular.ttf"),
    "chinese": ("李雷", "韩梅梅", "NotoSansCJK-Common.otf"),
    "japanese": ("さくら", "山田太郎", "NotoSansCJK-Common.otf"),
    "hangul": ("김민준", "이서연", "NotoSansCJK-Common.otf"),
    "vietnamese": ("Nguyễn Thị Ánh", "Trần Văn Đức", "NotoSans-Regular.ttf"),
    "bengali": ("বাংলা", "রবীন্দ্রনাথ", "NotoSansBengali-Regular.ttf"),
    "gurmukhi": ("ਪੰਜਾਬੀ", "ਸਿੰਘ", "NotoSansGurmukhi-Regular.ttf"),
    "gujarati": ("ગુજરાતી", "કૃષ્ણ", "NotoSansGujarati-Regular.ttf"),
    "oriya": ("ଓଡ଼ିଆ", "କୃଷ୍ଣ", "NotoSansOriya-Regular.ttf"),
    "tamil": ("தமிழ்", "கார்த்திக்", "NotoSansTamil-Regular.ttf"),
    "telugu": ("తెలుగు", "శ్రీనివాస్", "NotoSansTelugu-Regular.ttf"),
    "kannada": ("ಕನ್ನಡ", "ಕೃಷ್ಣ", "NotoSansKannada-Regular.ttf"),
    "malayalam": ("മലയാളം", "കൃഷ്ണൻ", "NotoSansMalayalam-Regular.ttf"),
    "sinhala": ("සිංහල", "ශ්‍රී", "NotoSansSinhala-Regular.ttf"),
    "thai": ("สมชาย", "น้ำฝน", "NotoSansThai-Regular.ttf"),
    "lao": ("ສົມສັກ", "ພາສາລາວ", "NotoSansLao-Regular.ttf"),
    "khmer": ("សុខា", "ភាសាខ្មែរ", "NotoSansKhmer-Regular.ttf"),
    "myanmar": ("အောင်ဆန်း", "မြန်မာ", "NotoSansMyanmar-Regular.ttf"),
    "tibetan": ("བསྟན་འཛིན", "བོད་ཡིག", "NotoSerifTibetan-Regular.ttf"),
    "mongolian": ("ᠪᠠᠲᠤ", "ᠮᠣᠩᠭᠣᠯ", "NotoSansMongolian-Regular.ttf"),
    "georgian": ("ნინო", "ქართული", "NotoSansGeorgian-Regular.ttf"),
    "armenian": ("Արամ", "Հայերեն", "NotoSansArmenian-Regular.ttf"),
}
"""Names in the scripts of the thirty most spoken languages (Latin, Arabic and the
others above), each with the font that draws it."""
RTL = {"arabic", "hebrew"}


@pytest.fixture
def basic_layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pillow without raqm: the fallback (arabic_reshaper and our own reordering)."""

    def clear() -> None:
        T.text_width.cache_clear()
        T._text_mask.cache_clear()

    clear()
    monkeypatch.setattr(T, "use_raqm", lambda: False)
    yield
    monkeypatch.undo()
    clear()


def _name_box(flip: bool = False) -> tuple[int, int, int, int]:
    """Where the top card's name goes on a shax board (black's card, unflipped)."""
    lay = make_layout(get_variant("shax"), 1.0, flip)
    x0 = lay.panel_x + lay.px(14)
    return (x0 + lay.px(40), lay.px(14) + lay.px(8), x0 + lay.panel_w - lay.px(28), lay.px(56))


def _crop(png: bytes, box: tuple[int, int, int, int]) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("L").crop(box)


def _ink(img: Image.Image, ground: Image.Image) -> int:
    """Pixels that differ from ``ground`` by more than a faint edge."""
    diff = ImageChops.difference(img, ground).point(lambda v: 255 if v > 40 else 0)
    return diff.width * diff.height - diff.histogram()[0]


@pytest.mark.parametrize("script", list(NAMES))
def test_the_chain_picks_the_expected_font_for_every_character(script: str) -> None:
    first, second, font_file = NAMES[script]
    for g in T.graphemes(first + second):
        assert T.FONT_CHAIN[T.font_for(g)] == font_file, (script, g)


RARE = "\U00020000"
"""A CJK Extension B ideograph: in no font shipped."""


def test_emoji_and_symbols_get_their_fonts_and_the_rest_the_placeholder() -> None:
    for emoji in ("🎉", "🌙", "👩‍👩‍👧", "🇸🇴", "👍🏽", "❤️"):
        assert T.FONT_CHAIN[T.font_for(emoji)] == "NotoEmoji-Regular.ttf", emoji
    assert T.FONT_CHAIN[T.font_for("★")] == "NotoSansSymbols2-Regular.ttf"
    assert T.FONT_CHAIN[T.font_for("a")] == "NotoSans-Regular.ttf"
    assert T.FONT_CHAIN[T.font_for("7")] == "NotoSans-Regular.ttf"  # digits stay text
    assert T.font_for(RARE) == T.PLACEHOLDER
    assert T.font_for("\ue000") == T.PLACEHOLDER  # private use


def test_an_emoji_is_drawn_as_its_glyph_not_a_box() -> None:
    index = T.FONT_CHAIN.index("NotoEmoji-Regular.ttf")
    f = T.font_at(index, 40)
    notdef = bytes(f.getmask("\U0010fffd"))
    moon, party = _mask("🌙"), _mask("🎉")
    assert bytes(f.getmask("🌙")) != notdef
    assert _ink(moon.convert("L"), Image.new("L", moon.size)) > 100
    # Two emoji, two different pictures (the placeholder box would be the same).
    assert moon.size != party.size or _ink(moon.convert("L"), party.convert("L")) > 40


@pytest.mark.parametrize("script", list(NAMES))
def test_each_script_draws_its_name_where_the_name_goes(script: str) -> None:
    first, second, _ = NAMES[script]
    box = _name_box()
    blank = _crop(render_board("shax", "d7", BoardView(black_name=" ")), box)
    one = _crop(render_board("shax", "d7", BoardView(black_name=first)), box)
    two = _crop(render_board("shax", "d7", BoardView(black_name=second)), box)
    assert _ink(one, blank) > 40, script
    assert _ink(two, blank) > 40, script
    # Different names, different glyphs: not the same missing-glyph boxes.
    assert _ink(one, two) > 40, script


def test_a_name_that_cannot_be_drawn_is_not_replaced_by_the_colour() -> None:
    box = _name_box()
    rare = _crop(render_board("shax", "d7", BoardView(black_name=RARE)), box)
    colour = _crop(render_board("shax", "d7", BoardView(black_name="Black")), box)
    assert _ink(rare, colour) > 40


def test_glyphs_are_real_glyphs_not_the_missing_glyph_box() -> None:
    for script, (first, second, _) in NAMES.items():
        for g in T.graphemes(first + second):
            f = T.font_at(T.font_for(g), 40)
            notdef = bytes(f.getmask("\U0010fffd"))
            assert bytes(f.getmask(g)) != notdef, (script, g)


@pytest.mark.parametrize("script", list(NAMES))
def test_each_name_is_shaped_whole_by_its_scripts_font(script: str) -> None:
    """Marks above and below, reordered vowels, conjuncts and stacks come out as the
    script's font shapes the whole name (HarfBuzz, through raqm): the name is one run
    in that font, not pieces shaped apart."""
    *names, font_file = NAMES[script]
    index = T.FONT_CHAIN.index(font_file)
    direction = "rtl" if script in RTL else "ltr"
    for name in names:
        assert T.runs(name) == [T.Run(name, index, script in RTL)], name
        if not T.use_raqm():
            continue  # the shaping itself is raqm's; without it only the run is checked
        drawn = _mask(name)
        own = Image.new("L", (2 * drawn.width, 3 * drawn.height))
        at = (drawn.width // 2, 2 * drawn.height)
        f = T.font_at(index, 40)
        ImageDraw.Draw(own).text(at, name, font=f, fill=255, anchor="ls", direction=direction)
        a, b = drawn.crop(drawn.getbbox()), own.crop(own.getbbox())
        assert a.size == b.size and ImageChops.difference(a, b).getbbox() is None, name


def test_runs_of_a_mixed_name_come_in_visual_order() -> None:
    assert T.runs("Zoë شلوم") == [T.Run("Zoë ", 0, False), T.Run("شلوم", 1, True)]
    # A right-to-left name: the Latin word after it is drawn to its left.
    assert T.runs("محمد Ali") == [T.Run("Ali", 0, False), T.Run("محمد ", 1, True)]
    # Two Hebrew words stay in one run, in their own order, the first at the right.
    assert T.runs("דוד כהן") == [T.Run("דוד כהן", 2, True)]


def _mask(text: str, size: int = 40) -> Image.Image:
    return T._text_mask(text, size, "ls")[0]


def _same_part(whole: Image.Image, part: Image.Image, at_right: bool) -> int:
    """How far ``part`` is from the matching end of ``whole`` (summed pixel difference)."""
    w = min(part.width, whole.width)
    x = whole.width - w if at_right else 0
    piece = whole.crop((x, 0, x + w, whole.height))
    ref = part.crop(
        (part.width - w if at_right else 0, 0, (part.width if at_right else w), part.height)
    )
    hist = ImageChops.difference(piece, ref).histogram()
    return sum(v * n for v, n in enumerate(hist))


@pytest.mark.parametrize("raqm", [True, False])
def test_a_right_to_left_name_keeps_its_letter_order(
    raqm: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    T.text_width.cache_clear()
    T._text_mask.cache_clear()
    if not raqm:  # else raqm where this Pillow has it
        monkeypatch.setattr(T, "use_raqm", lambda: False)
    # Hebrew letters do not join, so "אב" is "א" at the right and "ב" at the left.
    whole, alef, bet = _mask("אב"), _mask("א"), _mask("ב")
    assert _same_part(whole, alef, at_right=True) < _same_part(whole, bet, at_right=True)
    assert _same_part(whole, bet, at_right=False) < _same_part(whole, alef, at_right=False)
    T.text_width.cache_clear()
    T._text_mask.cache_clear()


def test_without_raqm_arabic_is_joined_and_turned_around(basic_layout: None) -> None:
    shown, direction = T._shown(T.Run("محمد", 1, True))
    assert direction is None
    # Presentation forms, last letter first: final dal, medial mim, medial ha, initial mim.
    assert shown == "\ufeaa\ufee4\ufea4\ufee3"
    assert _ink(_mask("محمد").convert("L"), Image.new("L", _mask("محمد").size)) > 100


@pytest.mark.parametrize("odd", ["🎉", RARE])
def test_an_emoji_or_a_missing_glyph_does_not_eat_its_neighbours(odd: str) -> None:
    emoji = T.FONT_CHAIN.index("NotoEmoji-Regular.ttf")
    expected = emoji if odd == "🎉" else T.PLACEHOLDER
    assert [r.font for r in T.runs(f"Ali {odd} Zoë")] == [0, expected, 0]
    assert T.text_width(f"Ali {odd} Zoë", 30) > T.text_width("Ali  Zoë", 30) + 15
    both = _mask(f"A{odd}B")
    a, b = _mask("A"), _mask("B")
    assert _same_part(both, a, at_right=False) < _same_part(both, b, at_right=False)
    assert _same_part(both, b, at_right=True) < _same_part(both, a, at_right=True)


def test_too_long_is_cut_with_an_ellipsis_at_a_grapheme_boundary() -> None:
    flags = "🇸🇴" * 30
    cut = T.fit(flags, 24, 200)
    assert cut.endswith(T.ELLIPSIS)
    kept = cut[: -len(T.ELLIPSIS)]
    assert kept and flags.startswith(kept) and T.graphemes(kept) == ["🇸🇴"] * (len(kept) // 2)
    name = "नमस्ते " * 12
    cut = T.fit(name, 24, 150)
    kept = cut[: -len(T.ELLIPSIS)]
    assert T.graphemes(kept) == T.graphemes(name)[: len(T.graphemes(kept))]
    assert T.text_width(cut, 24) <= 150
    assert T.fit("Zoë", 24, 500) == "Zoë"


def test_control_characters_and_bidi_overrides_are_left_out() -> None:
    assert T.clean("Ali\u202e\u0007  Zoe\u0308\n") == "Ali Zoë"


def test_a_caption_in_many_scripts_keeps_every_word() -> None:
    caption = "Жанна vs 李雷 🎉 " + RARE
    kinds = [(r.font, r.rtl) for r in T.runs(caption)]
    emoji = T.FONT_CHAIN.index("NotoEmoji-Regular.ttf")
    cjk = T.FONT_CHAIN.index("NotoSansCJK-Common.otf")
    fonts = [0, cjk, 0, emoji, 0, T.PLACEHOLDER]
    assert kinds == [(f, False) for f in fonts]
    assert "".join(r.text for r in T.runs(caption)) == caption
