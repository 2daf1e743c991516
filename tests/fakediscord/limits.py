"""Discord's payload limits, checked the way the API does, with its "Invalid Form Body" errors."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]
Path = tuple[str | int, ...]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER_TEXT = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_COMPONENTS_V2 = 40
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_PLACEHOLDER = 150
MAX_OPTION_TEXT = 100
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_ATTACHMENTS = 10
MAX_MODAL_TITLE = 45
MAX_COMMANDS = 100
MAX_COMMAND_OPTIONS = 25
MAX_COMMAND_DESCRIPTION = 100

IS_COMPONENTS_V2 = 1 << 15
BUTTON = 2
STRING_SELECT = 3
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6

_COMMAND_NAME = re.compile(r"[-_'\w]{1,32}")


@dataclass
class FormErrors:
    """Errors collected for one request body, keyed by JSON path."""

    items: list[tuple[Path, str, str]] = field(default_factory=list)

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def nested(self) -> JSON:
        """The ``errors`` object Discord returns: ``{"a": {"0": {"_errors": [...]}}}``."""
        root: JSON = {}
        for path, code, message in self.items:
            node = root
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def body(self) -> JSON:
        return {"code": 50035, "message": "Invalid Form Body", "errors": self.nested()}

    def summary(self) -> str:
        return "; ".join(
            f"{'.'.join(map(str, path)) or '<body>'}: {message}" for path, _, message in self.items
        )


def _max_length(errors: FormErrors, path: Path, value: Any, maximum: int) -> None:
    if isinstance(value, str | list) and len(value) > maximum:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length.")


def _bad_length(errors: FormErrors, path: Path, value: Any, minimum: int, maximum: int) -> None:
    if not isinstance(value, str | list) or not minimum <= len(value) <= maximum:
        errors.add(
            path, "BASE_TYPE_BAD_LENGTH", f"Must be between {minimum} and {maximum} in length."
        )


def check_message(body: JSON, errors: FormErrors, path: Path = ()) -> None:
    """Content, embeds, components and attachment count of a message create or edit body."""
    _max_length(errors, (*path, "content"), body.get("content"), MAX_CONTENT)
    embeds = body.get("embeds")
    if isinstance(embeds, list):
        check_embeds(embeds, errors, (*path, "embeds"))
    components = body.get("components")
    if isinstance(components, list):
        v2 = bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2)
        check_components(components, errors, (*path, "components"), v2=v2)
    attachments = body.get("attachments")
    if isinstance(attachments, list):
        _max_length(errors, (*path, "attachments"), attachments, MAX_ATTACHMENTS)


def check_embeds(embeds: Sequence[JSON], errors: FormErrors, path: Path) -> None:
    _max_length(errors, path, list(embeds), MAX_EMBEDS)
    total = 0
    for index, embed in enumerate(embeds):
        here = (*path, index)
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        _max_length(errors, (*here, "title"), title, MAX_EMBED_TITLE)
        _max_length(errors, (*here, "description"), description, MAX_EMBED_DESCRIPTION)
        fields = embed.get("fields") or []
        _max_length(errors, (*here, "fields"), fields, MAX_EMBED_FIELDS)
        total += len(title) + len(description)
        for number, embed_field in enumerate(fields):
            name, value = embed_field.get("name") or "", embed_field.get("value") or ""
            _bad_length(errors, (*here, "fields", number, "name"), name, 1, MAX_FIELD_NAME)
            _bad_length(errors, (*here, "fields", number, "value"), value, 1, MAX_FIELD_VALUE)
            total += len(name) + len(value)
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        _max_length(errors, (*here, "footer", "text"), footer, MAX_FOOTER_TEXT)
        _max_length(errors, (*here, "author", "name"), author, MAX_AUTHOR_NAME)
        total += len(footer) + len(author)
    if total > MAX_EMBED_TOTAL:
        errors.add(
            path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
        )


def iter_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Every component, depth first, including those nested in rows, sections and containers."""
    for component in components:
        yield component
        yield from iter_components(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def check_components(
    components: Sequence[JSON], errors: FormErrors, path: Path, *, v2: bool = False
) -> None:
    """Row and width rules, select options, custom_id length and uniqueness."""
    if v2:
        count = sum(1 for _ in iter_components(components))
        if count > MAX_COMPONENTS_V2:
            errors.add(
                path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMPONENTS_V2} or fewer in length."
            )
    else:
        _max_length(errors, path, list(components), MAX_ACTION_ROWS)
    for index, component in enumerate(components):
        _check_component(component, errors, (*path, index), top_level=not v2)
    seen: set[str] = set()
    for component in iter_components(components):
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                errors.add(
                    path,
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({custom_id!r})",
                )
            seen.add(custom_id)


