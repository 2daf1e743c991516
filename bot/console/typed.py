"""``/shax`` commands as typed at the console, read from the command table.

A command's options are written as in Discord (``opponent:@amina variant:jar``) or by
position, in the order they are declared (``/shax challenge @amina jar``); what is left
out takes its default. A command of a group is named by the group's word and its own
(``/shax tournament create``, or without ``/shax``: ``/tournament create``). The help,
the completion of names and values, and the refusals of what cannot be read all come
from the same declarations.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot import words
from bot.commands import COMMANDS, Command, Kind, Option, Value, command_named
from bot.service.replies import Said, User, UserError
from bot.words import boards
from engine import Variant
from shax_i18n import N_, Translator

CONSOLE_COMMANDS = ("/shax", "/as", "/help", "/quit")
MANY_OPTIONS = 3
"""A command with more options than this shows them with ``/help COMMAND`` only."""
_OPTION_NAME = re.compile(r"[a-z][a-z_-]*")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")

UNKNOWN_COMMAND = N_("Unknown command /shax {command} — choose one of: {commands}.")
UNKNOWN_OPTION = N_("/shax {command} has no option `{option}` — its options: {options}.")
NO_OPTIONS = N_("/shax {command} takes no options.")
NOT_A_FLAG = N_("`{value}` is not true or false: write {option}:true or {option}:false.")
NOT_A_CHANNEL = N_("Name a channel by its number, like {option}:#{channel}.")
HELP_HEAD = N_("Commands (as in Discord):")
A_BUTTON = N_("(a button on Discord)")
NOTATION = N_("{place} places, {move} moves, {remove} removes")
NOTATION_NO_REMOVALS = N_("{place} places, {move} moves")
HELP_TAIL = N_(
    """\
An option's name may be left out: /shax move {place} is /shax move action:{place}.
On {variant}: points {points}.
Console only:
  /as NAME    switch who is typing (the game hands over by itself)
  /help [COMMAND]   this text, or one command's options
  /quit (or Ctrl-D)    leave
Tab completes commands, options and the legal actions; the up arrow recalls a line."""
)


def command_names(group: str | None = None) -> list[str]:
    """The words that may follow ``/shax``: each command's name, a group's word once (in
    the order of its first command); with ``group``, the names of that group's commands."""
    if group is not None:
        return [c.name for c in COMMANDS if c.group is not None and c.group.name == group]
    return list(dict.fromkeys(c.path[0] for c in COMMANDS))


def group_names() -> list[str]:
    return list(dict.fromkeys(c.group.name for c in COMMANDS if c.group is not None))


def find_command(name: str, args: list[str]) -> tuple[Command, list[str]]:
    """The command ``/shax name args…`` names, and the words after it: a group's word is
    followed by its command's name."""
    key = name.strip().lower()
    if key in group_names():
        sub = args[0].lower() if args else ""
        found = command_named(f"{key} {sub}")
        if found is None:
            raise unknown_command(f"{key} {sub}".strip(), command_names(key))
        return found, args[1:]
    command = command_named(key)
    if command is None:
        raise unknown_command(name)
    return command, args


def unknown_command(name: str, names: list[str] | None = None) -> UserError:
    listed = ", ".join(command_names() if names is None else names)
    return UserError(Said.message(UNKNOWN_COMMAND, command=name, commands=listed))


def sample(option: Option, variant: Variant) -> str:
    """A value to write for ``option`` (``@name``, ``#channel``, ``dark|light``…); an
    action's is a point of ``variant``'s board."""
    if option.choices:
        return "|".join(pick.value for pick in option.choices)
    if option.kind is Kind.USER:
        return "@name"
    if option.kind is Kind.CHANNEL:
        return "#channel"
    if option.kind is Kind.FLAG:
        return "true"
    if option.notation:
        return boards.examples(variant).place
    return option.sample


def usage(command: Command, variant: Variant) -> str:
    """``/shax challenge opponent:@name [variant:shax|shax-small|jar]`` (``[…]`` for more
    than a few options)."""
    if len(command.options) > MANY_OPTIONS:
        return f"/shax {command.spelled} […]"
    words = [f"/shax {command.spelled}"]
    for option in command.options:
        written = f"{option.name}:{sample(option, variant)}"
        words.append(written if option.required else f"[{written}]")
    return " ".join(words)


def notation(variant: Variant, t: Translator) -> str:
    """How actions are written on ``variant``'s board, with its own points."""
    ex = boards.examples(variant)
    if ex.remove:
        return t.gettext(NOTATION, place=ex.place, move=ex.move, remove=ex.remove)
    return t.gettext(NOTATION_NO_REMOVALS, place=ex.place, move=ex.move)


def help_line(command: Command, variant: Variant, t: Translator) -> str:
    """What ``command`` is for, in ``t``'s language (with the board's notation, for moves)."""
    if command.board_help is not None:
        return t.gettext(command.board_help, notation=notation(variant, t))
    return t.gettext(command.help)


