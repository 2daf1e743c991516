"""Discord's markdown as terminal text: bold and italic as ANSI styles, or plain.

The service writes its replies for Discord (``**bold**``, ``*italic*``, ```code```);
the console shows them styled when standard output is a terminal and as plain words
otherwise (a pipe, a file, or ``NO_COLOR`` set), never with the markers.
"""

from __future__ import annotations

import os
import re
from typing import TextIO

BOLD, ITALIC, RESET = "\x1b[1m", "\x1b[3m", "\x1b[0m"

_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_ITALIC_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=\S)(.+?)(?<=\S)_(?!\w)")


def terminal_text(text: str, *, ansi: bool) -> str:
    """``text`` without Discord's markers: styled with ANSI codes when ``ansi``."""

    def styled(style: str) -> str:
        return rf"{style}\1{RESET}" if ansi else r"\1"

    text = _CODE.sub(styled(BOLD), text)
    text = _BOLD.sub(styled(BOLD), text)
    text = _ITALIC_STAR.sub(styled(ITALIC), text)
    return _ITALIC_UNDERSCORE.sub(styled(ITALIC), text)


def wants_ansi(stream: TextIO) -> bool:
    """Styles for a terminal, unless ``NO_COLOR`` is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")
