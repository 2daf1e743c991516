"""``python3 -m bot.config > .env.example``."""

import sys

from bot.config.example import env_example

sys.stdout.write(env_example())
