"""Board pictures: size, the stone at every point, determinism, every phase and step."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import (
    VARIANT_IDS,
    Color,
    Kind,
    Outcome,
    Phase,
    Position,
    RecordError,
    Step,
    Termination,
    iter_positions,
)
from engine.english import outcome_text
from renderer import (
    THEME_NAMES,
    BoardView,
    board_geometry,
    get_theme,
    render_board,
    render_position,
    status_text,
    warm_up,
)
from renderer.layout import make_layout
from renderer.panel import NAME_MIN, TAGGED_MIN, caption_lines, card_name
from renderer.replay import REPLAY_SCALE
from shax_i18n import LANGUAGES, translator
from tests.renderer.games import find_record, random_record

WIDTH, HEIGHT = 880, 560
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def assert_stones_at_centres(img: Image.Image, position: Position, view: BoardView) -> None:
    """The centre pixel of each point is the colour of its stone, or the empty point's."""
    theme = get_theme(view.theme)
    geometry = board_geometry(position.variant, flip=view.flip)
    for name, (x, y) in geometry.items():
        stone = position.at(name)
        expected = {
            Color.WHITE: theme.white_stone,
            Color.BLACK: theme.black_stone,
            None: theme.point,
        }[stone]
        assert img.getpixel((x, y)) == expected, (name, stone, position.to_fen())


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_image_has_the_layout_size_for_every_variant(variant: str) -> None:
    img = open_png(render_board(variant, ""))
    assert img.size == (WIDTH, HEIGHT)
    lay = make_layout(Position.initial(variant).variant)
    assert (lay.width, lay.height) == (WIDTH, HEIGHT)


def test_a_caption_adds_a_strip_under_the_board() -> None:
    plain = open_png(render_board("shax", "d7"))
    captioned = open_png(render_board("shax", "d7", BoardView(caption="Your turn, @Ali: place")))
    assert captioned.width == plain.width
    assert captioned.height > plain.height
    # The board itself is unchanged by the caption.
    assert captioned.crop((0, 0, 560, 560)).tobytes() == plain.crop((0, 0, 560, 560)).tobytes()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_geometry_names_every_point_inside_the_board(variant: str) -> None:
    geometry = board_geometry(variant)
    position = Position.initial(variant)
    assert set(geometry) == set(position.variant.points)
    assert len(set(geometry.values())) == len(geometry)
    for x, y in geometry.values():
        assert 0 < x < HEIGHT and 0 < y < HEIGHT  # inside the board square


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_flip_turns_the_board_half_round(variant: str) -> None:
    plain, flipped = board_geometry(variant), board_geometry(variant, flip=True)
    lay = make_layout(Position.initial(variant).variant)
    total = lay.grid_min + lay.grid_max
    for name, (x, y) in plain.items():
        assert flipped[name] == (total - x, total - y)


def test_geometry_follows_the_board_diagram() -> None:
    g = board_geometry("shax")
    assert g["a7"][1] < g["a1"][1]  # rank 7 at the top
    assert g["a1"][0] < g["g1"][0]  # file a on the left
    assert g["a4"][1] == g["g4"][1] and g["d7"][0] == g["d1"][0]


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("seed", range(3))
def test_each_point_shows_the_stone_the_record_puts_there(variant: str, seed: int) -> None:
    record = random_record(variant, seed)
    themes = THEME_NAMES
    for k, (position, action) in enumerate(iter_positions(variant, record)):
        if k % 7 and action is not None and not position.is_over:
            continue  # a sample of the game: every 7th position and the end
        view = BoardView(theme=themes[k % len(themes)], flip=bool(k % 2))
        img = open_png(render_position(position, action, None, view))
        assert_stones_at_centres(img, position, view)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_marks_and_highlights_never_cover_a_point_centre(variant: str) -> None:
    record = random_record(variant, 11)
    previous = None
    points = Position.initial(variant).variant.points
    for k, (position, action) in enumerate(iter_positions(variant, record)):
        view = BoardView(
            highlight=points[k % 5 :: 5],
            series_color=Color.BLACK,
            series_stones=k % 13,
            caption="caption",
        )
        img = open_png(render_position(position, action, previous, view))
        assert_stones_at_centres(img, position, view)
        previous = position


