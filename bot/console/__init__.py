"""The local console: the same service in a terminal, with no Discord token.

* :mod:`bot.console.session` — reading commands, showing replies (``python -m bot local``).
* :mod:`bot.console.textboard` — the board in box-drawing characters.
"""

from bot.console.session import local_user, run_console
from bot.console.textboard import text_board

__all__ = ["local_user", "run_console", "text_board"]
