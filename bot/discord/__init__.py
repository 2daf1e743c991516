"""The Discord adapter: slash commands, persistent components and notices over the service.

Thin by design: each interaction becomes one :class:`bot.service.facade.ShaxService` call
and each :class:`bot.service.replies.Reply` one Discord message (:mod:`bot.discord.render`),
placed and acknowledged by :mod:`bot.discord.respond`.

* :func:`run` — ``python -m bot``: endpoints, logging, service, bot, clean shutdown.
* :func:`sync` — register the slash commands globally, on demand.
* :class:`ShaxBot` / :func:`create_bot` — the bot with injected dependencies (tests
  build one with ``ShaxBot(service=..., settings=...)``).
"""

from bot.discord.app import ShardedShaxBot, ShaxBot, ShaxBotBase, create_bot
from bot.discord.runner import run, serve, sync, use_endpoints

__all__ = [
    "ShardedShaxBot",
    "ShaxBot",
    "ShaxBotBase",
    "create_bot",
    "run",
    "serve",
    "sync",
    "use_endpoints",
]