def test_same_input_gives_the_same_bytes() -> None:
    record = random_record("shax", 5)[:60]
    view = BoardView(
        white_name="Ali",
        black_name="Hodan",
        series_color=Color.WHITE,
        series_stones=3,
        theme="night",
        caption="Hodan to move",
    )
    first = render_board("shax", record, view)
    assert render_board("shax", " ".join(record), view) == first
    assert render_board("shax", record, BoardView(**vars(view))) == first


def test_threads_render_the_same_bytes() -> None:
    jobs = [(v, random_record(v, s)[:40]) for v in VARIANT_IDS for s in range(2)] * 3
    expected = [render_board(v, r) for v, r in jobs]
    with ThreadPoolExecutor(max_workers=6) as pool:
        got = list(pool.map(lambda job: render_board(*job), jobs))
    assert got == expected


def test_view_and_position_pickle_for_process_pools() -> None:
    record = random_record("shax-small", 1)[:30]
    position = list(iter_positions("shax-small", record))[-1][0]
    view = BoardView(
        white_name="Ali",
        series_color=Color.BLACK,
        series_stones=2,
        outcome=Outcome(Color.WHITE, Termination.RESIGNATION),
    )
    assert pickle.loads(pickle.dumps(view)) == view
    again = pickle.loads(pickle.dumps(position))
    assert render_position(again, view=view) == render_position(position, view=view)


def test_a_typical_board_is_under_100_kb() -> None:
    for variant in VARIANT_IDS:
        for seed in range(3):
            record = random_record(variant, seed)
            for cut in (len(record) // 3, len(record)):
                data = render_board(variant, record[:cut], BoardView(caption="Your turn"))
                assert len(data) < 100_000


# -- every phase and step -------------------------------------------------------

STEPS = {
    "placing": ("shax", lambda p, a, prev: p.step is Step.PLACE and p.count(0) > 3),
    "placing with a jare": (
        "shax",
        lambda p, a, prev: p.phase is Phase.PLACEMENT and bool(prev.jare_formed(a)),
    ),
    "opening removal": ("shax", lambda p, a, prev: p.phase is Phase.REMOVAL),
    "movement": ("shax", lambda p, a, prev: p.step is Step.MOVE and a.kind is Kind.MOVE),
    "capture due": (
        "shax",
        lambda p, a, prev: p.phase is Phase.MOVEMENT and p.step is Step.REMOVE and not p.is_over,
    ),
    "capture made": (
        "shax",
        lambda p, a, prev: prev.phase is Phase.MOVEMENT and a.kind is Kind.REMOVE,
    ),
    "freeing": ("shax", lambda p, a, prev: p.step is Step.FREE and not p.is_over),
    "freeing move made": ("shax", lambda p, a, prev: prev.step is Step.FREE),
    "two stones left": (
        "shax",
        lambda p, a, prev: (
            p.outcome is not None and p.outcome.termination is Termination.TWO_PIECES
        ),
    ),
    "small board capture": ("shax-small", lambda p, a, prev: a.kind is Kind.REMOVE),
    "jar three in a row": (
        "jar",
        lambda p, a, prev: (
            p.outcome is not None and p.outcome.termination is Termination.THREE_IN_A_ROW
        ),
    ),
    "jar drawn": (
        "jar",
        lambda p, a, prev: p.outcome is not None and p.outcome.winner is None,
    ),
}


@pytest.mark.parametrize("name", list(STEPS))
@pytest.mark.parametrize("theme", THEME_NAMES)
def test_every_phase_and_step_renders(name: str, theme: str) -> None:
    variant, wanted = STEPS[name]
    record, position, action, previous = find_record(variant, wanted)
    view = BoardView(theme=theme, white_name="Ali", black_name="Hodan")
    for data in (
        render_board(variant, record, view),
        render_position(position, action, previous, view),
    ):
        img = open_png(data)
        assert img.size == (WIDTH, HEIGHT)
        assert_stones_at_centres(img, position, view)


def test_the_last_action_is_marked() -> None:
    _record, position, action, previous = find_record(
        "shax", lambda p, a, prev: a.kind is Kind.MOVE and p.step is Step.MOVE
    )
    marked = open_png(render_position(position, action, previous))
    bare = open_png(render_position(position))
    assert marked.tobytes() != bare.tobytes()
    # The mark sits around the destination, not on it.
    x, y = board_geometry("shax")[position.variant.points[action.dst]]
    r = make_layout(position.variant).stone_r
    theme = get_theme("sand")
    ring = [marked.getpixel((x + dx, y)) for dx in range(r, r + 8)]
    assert theme.mark in ring


def test_a_new_jare_is_drawn_in_the_mark_colour() -> None:
    _record, position, action, previous = find_record(
        "shax", lambda p, a, prev: p.phase is Phase.PLACEMENT and bool(prev.jare_formed(a))
    )
    img = open_png(render_position(position, action, previous))
    v = position.variant
    formed = previous.jare_formed(action)
    line = next(m for m in v.lines if formed & m == m)
    geometry = board_geometry(v)
    a, b, _ = sorted(geometry[v.points[i]] for i in range(v.size) if line >> i & 1)
    between = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)  # on the line, between two stones
    assert img.getpixel(between) == get_theme("sand").mark
    plain = open_png(render_position(position, action))  # without the position before
    assert plain.getpixel(between) != get_theme("sand").mark


