"""Worker processes: the AI's searches, the pictures and the tables, off the event loop.

* :mod:`bot.workers.processes` — :class:`WorkerProcesses`, the one pool plumbing both
  use: forkserver start, niceness, warm-up, ending with the bot, replacing a dead pool.
* :mod:`bot.workers.ai` — :class:`AIPool`: the bot's moves, at the lowest priority.
* :mod:`bot.workers.pictures` — :class:`PicturePool`: boards and replays.
* :mod:`bot.workers.tables` — the endgame tables and full-board values master lacks,
  built in the background at the first start.
"""
