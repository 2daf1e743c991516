"""Everything that talks: configuration, storage, the game service, the Discord adapter
(``bot.discord``) and the local console. ``python -m bot`` runs the bot."""
