"""The plain messages the service says, by their catalogue ids.

A message id is the English sentence (gettext's ids are the source language's), marked
``N_`` for Babel; the adapter that shows a :class:`~bot.service.replies.Said` looks it
up in the reader's language (:mod:`bot.words`). The sentences built from values are
named in :mod:`bot.words` instead.
"""

from __future__ import annotations

from shax_i18n.codes import N_

# -- finding and checking games, turns -----------------------------------------

NO_GAME_HERE = N_(
    "There is no game in this channel. Start one with /shax challenge "
    "opponent:@someone or /shax play-bot."
)
GAME_GONE = N_("That game doesn't exist any more.")
CHOOSE_STONE = N_("Choose a stone to move")
NO_DRAW_OFFER = N_("There is no draw offer to decline.")

# -- challenges ----------------------------------------------------------------

CHALLENGE_YOURSELF = N_(
    "You can't challenge yourself — challenge someone else, or play me with /shax play-bot."
)
CHALLENGE_EXPIRED = N_("This challenge has expired — send a new one with /shax challenge.")
CHALLENGE_CLOSED = N_("This challenge is no longer open.")
CHALLENGE_GONE = N_("That challenge doesn't exist any more.")
NO_OPEN_CHALLENGE = N_("You have no open challenge here.")
BOT_ACCOUNTS_CANT_PLAY = N_("Bot accounts can't play Shax.")
STILL_PLAYING = N_("This game is still being played — finish it first.")

# -- hints and reviews ---------------------------------------------------------

HINTS_ONLY_AGAINST_THE_BOT = N_(
    "Hints are only for games against the bot — a game between people is theirs alone."
)
NOTHING_TO_REVIEW = N_("There is no finished game here to review yet — play one first.")
EMPTY_GAME = N_("That game ended before its first action: there is nothing to review.")
REVIEW_WHEN_OVER = N_("This game is still being played — the review comes when it is over.")
NO_TURNING_POINTS = N_(
    "No turning points: no action lost more than a quarter of a stone. Well played!"
)

# -- server settings -----------------------------------------------------------

ONLY_ON_A_SERVER = N_("Settings belong to a server: use `/shax settings` in one of its channels.")
ONLY_MANAGERS = N_(
    "Only members with the **Manage Server** permission can change the settings. "
    "`/shax settings` with no options shows them to everyone."
)

CHANNELS_ON_SERVERS = N_(
    "Game channels belong to a server; outside one, games may start in every channel."
)
PUZZLE_ON_SERVERS = N_(
    "The puzzle of the day belongs to a server: choose its channel with `/shax settings` "
    "in one of the server's channels."
)

# -- puzzles -------------------------------------------------------------------

ANSWERED_ALREADY = N_(
    "That moment of your puzzle is answered already: answer under its newest message."
)
ANOTHER_OPEN = N_(
    "You have another puzzle open: `/shax puzzle` shows it. Solve it or give it up first."
)
NO_PUZZLE_OPEN = N_("You have no puzzle open: `/shax puzzle` gives you one.")
NOT_YOUR_PUZZLE = N_("This puzzle is someone else's: `/shax puzzle` gives you one of your own.")
ANSWER_PLACEHOLDER = N_("Your answer")
NO_DAILY = N_("This puzzle of the day is no longer here: `/shax puzzle` gives you one.")
UNRATED = N_("You had tried this puzzle before, so it is not rated this time.")
