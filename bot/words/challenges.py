"""Challenges and the clock (expiry, warnings, forfeits)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.service.messages import CHALLENGE_CLOSED
from bot.words.registry import sentence
from bot.words.terms import EN, Surface, duration, level_name, option_list
from shax_i18n import N_, Translator

# -- challenges ------------------------------------------------------------------------


@sentence
def challenge_the_bot(levels: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "To play against me, use /shax play-bot (choose a level: {levels}).",
        levels=option_list(levels, level_name, t),
    )


@sentence
def challenge_a_bot_account(name: str, t: Translator = EN) -> str:
    return t.gettext(
        "{name} is a bot account and can't play Shax — challenge a person, "
        "or play me with /shax play-bot.",
        name=name,
    )


@sentence
def already_challenged(name: str, surface: Surface, t: Translator = EN) -> str:
    if surface is Surface.CONSOLE:
        return t.gettext(
            "You have already challenged {name} here; wait for an answer or withdraw it "
            "with /shax cancel.",
            name=name,
        )
    return t.gettext(
        "You have already challenged {name} here; wait for an answer or withdraw it with Decline.",
        name=name,
    )


@sentence
def challenge_sent(
    opponent_ref: str,
    challenger: str,
    title: str | None,
    expiry_seconds: float,
    surface: Surface,
    t: Translator = EN,
) -> str:
    """``title`` is the variant's (in the reply's language); ``None`` for a rematch."""
    within = duration(expiry_seconds, t)
    if surface is Surface.CONSOLE:
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


@sentence
def accept_own_challenge(opponent: str, t: Translator = EN) -> str:
    return t.gettext("You can't accept your own challenge — wait for {name}.", name=opponent)


@sentence
def challenge_for_someone_else(opponent: str, t: Translator = EN) -> str:
    return t.gettext("This challenge is for {name}, not for you.", name=opponent)


@sentence
def challenge_accepted(
    name: str,
    challenger: str,
    white: str,
    *,
    last_winner: bool,
    after_draw: bool,
    t: Translator = EN,
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


@sentence
def challenge_declined(name: str, challenger: str, t: Translator = EN) -> str:
    return t.gettext(
        "{player} declined {challenger}'s challenge.", player=name, challenger=challenger
    )


@sentence
def only_challenger_withdraws(challenger: str, t: Translator = EN) -> str:
    return t.gettext("Only {name} can withdraw this challenge.", name=challenger)


@sentence
def challenge_withdrawn(challenger: str, opponent: str, t: Translator = EN) -> str:
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


@sentence
def challenge_not_open(status: str, t: Translator = EN) -> str:
    return t.gettext(_NOT_OPEN.get(status, CHALLENGE_CLOSED))


@sentence
def nothing_to(verb: str, t: Translator = EN) -> str:
    if verb == "accept":
        return t.gettext("No challenge is waiting for you here, so there is nothing to accept.")
    return t.gettext("No challenge is waiting for you here, so there is nothing to decline.")


@sentence
def unknown_level(level: str, levels: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Unknown level {level} — choose one of: {levels}.",
        level=repr(level),
        levels=option_list(levels, level_name, t),
    )


@sentence
def unknown_first(first: str, t: Translator = EN) -> str:
    return t.gettext("first must be me, bot or random, not {first}.", first=repr(first))


@sentence
def rematch_already_asked(them: str, t: Translator = EN) -> str:
    return t.gettext("You have already asked for a rematch; it's up to {name}.", name=them)


# -- the clock -------------------------------------------------------------------------


@sentence
def challenge_expired(challenger: str, opponent: str, t: Translator = EN) -> str:
    return t.gettext(
        "{challenger}'s challenge to {opponent} expired.", challenger=challenger, opponent=opponent
    )


@sentence
def turn_warning(
    ref: str,
    game_id: int,
    white_name: str,
    black_name: str,
    seconds_left: float,
    first_move: bool,
    t: Translator = EN,
) -> str:
    """The warning before a player runs out of time: one who never moved (``first_move``)
    would have the game aborted (no result), not lost."""
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


@sentence
def clock_resumed(
    ref: str,
    game_id: int,
    white_name: str,
    black_name: str,
    seconds_away: float,
    seconds_left: float,
    t: Translator = EN,
) -> str:
    """Said once in each game whose turn was waiting while the bot was away (stopped,
    or cut off from Discord): the time away is not counted."""
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
