"""The bot's cogs, one per feature: the ``/shax`` commands and the notices loop."""
