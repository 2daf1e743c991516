"""The service's words: examples that exist on the board in play, controls named as
they are where the words are shown."""

from __future__ import annotations

import re

import pytest

from bot import words
from bot.service.kernel import VARIANT_TITLE
from bot.service.replies import User
from bot.service.streaks import Tally
from bot.words import boards
from bot.words.terms import Surface
from engine import VARIANTS, Variant, replay
from engine.position import parse_action
from shax_i18n import translator
from tests.services import voice

EN = translator("en")
B = User(2, "B")


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=list(VARIANTS))
def test_examples_exist_on_every_board(variant: Variant) -> None:
    ex = boards.examples(variant)
    assert ex.place in variant.points
    a, b = (variant.point(p) for p in ex.move.split("-"))
    assert (min(a, b), max(a, b)) in variant.edges  # a real move along a line
    if variant.family == "jar":
        assert ex.remove is None  # nothing is ever removed on the jar board
    else:
        assert ex.remove is not None and ex.remove[1:] in variant.points
    assert boards.examples(VARIANTS["jar"]) == ("b2", "a1-a2", None)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=list(VARIANTS))
def test_the_rules_give_this_boards_notation_and_promise_only_the_labels(
    variant: Variant,
) -> None:
    rules = boards.rules_text(EN, variant)
    for example in re.findall(r"`([^`]+)`", rules):
        parse_action(variant, example)  # every example is notation on this board
    assert "every point's name" not in rules
    last_file = "abcdefg"[variant.grid - 1]
    assert f"files a–{last_file} along the bottom and the ranks 1–{variant.grid}" in rules
    assert ("remove `x" in rules) == (variant.family == "shax")
    if variant.id == "shax-small":
        assert "a1 a3 a5 b2" in rules and "d7" not in rules


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=list(VARIANTS))
def test_unreadable_actions_are_explained_with_this_boards_examples(variant: Variant) -> None:
    ex = boards.examples(variant)
    for typed in ("zz", "?!", "a1-", "x"):
        text = words.malformed_sentence(EN, typed, variant, [])
        assert f"a point ({ex.place})" in text and f"a move from-to ({ex.move})" in text
        assert ("removal" in text) == (variant.family == "shax")
    missing = "z9" if variant.id == "shax" else "d7"
    text = words.malformed_sentence(EN, missing, variant, [])
    assert f"{missing!r} is not a point on the {variant.id} board" in text
    assert boards.point_names(variant) in text


def test_the_turn_prompt_moves_along_this_boards_lines() -> None:
    position = replay("jar", ["a1", "b1", "c1", "b2", "a2", "c3"])
    assert words.turn_prompt(position, EN).endswith("(from-to, e.g. a1-a2)")


def test_sentences_naming_controls_follow_the_surface() -> None:
    discord, console = Surface.DISCORD, Surface.CONSOLE
    on_discord, at_console = voice(surface=discord), voice(surface=console)
    assert words.already_challenged(on_discord, "Bashir").endswith("withdraw it with Decline.")
    assert words.already_challenged(at_console, "Bashir").endswith("withdraw it with /shax cancel.")
    assert "Start a new one with Rematch," in words.game_over(on_discord, 7)
    assert "Start a new one with /shax rematch," in words.game_over(at_console, 7)
    assert "Accept draw (or /shax draw), decline it" in words.draw_offer_intro(on_discord, "A", B)
    offer = words.draw_offer_intro(at_console, "A", B)
    assert "/shax draw, decline it with /shax decline-draw" in offer
    jar = VARIANT_TITLE(VARIANTS["jar"])
    sent = words.challenge_sent(on_discord, B, "A", jar, 600)
    assert sent == "<@2>, A challenges you to a game of Jar (children's game)! " + (
        "Accept or decline within 10 minutes."
    )
    sent = words.challenge_sent(at_console, B, "A", None, 600)
    assert sent.startswith("@B, A challenges you to a rematch! Answer with /shax accept or")
    assert "use the latest board below" in words.stale(on_discord)
    assert "below" not in words.stale(at_console) and "/shax board" in words.stale(at_console)
    assert "Open a thread here" in words.channel_busy(on_discord, False, None)
    assert "thread" not in words.channel_busy(at_console, False, None)
    assert "--channel" in words.channel_busy(at_console, False, (3, "A", "B"))


SO = translator("so")


def test_option_values_are_shown_in_the_readers_words_with_the_value_to_type() -> None:
    assert words.theme_chosen(SO, "light") == "Shaxdaada hadda waxaa lagu sawirayaa muuqaalka cad."
    assert "madow (dark), cad (light)" in words.theme_current(SO, "dark", ("dark", "light"))
    assert "fudud (easy), adag (hard)" in words.unknown_level(SO, "x", ("easy", "hard"))
    # English players read the values as they type them, as before.
    assert words.theme_current(EN, "dark", ("dark", "light")) == (
        "Your boards are drawn in the dark theme; choose with /shax theme: dark, light."
    )


