"""Challenges and the clock (expiry, warnings, forfeits)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.service.challenges import (
    ACCEPT_OWN_CHALLENGE,
    ALREADY_CHALLENGED,
    CHALLENGE_A_BOT_ACCOUNT,
    CHALLENGE_ACCEPTED,
    CHALLENGE_DECLINED,
    CHALLENGE_FOR_SOMEONE_ELSE,
    CHALLENGE_NOT_OPEN,
    CHALLENGE_SENT,
    CHALLENGE_THE_BOT,
    CHALLENGE_WITHDRAWN,
    NOTHING_TO,
    ONLY_CHALLENGER_WITHDRAWS,
    REMATCH_ALREADY_ASKED,
    UNKNOWN_FIRST,
    UNKNOWN_LEVEL,
)
from bot.service.clock import CHALLENGE_EXPIRED, CLOCK_RESUMED, TURN_WARNING
from bot.service.messages import CHALLENGE_CLOSED
from bot.service.replies import Said, User
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import duration, level_name, option_list
from bot.words.voice import Surface, Voice
from shax_i18n import N_, Translator

# -- challenges ------------------------------------------------------------------------


@speaks(CHALLENGE_THE_BOT)
def challenge_the_bot(t: Translator, levels: Sequence[str]) -> str:
    return t.gettext(
        "To play against me, use /shax play-bot (choose a level: {levels}).",
        levels=option_list(levels, level_name, t),
    )


@speaks(CHALLENGE_A_BOT_ACCOUNT)
def challenge_a_bot_account(t: Translator, name: str) -> str:
    return t.gettext(
        "{name} is a bot account and can't play Shax — challenge a person, "
        "or play me with /shax play-bot.",
        name=name,
    )


@speaks_with_voice(ALREADY_CHALLENGED)
def already_challenged(voice: Voice, name: str) -> str:
    t = voice.t
    if voice.surface is Surface.CONSOLE:
        return t.gettext(
            "You have already challenged {name} here; wait for an answer or withdraw it "
            "with /shax cancel.",
            name=name,
        )
    return t.gettext(
        "You have already challenged {name} here; wait for an answer or withdraw it with Decline.",
        name=name,
    )


@speaks_with_voice(CHALLENGE_SENT)
def challenge_sent(
    voice: Voice, opponent: User, challenger: str, variant: Said | None, expiry_seconds: float
) -> str:
    """``variant`` is the board's title; ``None`` for a rematch."""
    t, opponent_ref = voice.t, voice.player(opponent)
    title = None if variant is None else voice.say(variant)
    within = duration(expiry_seconds, t)
    if voice.surface is Surface.CONSOLE:
        if title is None:
            return t.gettext(
                "{opponent}, {challenger} challenges you to a rematch! Answer with "
                "/shax accept or /shax decline within {duration}.",
                opponent=opponent_ref,
                challenger=challenger,
                duration=within,
            )
        return t.gettext(
            "{opponent}, {challenger} challenges you to a game of {variant}! Answer with "
            "/shax accept or /shax decline within {duration}.",
            opponent=opponent_ref,
            challenger=challenger,
            variant=title,
            duration=within,
        )
    if title is None:
        return t.gettext(
            "{opponent}, {challenger} challenges you to a rematch! Accept or decline within "
            "{duration}.",
            opponent=opponent_ref,
            challenger=challenger,
            duration=within,
        )
    return t.gettext(
        "{opponent}, {challenger} challenges you to a game of {variant}! Accept or decline "
        "within {duration}.",
        opponent=opponent_ref,
        challenger=challenger,
        variant=title,
        duration=within,
    )


@speaks(ACCEPT_OWN_CHALLENGE)
def accept_own_challenge(t: Translator, opponent: str) -> str:
    return t.gettext("You can't accept your own challenge — wait for {name}.", name=opponent)


@speaks(CHALLENGE_FOR_SOMEONE_ELSE)
def challenge_for_someone_else(t: Translator, opponent: str) -> str:
    return t.gettext("This challenge is for {name}, not for you.", name=opponent)


@speaks(CHALLENGE_ACCEPTED)
def challenge_accepted(
    t: Translator, name: str, challenger: str, white: str, last_winner: bool, after_draw: bool
) -> str:
    if last_winner:
        return t.gettext(
            "{player} accepted {challenger}'s challenge. {white} won the last game and "
            "places first.",
            player=name,
            challenger=challenger,
            white=white,
        )
    if after_draw:
        return t.gettext(
            "{player} accepted {challenger}'s challenge. After the draw, {white} places first.",
            player=name,
            challenger=challenger,
            white=white,
        )
    return t.gettext(
        "{player} accepted {challenger}'s challenge.", player=name, challenger=challenger
    )


