"""Pictures of a Shax game: PNG bytes of a board, an animated replay of a record.

Plain data in, bytes out; imports the engine and Pillow, never discord. The
static board is drawn once per (variant, theme, flip, scale) and cached; each
picture composes stones and marks on a copy, so every function here is
thread-safe and deterministic (same input, same bytes).
"""

from renderer.board import BoardView, render_board, render_position, warm_up
from renderer.layout import board_geometry
from renderer.plot import PLOT_FILENAME, render_evaluation
from renderer.rating import RATING_FILENAME, render_rating_history
from renderer.replay import REPLAY_FILENAME, REPLAY_SCALE, render_replay
from renderer.text import status_text
from renderer.theme import THEME_ALIASES, THEME_NAMES, THEMES, Theme, get_theme

__all__ = [
    "PLOT_FILENAME",
    "RATING_FILENAME",
    "REPLAY_FILENAME",
    "REPLAY_SCALE",
    "THEMES",
    "THEME_ALIASES",
    "THEME_NAMES",
    "BoardView",
    "Theme",
    "board_geometry",
    "get_theme",
    "render_board",
    "render_evaluation",
    "render_position",
    "render_rating_history",
    "render_replay",
    "status_text",
    "warm_up",
]