def test_counts_take_the_plural_after_a_number() -> None:
    tally = Tally(wins=3, losses=1, draws=0, streak=0, best=2)
    assert words.tally_line(tally, SO).startswith("3 guulood, 1 guuldarro, 0 barbaro — ")
    one = Tally(wins=1, losses=0, draws=2, streak=1, best=1)
    assert words.tally_line(one, SO).startswith("1 guul, 0 guuldarro, 2 barbaro — ")
    assert words.tally_line(tally, EN).startswith("3 won, 1 lost, 0 drawn — ")


RULES_SAY = {
    "en": {
        "no diagonals": r"no diagonals",
        "only the sides make a jare": r"Only the squares' sides make a jare",
        "who places first in a series": (
            r"in a series .*the last winner; after a draw, whoever placed second; "
            r"in a new series, the challenger"
        ),
        "the opening removal takes the opponent's stone": (
            r"removes any one of the opponent's stones, then the opponent removes one of the "
            r"first-jare player's"
        ),
        "a jare formed again captures": r"forms a jare — also one formed again by moving a stone "
        r"out and back — removes",
        "the opponent moves on until a way opens": r"keeps moving until one opens",
        "jar: moving on until a way opens": r"moving on until one opens",
        "jar: a line formed again wins": r"counts only when formed again, by moving a stone out "
        r"and back",
    },
    "so": {
        "no diagonals": r"xariiq janjeera ma leh",
        "only the sides make a jare": r"Dhinacyada afargeesyada oo keliya ayaa jare sameeya",
        "who places first in a series": (
            r"taxane.*kii ugu dambeeyay guuleystay; barbaro kadib, kii labaad dhigay; "
            r"taxane cusub, kii loolanka diray"
        ),
        "the opening removal takes the opponent's stone": (
            r"kuwa ka soo horjeeda, kadibna kan kale ayaa mid ka qaada dhagaxyada kii jaraha "
            r"koowaad yeeshay"
        ),
        "a jare formed again captures": r"xitaa mid mar kale la sameeyo",
        "the opponent moves on until a way opens": r"sii dhaqaaqayaa ilaa jid furmo",
        "jar: moving on until a way opens": r"isagoo sii dhaqaaqaya ilaa jid furmo",
        "jar: a line formed again wins": r"marka mar kale la sameeyo, dhagax oo laga saaro "
        r"kadibna dib loo celiyo",
    },
}


def says(variant: Variant) -> set[str]:
    """What the rules of ``variant`` must say (the lines, who places first, and each rule
    players have asked about)."""
    shared = {"no diagonals", "who places first in a series"}
    if variant.family == "jar":
        return shared | {"jar: moving on until a way opens", "jar: a line formed again wins"}
    shax = {
        "the opening removal takes the opponent's stone",
        "a jare formed again captures",
        "the opponent moves on until a way opens",
    }
    small = {"only the sides make a jare"} if variant.id == "shax-small" else set()
    return shared | shax | small


@pytest.mark.parametrize("language", ["en", "so"])
@pytest.mark.parametrize("variant", VARIANTS.values(), ids=list(VARIANTS))
def test_the_rules_say_the_lines_the_series_and_every_rule_of_the_rules_page(
    variant: Variant, language: str
) -> None:
    """``/shax rules`` says what docs/RULES.md says: no diagonals (and on the small board
    only the squares' sides), who places first in a series, whose stone the opening
    removal takes, that a jare formed again captures, and that a blocked player's
    opponent moves on until a way opens — in one Discord message."""
    rules = boards.rules_text(translator(language), variant)
    missing = [
        point for point in sorted(says(variant)) if not re.search(RULES_SAY[language][point], rules)
    ]
    assert not missing, f"the {variant.id} rules in {language} do not say {missing}:\n{rules}"
    assert len(rules) <= 2000  # Discord's limit for a message: nothing is cut


@pytest.mark.parametrize("language", ["en", "so"])
def test_a_count_of_one_takes_the_singular(language: str) -> None:
    """``1 actions``, ``all 1 hints``, ``1 ratings``: a count of one is said as one."""
    from bot.__main__ import recompute_summary
    from bot.words.teacher import no_hints_left, review_heading

    t = translator(language)
    one = {
        "en": ["(1 action)", "used the 1 hint of this game"],
        "so": ["(1 tallaabo)", "tilmaanta ciyaartan (1)"],
    }[language]
    said = [review_heading(t, "Amina", "Bashir", 1), no_hints_left(t, 1)]
    for phrase, sentence in zip(one, said, strict=True):
        assert phrase in sentence
    if language == "en":
        assert "(2 actions)" in review_heading(t, "Amina", "Bashir", 2)
        assert "all 3 hints" in no_hints_left(t, 3)
        summary = recompute_summary(1, 1, "shax.db")
        assert summary == "Rated 1 finished game again in shax.db: 1 rating."
        assert recompute_summary(3, 2, "x") == "Rated 3 finished games again in x: 2 ratings."