# -- outcome, names, themes ----------------------------------------------------


def test_the_views_outcome_appears_on_the_image() -> None:
    record = random_record("shax", 2)[:70]
    plain = render_board("shax", record)
    resigned = BoardView(outcome=Outcome(Color.BLACK, Termination.RESIGNATION))
    timeout = BoardView(outcome=Outcome(Color.BLACK, Termination.TIMEOUT))
    agreed = BoardView(outcome=Outcome(None, Termination.AGREEMENT))
    images = {plain, *(render_board("shax", record, v) for v in (resigned, timeout, agreed))}
    assert len(images) == 4


def test_status_words() -> None:
    start = Position.initial("shax")
    assert status_text(start) == "White to place (12 in hand)"
    _, removal, _, _ = find_record("shax", lambda p, a, prev: p.phase is Phase.REMOVAL)
    mover = removal.to_move
    assert mover is not None
    assert status_text(removal) == (
        f"{mover.label.capitalize()} must remove a {mover.other.label} stone"
    )
    _, freeing, _, _ = find_record("shax", lambda p, a, prev: p.step is Step.FREE)
    assert status_text(freeing).endswith("(jid i sii aan jar aheyn)")
    _, won, _, _ = find_record(
        "shax", lambda p, a, prev: p.outcome is not None and p.outcome.winner is not None
    )
    assert won.outcome is not None
    assert status_text(won) == outcome_text(won.outcome)
    resign = Outcome(Color.WHITE, Termination.RESIGNATION)
    assert status_text(start, resign) == "White wins: black resigned"


def test_names_change_the_picture_and_odd_names_are_drawn() -> None:
    base = render_board("shax", "d7 a7")
    named = render_board("shax", "d7 a7", BoardView(white_name="Caasha", black_name="Cabdi"))
    odd = BoardView(white_name="Ṣāḥib 🐪 " + "x" * 80, black_name="")
    assert base != named
    assert open_png(render_board("shax", "d7 a7", odd)).size == (WIDTH, HEIGHT)


