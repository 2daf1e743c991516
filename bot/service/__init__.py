"""The game service: challenges, turns, the clock, streaks — with no Discord types.

Data flows one way: a command becomes a call on :class:`bot.service.facade.ShaxService`;
the service loads the game, asks the engine, stores the result, asks the renderer for
a picture and returns a :class:`bot.service.replies.Reply`. Refusals are
:class:`bot.service.replies.UserError`. The parts are listed in :mod:`bot.service.facade`.
"""