def help_text(variant: Variant, t: Translator = words.EN) -> str:
    """Every command, with notation examples that exist on ``variant``'s board."""
    lines = [t.gettext(HELP_HEAD)]
    for command in COMMANDS:
        line = f"  {usage(command, variant)} — {help_line(command, variant, t)}"
        if command.buttons_only:
            line += " " + t.gettext(A_BUTTON)
        if len(command.options) > MANY_OPTIONS:
            line += f" · /help {command.spelled}"
        lines.append(line)
    lines.append(
        t.gettext(
            HELP_TAIL,
            place=boards.examples(variant).place,
            variant=words.variant_title(t, variant),
            points=boards.point_names(variant),
        )
    )
    return "\n".join(lines)


def command_help(command: Command, variant: Variant, t: Translator = words.EN) -> str:
    """One command: how it is written, what it is for, and each of its options."""
    lines = [f"{usage(command, variant)} — {help_line(command, variant, t)}"]
    lines += [
        f"  {option.name}:{sample(option, variant)}  {t.gettext(option.help)}"
        for option in command.options
    ]
    return "\n".join(lines)


def help_for(words: list[str], variant: Variant, t: Translator) -> str:
    """What ``/help WORDS`` shows: one command's options, or a group's commands."""
    name = words[0].strip().lower()
    if name in group_names() and len(words) == 1:
        grouped = [c for c in COMMANDS if c.group is not None and c.group.name == name]
        return "\n".join(f"  {usage(c, variant)} — {help_line(c, variant, t)}" for c in grouped)
    command, _ = find_command(words[0], words[1:])
    return command_help(command, variant, t)


def read_options(
    command: Command,
    words: Iterable[str],
    *,
    person: Callable[[str], User],
    here: int,
    example: Callable[[Option], str],
) -> dict[str, Value]:
    """The options typed after ``/shax <command>``: by name or by position; a required
    one left out, an unknown name or an unreadable value is refused. ``person`` reads a
    player's name, ``here`` is this channel (an example), ``example`` a value to write."""
    named: dict[str, str] = {}
    rest: list[str] = []
    queue = list(words)
    while queue:
        word = queue.pop(0)
        key, sep, value = word.partition(":")
        key = key.lower()
        if sep and not value and queue and _OPTION_NAME.fullmatch(key):
            value = queue.pop(0)  # written as in Discord: ``turn-timeout: 12h``
        if sep and value and _OPTION_NAME.fullmatch(key):
            option = command.option(key) or command.option(key.replace("_", "-"))
            if option is None:
                raise _unknown_option(command, key)
            named[option.name] = value
        else:
            rest.append(word)
    values: dict[str, Value] = {}
    for option in command.options:
        text = named.get(option.name)
        if text is None and rest:
            text = rest.pop(0)
        if text is None:
            if option.required:
                raise option.left_out(example(option))
            values[option.name] = option.default
            continue
        values[option.name] = option.checked(_value(option, text, person, here))
    return values


def _unknown_option(command: Command, name: str) -> UserError:
    if not command.options:
        return UserError(Said.message(NO_OPTIONS, command=command.spelled))
    names = ", ".join(o.name for o in command.options)
    return UserError(
        Said.message(UNKNOWN_OPTION, command=command.spelled, option=name, options=names)
    )


def _value(option: Option, text: str, person: Callable[[str], User], here: int) -> Value:
    if option.kind is Kind.USER:
        return person(text)
    if option.kind is Kind.FLAG:
        word = text.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise UserError(Said.message(NOT_A_FLAG, value=text, option=option.name))
    if option.kind is Kind.CHANNEL:
        number = text.strip().removeprefix("#")
        if not number.isdigit():
            raise UserError(Said.message(NOT_A_CHANNEL, option=option.name, channel=here))
        return int(number)
    return text


def written(word: str) -> str:
    """``word`` as typed so that the console reads it back as one word: a name with a
    space quoted (``'@Shax bot'``), as the shell does."""
    return shlex.quote(word)


def unquoted(word: str) -> str:
    """``word`` without the quotes of :func:`written` (to compare what is being typed)."""
    return word.replace("'", "").replace('"', "")


@dataclass(frozen=True)
class Offers:
    """What the console can offer as an option's value, besides its choices."""

    players: Callable[[bool], list[str]]
    """The players as ``@name``, written so that they read back (:func:`written`);
    ``True``: only those the one typing may challenge (not themselves, not the bot, which
    ``/shax play-bot`` plays)."""
    legal: list[str]
    """The typing player's legal actions."""
    here: int
    """This channel."""

    def values(self, command: Command, option: Option) -> list[str]:
        if option.choices:
            return [pick.value for pick in option.choices]
        if option.kind is Kind.USER:
            return self.players(command.opponent is not None)
        if option.kind is Kind.CHANNEL:
            return [f"#{self.here}"]
        if option.kind is Kind.FLAG:
            return ["true", "false"]
        if option.complete is not None:
            return self.legal
        return [option.sample] if option.sample else []


def option_words(command: Command, word: str, offers: Offers) -> list[str]:
    """What may complete ``word`` among ``command``'s options: ``name:`` words, an
    option's values (``variant:jar``), and, for a move, the legal actions by themselves."""
    key, sep, _ = word.partition(":")
    if sep:
        option = command.option(key.lower())
        if option is None:
            return []
        return [f"{option.name}:{value}" for value in offers.values(command, option)]
    words = [f"{option.name}:" for option in command.options]
    for option in command.options:
        if option.complete is not None:
            words += offers.legal
    return words