def test_series_stones_change_the_central_square() -> None:
    base = open_png(render_board("shax", ""))
    scored = open_png(
        render_board("shax", "", BoardView(series_color=Color.BLACK, series_stones=4))
    )
    cx = (board_geometry("shax")["c4"][0] + board_geometry("shax")["e4"][0]) // 2
    cy = board_geometry("shax")["d5"][1]
    box = (cx - 40, cy, cx + 40, board_geometry("shax")["d3"][1])
    assert base.crop(box).tobytes() != scored.crop(box).tobytes()
    many = render_board("shax", "", BoardView(series_color=Color.WHITE, series_stones=25))
    assert open_png(many).size == (WIDTH, HEIGHT)
    jar = render_board("jar", "", BoardView(series_color=Color.WHITE, series_stones=2))
    assert jar != render_board("jar", "")


def _inner_square() -> tuple[int, int, int, int]:
    """Inside shax's inner square, clear of the stones on its points."""
    g = board_geometry("shax")
    r = make_layout(Position.initial("shax").variant).stone_r
    return (g["c4"][0] + r, g["d5"][1] + r, g["e4"][0] - r + 1, g["d3"][1] - r + 1)


@pytest.mark.parametrize("stones", [1, 2, 4, 5, 6, 9])
def test_the_series_stones_are_labelled_in_the_readers_language(stones: int) -> None:
    """Not a stray stone in the middle of the board: the word "series" is over them,
    inside the inner square, clear of its stones."""
    record = "d5 c4 e4 d3 c5 e5 c3 e3"  # every point of the inner square taken
    views = {
        lang: BoardView(series_color=Color.WHITE, series_stones=stones, language=lang)
        for lang in ("en", "so")
    }
    square = (0, 0, HEIGHT, HEIGHT)  # the board; the panel's words are in the language too
    plain = open_png(render_board("shax", record)).crop(square)
    english, somali = (
        open_png(render_board("shax", record, v)).crop(square) for v in views.values()
    )
    box = _inner_square()
    outside = Image.new("L", plain.size, 255)
    outside.paste(0, box)
    for img in (english, somali):
        changed = ImageChops.difference(plain, img).convert("L").point(lambda v: 255 * (v > 0))
        assert ImageChops.multiply(changed, outside).getbbox() is None  # only inside
    words = ImageChops.difference(english, somali).getbbox()
    assert words is not None  # "series" / "taxane"
    stones_at = ImageChops.difference(plain, english).getbbox()
    assert stones_at is not None and words[1] == stones_at[1]  # the word on top


def test_the_rules_picture_names_every_point_and_keeps_its_whole_caption() -> None:
    caption = "Jar (children's game): each point is named by its file letter and rank number"
    for variant in VARIANT_IDS:
        v = Position.initial(variant).variant
        lay = make_layout(v)
        assert " ".join(caption_lines(lay, caption)) == caption
        named = open_png(render_board(variant, "", BoardView(caption=caption, point_names=True)))
        plain = open_png(render_board(variant, "", BoardView(caption=caption)))
        assert named.height == plain.height > HEIGHT + lay.caption_h  # two lines
        card = get_theme("sand").card
        for name, (x, y) in board_geometry(variant).items():
            near = named.crop((x - 20, y - 8, x + 21, y + 9)).getcolors(10_000) or []
            ink = plain.crop((x - 20, y - 8, x + 21, y + 9)).getcolors(10_000) or []
            assert card in {c for _, c in near} and card not in {c for _, c in ink}, name
    # A stone's point keeps its stone, without a name over it.
    named = open_png(render_board("jar", "b2", BoardView(point_names=True)))
    plain = open_png(render_board("jar", "b2"))
    x, y = board_geometry("jar")["b2"]
    stone = (x - 20, y - 20, x + 21, y + 21)
    assert named.crop(stone) == plain.crop(stone)


def test_players_without_names_are_called_by_colour_in_the_pictures_language() -> None:
    top_card = (HEIGHT, 0, WIDTH, 60)
    somali = open_png(render_board("shax", "", BoardView(language="so"))).crop(top_card)
    english = BoardView(language="so", black_name="Black")
    assert somali != open_png(render_board("shax", "", english)).crop(top_card)
    assert render_board("shax", "") == render_board("shax", "", BoardView(black_name="Black"))


