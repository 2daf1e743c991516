"""Every setting, declared once: its name, type, default, range and one line of doc.

:func:`load_settings` reads them from the environment and from ``.env`` alike (the
environment wins; an empty value means the default). A bad value stops start-up with one
sentence naming the setting, the value (never a secret's) and what is allowed
(:class:`ConfigError`); a bad ``.env`` line names the file and the line; an unknown
``SHAX_*`` name is warned about with the nearest real one. The token and the database
URL (it may hold a password) are never in a message, a repr or a log line.

The engine reads its own settings (``SHAX_TABLES_DIR``, ``SHAX_AI_BACKEND``) from the
process environment; :func:`load_settings` puts the values it read from ``.env`` there,
so that the engine, in this process and in every worker process, uses them too.
``.env.example`` is :func:`env_example`: ``python3 -m bot.config > .env.example``.
"""

from bot.config.declared import (
    DEFAULT_API_BASE_URL,
    DEFAULT_GATEWAY_URL,
    DEFAULTS,
    Settings,
)
from bot.config.example import env_example
from bot.config.fields import allowed
from bot.config.loading import (
    ConfigError,
    load_settings,
    names,
)

__all__ = [
    "DEFAULTS",
    "DEFAULT_API_BASE_URL",
    "DEFAULT_GATEWAY_URL",
    "ConfigError",
    "Settings",
    "allowed",
    "env_example",
    "load_settings",
    "names",
]