def _check_component(component: JSON, errors: FormErrors, path: Path, *, top_level: bool) -> None:
    kind = component.get("type")
    if top_level and kind != 1:
        errors.add(
            (*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
        )
        return
    if kind == 1:
        children = component.get("components") or []
        _bad_length(errors, (*path, "components"), children, 1, MAX_ROW_BUTTONS)
        if any(child.get("type") in SELECT_TYPES for child in children) and len(children) > 1:
            errors.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for index, child in enumerate(children):
            _check_component(child, errors, (*path, "components", index), top_level=False)
    elif kind == BUTTON:
        _check_button(component, errors, path)
    elif kind in SELECT_TYPES:
        _check_select(component, errors, path)
    else:
        for index, child in enumerate(component.get("components") or []):
            _check_component(child, errors, (*path, "components", index), top_level=False)
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            _check_component(accessory, errors, (*path, "accessory"), top_level=False)


def _check_custom_id(component: JSON, errors: FormErrors, path: Path) -> None:
    custom_id = component.get("custom_id")
    if custom_id is None:
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _bad_length(errors, (*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)


def _check_button(component: JSON, errors: FormErrors, path: Path) -> None:
    _max_length(errors, (*path, "label"), component.get("label"), MAX_BUTTON_LABEL)
    style = component.get("style")
    if style == LINK_STYLE:
        if not component.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
    elif style != PREMIUM_STYLE:
        _check_custom_id(component, errors, path)


def _check_select(component: JSON, errors: FormErrors, path: Path) -> None:
    _check_custom_id(component, errors, path)
    _max_length(
        errors, (*path, "placeholder"), component.get("placeholder"), MAX_SELECT_PLACEHOLDER
    )
    min_values = component.get("min_values", 1)
    max_values = component.get("max_values", 1)
    if not 0 <= min_values <= MAX_SELECT_OPTIONS:
        errors.add(
            (*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25."
        )
    if not 1 <= max_values <= MAX_SELECT_OPTIONS:
        errors.add(
            (*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25."
        )
    if component.get("type") != STRING_SELECT:
        return
    options = component.get("options") or []
    _bad_length(errors, (*path, "options"), options, 1, MAX_SELECT_OPTIONS)
    if isinstance(max_values, int) and options and max_values > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_OPTIONS_EXCEEDED",
            "max_values must be less than or equal to the number of options",
        )
    for index, option in enumerate(options):
        here = (*path, "options", index)
        _bad_length(errors, (*here, "label"), option.get("label"), 1, MAX_OPTION_TEXT)
        _bad_length(errors, (*here, "value"), option.get("value"), 1, MAX_OPTION_TEXT)
        _max_length(errors, (*here, "description"), option.get("description"), MAX_OPTION_TEXT)


def check_choices(choices: Any, errors: FormErrors, path: Path) -> None:
    """An autocomplete answer: at most 25 choices, names 1–100, string values ≤ 100."""
    if not isinstance(choices, list):
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    _max_length(errors, path, choices, MAX_CHOICES)
    for index, choice in enumerate(choices):
        _bad_length(errors, (*path, index, "name"), choice.get("name"), 1, MAX_CHOICE_NAME)
        value = choice.get("value")
        if isinstance(value, str):
            _max_length(errors, (*path, index, "value"), value, MAX_CHOICE_VALUE)


def check_modal(data: JSON, errors: FormErrors, path: Path) -> None:
    _bad_length(errors, (*path, "title"), data.get("title"), 1, MAX_MODAL_TITLE)
    _check_custom_id(data, errors, path)
    _bad_length(errors, (*path, "components"), data.get("components") or [], 1, MAX_ACTION_ROWS)


def check_commands(commands: Any, errors: FormErrors) -> None:
    """A bulk command overwrite: names, descriptions, option counts and order, choices."""
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_REQUIRED", "This field is required")
        return
    _max_length(errors, (), commands, MAX_COMMANDS)
    for index, command in enumerate(commands):
        _check_command(command, errors, (index,))


def _check_command(command: JSON, errors: FormErrors, path: Path) -> None:
    name = command.get("name") or ""
    chat_input = command.get("type", 1) == 1
    if chat_input and (not _COMMAND_NAME.fullmatch(name) or name != name.lower()):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    if chat_input:
        _bad_length(
            errors, (*path, "description"), command.get("description"), 1, MAX_COMMAND_DESCRIPTION
        )
    _check_options(command.get("options") or [], errors, (*path, "options"))


def _check_options(options: list[JSON], errors: FormErrors, path: Path) -> None:
    _max_length(errors, path, options, MAX_COMMAND_OPTIONS)
    optional_seen = False
    for index, option in enumerate(options):
        here = (*path, index)
        name = option.get("name") or ""
        if not _COMMAND_NAME.fullmatch(name) or name != name.lower():
            errors.add(
                (*here, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        _bad_length(errors, (*here, "description"), option.get("description"), 1, 100)
        if option.get("type") in (1, 2):
            _check_options(option.get("options") or [], errors, (*here, "options"))
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*here, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        _max_length(errors, (*here, "choices"), option.get("choices") or [], MAX_CHOICES)