LEVELS = ("easy", "medium", "hard", "master")


@pytest.mark.parametrize("scale", [1.0, REPLAY_SCALE])
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_bots_name_and_level_fit_its_card(language: str, scale: float) -> None:
    t = translator(language)
    lay = make_layout(Position.initial("shax").variant, scale)
    for level in LEVELS:
        for bot in ("Shax bot", "Shax Bot"):
            name = f"{bot} ({t.pgettext('level', level)})"
            assert card_name(lay, name).name == name
            # Beside its rating, even a provisional one, it shrinks (the rating with it)
            # and stays whole: never "Shax… (medium)".
            for rating in ("1919", "1500?"):
                beside = card_name(lay, name, rating)
                assert beside.name == name, (name, rating, beside)
                assert beside.rating_size <= beside.size


def test_a_long_name_shrinks_before_it_is_cut_and_a_bots_level_stays() -> None:
    lay = make_layout(Position.initial("shax").variant)
    assert card_name(lay, "Caasha").size == lay.px(30)
    shown, size, _ = card_name(lay, "Cabdiraxmaan Cali")
    assert shown == "Cabdiraxmaan Cali" and lay.px(NAME_MIN) <= size < lay.px(30)
    shown, size, _ = card_name(lay, "Xamar Somali Mill Game Bot (dhexdhexaad)")
    assert shown.endswith("… (dhexdhexaad)") and shown.startswith("Xamar")
    assert size == lay.px(TAGGED_MIN)  # a bot's name shrinks further before it is cut
    shown, _, _ = card_name(lay, "Cabdiraxmaan Maxamed Xasan Cali Faarax Cumar")
    assert shown.endswith("…") and shown.startswith("Cabdiraxmaan Maxa")


def test_themes_differ_and_an_unknown_theme_lists_the_themes() -> None:
    assert render_board("shax", "d7", BoardView(theme="sand")) != render_board(
        "shax", "d7", BoardView(theme="night")
    )
    with pytest.raises(ValueError, match="sand") as info:
        render_board("shax", "d7", BoardView(theme="neon"))
    assert "night" in str(info.value)


def test_stones_differ_by_luminance_in_every_theme() -> None:
    def luma(rgb: tuple[int, int, int]) -> float:
        r, g, b = rgb
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    for name in THEME_NAMES:
        t = get_theme(name)
        assert luma(t.white_stone) - luma(t.black_stone) > 150
        # Each stone stands out from the ground by luminance or by its rim.
        for body, rim in ((t.white_stone, t.white_rim), (t.black_stone, t.black_rim)):
            assert max(abs(luma(body) - luma(t.ground)), abs(luma(rim) - luma(t.ground))) > 60


# -- errors --------------------------------------------------------------------


def test_a_bad_record_raises_the_engines_record_error() -> None:
    with pytest.raises(RecordError) as info:
        render_board("shax", "d7 d7")
    assert info.value.index == 1
    assert "not playable" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_unknown_variant_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        render_board("chess", "")


def test_bytes_do_not_depend_on_the_process() -> None:
    """Caches and palettes are built the same way in every process (hash seeds differ)."""
    code = (
        "import hashlib, renderer; "
        "print(hashlib.sha256(renderer.render_board('shax', 'd7 a7 g7 a4 a1', "
        "renderer.BoardView(theme='night', caption='x'))).hexdigest())"
    )
    root = Path(__file__).resolve().parents[2]
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
            check=True,
        )
        digests.add(out.stdout.strip())
    here = render_board("shax", "d7 a7 g7 a4 a1", BoardView(theme="night", caption="x"))
    digests.add(hashlib.sha256(here).hexdigest())
    assert len(digests) == 1


def test_warm_up_prepares_every_look() -> None:
    warm_up(variants=("jar",), themes=THEME_NAMES)
    assert open_png(render_board("jar", "a1", BoardView(theme="night"))).size == (WIDTH, HEIGHT)
