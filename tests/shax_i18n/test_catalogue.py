"""The message catalogue: complete, consistent Somali, and the translator API."""

from __future__ import annotations

import gettext
import re
import string
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from shax_i18n import (
    DEFAULT_LANGUAGE,
    DISCORD_LOCALES,
    LANGUAGES,
    N_,
    Translator,
    language_code,
    pick_language,
    translator,
)
from shax_i18n.catalogue import catalogue_path, compile_catalogue, template_path

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def read(path: Traversable, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


TEMPLATE = read(template_path())
CATALOGUES = {code: read(catalogue_path(code), code) for code in TRANSLATED}


def entries(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def key(m: Message) -> tuple[str | None, str]:
    return m.context, m.id if isinstance(m.id, str) else m.id[0]


def ids(m: Message) -> list[str]:
    return [m.id] if isinstance(m.id, str) else list(m.id)


def forms(m: Message) -> list[str]:
    return [m.string] if isinstance(m.string, str) else list(m.string or ())


def fields(text: str) -> set[str]:
    """The named placeholders of a message; raises ValueError on a stray brace."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def label(m: Message) -> str:
    return f"{m.context + ' | ' if m.context else ''}{ids(m)[0][:60]!r}"


# -- the catalogue itself -------------------------------------------------------------


def test_the_template_holds_every_message_with_where_it_is_used() -> None:
    messages = entries(TEMPLATE)
    assert len(messages) > 200
    for m in messages:
        assert m.locations, f"{label(m)} has no location"
        for file, _ in m.locations:
            assert (ROOT / file).is_file(), f"{label(m)}: {file} does not exist"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalogue_has_exactly_the_template_messages(code: str) -> None:
    template = {key(m) for m in entries(TEMPLATE)}
    catalogue = {key(m) for m in entries(CATALOGUES[code])}
    assert template - catalogue == set(), "messages without a translation entry"
    assert catalogue - template == set(), "translations of messages no longer used"
    assert not CATALOGUES[code].obsolete


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_has_a_translation_that_is_not_fuzzy(code: str) -> None:
    for m in entries(CATALOGUES[code]):
        assert not m.fuzzy, f"{label(m)} is fuzzy"
        assert all(f.strip() for f in forms(m)), f"{label(m)} is not translated"


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_agree_between_the_english_and_the_translation(code: str) -> None:
    for m in entries(CATALOGUES[code]):
        english = set().union(*(fields(i) for i in ids(m)))
        for text in forms(m):
            assert fields(text) == english, f"{label(m)}: {sorted(fields(text))}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_messages_have_every_form(code: str) -> None:
    catalog = CATALOGUES[code]
    assert catalog.num_plurals == 2
    plurals = [m for m in entries(catalog) if m.pluralizable]
    assert plurals
    for m in plurals:
        assert len(forms(m)) == catalog.num_plurals, label(m)


@pytest.mark.parametrize("code", TRANSLATED)
def test_commands_notation_and_markup_survive_translation(code: str) -> None:
    commands = re.compile(r"/(?:shax [a-z-]+|as|help|quit)\b")
    code_spans = re.compile(r"`[^`]+`")
    for m in entries(CATALOGUES[code]):
        english = ids(m)[0]
        for text in forms(m):
            assert set(commands.findall(text)) == set(commands.findall(english)), label(m)
            assert code_spans.findall(text) == code_spans.findall(english), label(m)
            assert text.count("**") == english.count("**"), label(m)
            assert text.count("\n") == english.count("\n"), label(m)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_are_written_in_the_standard_latin_orthography(code: str) -> None:
    # Somali writes long vowels doubled (haarig, not hārig): no accents or macrons.
    for m in entries(CATALOGUES[code]):
        for text in forms(m):
            letters = {ch for ch in text if ch.isalpha()}
            assert letters <= set(string.ascii_letters), f"{label(m)}: {sorted(letters)}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalogue_compiles(code: str) -> None:
    compiled = compile_catalogue(code)
    assert isinstance(compiled, gettext.GNUTranslations)
    assert compiled.ngettext("{n} hour", "{n} hours", 1) != "{n} hour"


# -- the translator -------------------------------------------------------------------


def test_languages_name_themselves() -> None:
    assert LANGUAGES == {"en": "English", "so": "Soomaali"}
    assert DEFAULT_LANGUAGE == "en"


def test_somali_fills_named_placeholders() -> None:
    t = translator("so")
    text = t.gettext("{player} placed a stone on {point}", player="Amina", point="d7")
    assert "Amina" in text and "d7" in text
    assert text != "Amina placed a stone on d7"


def test_english_is_the_message_itself() -> None:
    t = translator("en")
    assert t.gettext("{player} placed a stone on {point}", player="Amina", point="d7") == (
        "Amina placed a stone on d7"
    )
    assert t.ngettext("{n} stone in hand", "{n} stones in hand", 1) == "1 stone in hand"
    assert t.ngettext("{n} stone in hand", "{n} stones in hand", 11) == "11 stones in hand"


def test_plural_forms_follow_the_count() -> None:
    t = translator("so")
    assert t.ngettext("{n} minute", "{n} minutes", 1) == "1 daqiiqad"
    assert t.ngettext("{n} minute", "{n} minutes", 10) == "10 daqiiqo"
    assert t.ngettext("{n} hour", "{n} hours", 24) == "24 saacadood"


def test_a_context_separates_the_same_english() -> None:
    t = translator("so")
    assert t.pgettext("button", "Resign") == "Isdhiib"
    assert t.pgettext("color", "white") == "cad"
    assert t.pgettext("level", "hard") == "adag"
    assert t.npgettext("nowhere", "{n} thing", "{n} things", 2) == "2 things"


def test_a_value_with_braces_is_not_read_as_a_placeholder() -> None:
    t = translator("so")
    assert "{point}" in t.gettext("Now typing: {name}", name="{point}")


def test_a_missing_placeholder_is_the_callers_mistake() -> None:
    with pytest.raises(KeyError):
        translator("en").gettext("Now typing: {name}")


def test_a_translation_that_breaks_its_placeholders_falls_back_to_english() -> None:
    class Broken(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "Hadda: {magac}"

    t = Translator("xx", Broken())
    assert t.gettext("Now typing: {name}", name="Amina") == "Now typing: Amina"


def test_messages_missing_from_the_catalogue_stay_english() -> None:
    assert translator("so").gettext("Not in the catalogue, {x}", x=1) == "Not in the catalogue, 1"


def test_marked_messages_are_translated_where_they_are_used() -> None:
    message = N_("Choose a move")
    assert message == "Choose a move"
    assert translator("so").gettext(message) == "Dooro dhaqaaq"


@pytest.mark.parametrize("unknown", [None, "", "de", "klingon", "xx-YY", "  "])
def test_an_unknown_language_falls_back_to_english(unknown: str | None) -> None:
    assert translator(unknown).language == "en"
    assert translator(unknown).pgettext("button", "Resign") == "Resign"


@pytest.mark.parametrize(
    ("code", "ours"),
    [
        ("so", "so"),
        ("SO", "so"),
        ("so_SO", "so"),
        ("so-SO", "so"),
        ("en", "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", None),
        ("pt-BR", None),
        (None, None),
    ],
)
def test_language_codes_and_discord_locales(code: str | None, ours: str | None) -> None:
    assert language_code(code) == ours


def test_discord_locales_map_to_english_only() -> None:
    assert DISCORD_LOCALES == {"en-US": "en", "en-GB": "en"}


def test_the_first_language_we_have_wins() -> None:
    assert pick_language(None, "de", "so", "en") == "so"
    assert pick_language("so", "en-US") == "so"
    assert pick_language(None, "en-GB", "so") == "en"
    assert pick_language("fr", None) == "en"
    assert pick_language() == "en"


def test_translators_are_shared() -> None:
    assert translator("so") is translator("so_SO")
