"""The game service: challenges, turns, draws, timeouts, streaks — with no Discord types.

Data flows one way: a command becomes a call here; the service loads the game,
asks the engine, stores the result, asks the renderer for a picture and returns
a :class:`bot.replies.Reply`. Refusals are :class:`bot.replies.UserError`.
"""

from bot.service.core import (
    ActionChooser,
    BoardRenderer,
    ReplayRenderer,
    ShaxService,
)

__all__ = ["ActionChooser", "BoardRenderer", "ReplayRenderer", "ShaxService"]
