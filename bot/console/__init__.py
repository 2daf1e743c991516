"""The local console: the same service in a terminal, with no Discord token.

* :mod:`bot.console.run` — starting it and its read loop (``python -m bot local``).
* :mod:`bot.console.session` — reading commands, showing replies.
* :mod:`bot.console.textboard` — the board in box-drawing characters.
"""

from bot.console.run import run_console
from bot.console.session import local_user
from bot.console.textboard import text_board

__all__ = ["local_user", "run_console", "text_board"]