@speaks(CHALLENGE_DECLINED)
def challenge_declined(t: Translator, name: str, challenger: str) -> str:
    return t.gettext(
        "{player} declined {challenger}'s challenge.", player=name, challenger=challenger
    )


@speaks(ONLY_CHALLENGER_WITHDRAWS)
def only_challenger_withdraws(t: Translator, challenger: str) -> str:
    return t.gettext("Only {name} can withdraw this challenge.", name=challenger)


@speaks(CHALLENGE_WITHDRAWN)
def challenge_withdrawn(t: Translator, challenger: str, opponent: str) -> str:
    return t.gettext(
        "{challenger} withdrew the challenge to {opponent}.",
        challenger=challenger,
        opponent=opponent,
    )


_NOT_OPEN: Mapping[str, str] = {
    "accepted": N_("This challenge is no longer open (it was accepted)."),
    "declined": N_("This challenge is no longer open (it was declined)."),
    "cancelled": N_("This challenge is no longer open (it was cancelled)."),
    "expired": N_("This challenge is no longer open (it was expired)."),
}


@speaks(CHALLENGE_NOT_OPEN)
def challenge_not_open(t: Translator, status: str) -> str:
    return t.gettext(_NOT_OPEN.get(status, CHALLENGE_CLOSED))


@speaks(NOTHING_TO)
def nothing_to(t: Translator, verb: str) -> str:
    if verb == "accept":
        return t.gettext("No challenge is waiting for you here, so there is nothing to accept.")
    return t.gettext("No challenge is waiting for you here, so there is nothing to decline.")


@speaks(UNKNOWN_LEVEL)
def unknown_level(t: Translator, level: str, levels: Sequence[str]) -> str:
    return t.gettext(
        "Unknown level {level} — choose one of: {levels}.",
        level=repr(level),
        levels=option_list(levels, level_name, t),
    )


@speaks(UNKNOWN_FIRST)
def unknown_first(t: Translator, first: str) -> str:
    return t.gettext("first must be me, bot or random, not {first}.", first=repr(first))


@speaks(REMATCH_ALREADY_ASKED)
def rematch_already_asked(t: Translator, them: str) -> str:
    return t.gettext("You have already asked for a rematch; it's up to {name}.", name=them)


# -- the clock -------------------------------------------------------------------------


@speaks(CHALLENGE_EXPIRED)
def challenge_expired(t: Translator, challenger: str, opponent: str) -> str:
    return t.gettext(
        "{challenger}'s challenge to {opponent} expired.", challenger=challenger, opponent=opponent
    )


@speaks_with_voice(TURN_WARNING)
def turn_warning(
    voice: Voice,
    player: User,
    game_id: int,
    white_name: str,
    black_name: str,
    seconds_left: float,
    first_move: bool,
) -> str:
    """The warning before a player runs out of time: one who never moved (``first_move``)
    would have the game aborted (no result), not lost."""
    t, ref = voice.t, voice.player(player)
    if first_move:
        message = N_(
            "⏳ {player}, it's your turn in game #{game_id} ({white} vs {black}). Make your "
            "first move within {duration}, or the game is aborted."
        )
    else:
        message = N_(
            "⏳ {player}, it's your turn in game #{game_id} ({white} vs {black}). Play within "
            "{duration}, or you forfeit the game."
        )
    return t.gettext(
        message,
        player=ref,
        game_id=game_id,
        white=white_name,
        black=black_name,
        duration=duration(seconds_left, t),
    )


@speaks_with_voice(CLOCK_RESUMED)
def clock_resumed(
    voice: Voice,
    player: User,
    game_id: int,
    white_name: str,
    black_name: str,
    seconds_away: float,
    seconds_left: float,
) -> str:
    """Said once in each game whose turn was waiting while the bot was away (stopped,
    or cut off from Discord): the time away is not counted."""
    t, ref = voice.t, voice.player(player)
    return t.gettext(
        "⏳ {player}, the bot was away for {away}, and that time does not count: your "
        "turn in game #{game_id} ({white} vs {black}) starts again now. Play within "
        "{duration}.",
        player=ref,
        away=duration(seconds_away, t),
        game_id=game_id,
        white=white_name,
        black=black_name,
        duration=duration(seconds_left, t),
    )
