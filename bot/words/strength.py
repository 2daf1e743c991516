"""How strong ``master`` is now: at full strength, or growing as the background build
lands its endgame tables (:func:`bot.workers.tables.master_strength`)."""

from __future__ import annotations

from bot.words.terms import duration
from shax_i18n import N_, Translator

FULL = N_("Master plays at full strength: every endgame table it uses is built.")
GROWING = N_(
    "Master gets stronger as its endgame tables are built in the background: full strength "
    "after about {time} of processor time."
)
LACKING = N_(
    "Master plays without some of its endgame tables: python -m engine.tables build builds "
    "them (python -m engine.tables missing lists them)."
)


def strength_words(seconds_left: float, building: bool, t: Translator) -> str:
    """Whether master is at full strength: nothing left to build, ``seconds_left`` of
    processor time being built in the background, or missing with no build running."""
    if seconds_left <= 0:
        return t.gettext(FULL)
    if building:
        return t.gettext(GROWING, time=duration(max(60.0, round(seconds_left / 60) * 60), t))
    return t.gettext(LACKING)
