"""What to say, as data: a message id with its values, words only at the edge.

* :class:`Said` — a sentence of :mod:`bot.words` by its id with its values (players among
  them as :class:`~bot.service.replies.User` references), a plain message of the
  catalogue (:meth:`Said.message`), or sentences one after another (:meth:`Said.join`).
* :class:`Saying` — a sentence with the types of its values, declared beside the code
  that says it; calling it makes the :class:`Said`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, ParamSpec


class Said:
    """A message to say, as data: its id and its values; words only at the edge.

    The id names a sentence of :mod:`bot.words`, made by its :class:`Saying`
    (``NOT_YOUR_TURN(name, is_bot)``), or, for a plain message, is the catalogue's id
    itself (:meth:`message`). Values may be players and channels
    (:class:`~bot.service.replies.User`, :class:`~bot.service.replies.Channel`), other
    :class:`Said` values, or sequences of them: the adapter that shows a reply hands it
    to a voice of :mod:`bot.words`, which says it in its reader's language
    (docs/ARCHITECTURE.md, "Where a reply becomes words")."""

    __slots__ = ("args", "id", "values")

    def __init__(self, id: str, /, *args: object, **values: object) -> None:
        self.id = id
        self.args = args
        self.values = values

    @classmethod
    def message(cls, message: str, /, **values: object) -> Said:
        """One message of the catalogue, by its id (marked ``N_`` where it is defined,
        e.g. :mod:`bot.service.messages`)."""
        return cls(MESSAGE, message, **values)

    @classmethod
    def join(cls, parts: Sequence[Said], separator: str = " ") -> Said:
        """Sentences said one after another."""
        return cls(JOIN, tuple(parts), separator)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and (self.id, self.args, self.values) == (
            other.id,
            other.args,
            other.values,
        )

    def __hash__(self) -> int:
        return hash(self.id)  # its values may be lists

    def __repr__(self) -> str:
        values = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.values.items()]
        return f"Said({', '.join([self.id, *values])})"

    __str__ = __repr__
    """What a log shows: the sentence's name and its values, in no reader's language."""


P = ParamSpec("P")


class Saying(Generic[P]):
    """A sentence of :mod:`bot.words` by its name, with the types of its values, declared
    beside the code that says it: ``NO_PUZZLE_LEFT: Saying[[Variant, Variant | None]] =
    Saying("no_puzzle_left")``. Calling it makes the :class:`Said`
    (``NO_PUZZLE_LEFT(variant, other)``), and mypy checks the values. Its words are
    registered with ``@speaks(NO_PUZZLE_LEFT)`` (:func:`bot.words.registry.speaks`): they
    take the reader, then exactly these values (docs/ARCHITECTURE.md, "Where a reply
    becomes words")."""

    __slots__ = ("id",)

    def __init__(self, id: str, /) -> None:
        self.id = id

    def __call__(self, *args: P.args, **values: P.kwargs) -> Said:
        return Said(self.id, *args, **values)


BOT_PLAYER: Saying[[str, str]] = Saying("bot_player")
"""The bot (its own name) playing at a level, as a player: how a voice writes a
:class:`~bot.service.replies.BotName`."""

MESSAGE = "message"
"""The id of a plain message: its values are the catalogue id and the placeholders."""
JOIN = "join"
"""The id of sentences said one after another: its values are the parts and the separator."""
