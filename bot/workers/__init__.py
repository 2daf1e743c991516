"""Worker processes: the AI's searches and the pictures, off the event loop.

* :mod:`bot.workers.processes` — :class:`WorkerProcesses`, the one pool plumbing both
  use: forkserver start, niceness, warm-up, ending with the bot, replacing a dead pool.
* :mod:`bot.workers.ai` — :class:`AIPool`: the bot's moves, at the lowest priority.
* :mod:`bot.workers.pictures` — :class:`PicturePool`: boards and replays.
"""
