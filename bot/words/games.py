"""Finding and checking games, the live board and turns."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.bot_turns import BOT_GAME_INTRO
from bot.service.compose import (
    CHOICE_DESCRIPTION,
    CHOOSE_PLACEHOLDER,
    DRAW_OFFERED,
    EVENTS,
    GOOD_GAME,
    RESULT_LINE,
    RULES_CAPTION,
    SERIES_HOLDER,
    STONE_DESTINATIONS,
    THINKING,
    YOUR_TURN,
)
from bot.service.kernel import (
    CHANNEL_BUSY,
    GAME_OVER,
    NOT_YOUR_GAME,
    NOT_YOUR_TURN,
    STALE,
    UNKNOWN_VARIANT,
)
from bot.service.replies import Said, Saying, User
from bot.service.turns import (
    BOT_DECLINES_DRAWS,
    DRAW_ALREADY_OFFERED,
    DRAW_DECLINED,
    DRAW_OFFER_INTRO,
    NO_MOVABLE_STONE,
    WHERE_TO,
)
from bot.words.actions import turn_prompt
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import STONE, color_name, result_sentence, variant_title
from bot.words.voice import Surface, Voice
from engine import (
    VARIANT_IDS,
    Color,
    Kind,
    Outcome,
    Position,
    Step,
    Variant,
)
from shax_i18n import Translator

# -- games: finding and checking --------------------------------------------------


@speaks_with_voice(STALE)
def stale(voice: Voice) -> str:
    """The game changed since the board that was acted on."""
    t = voice.t
    if voice.surface is Surface.CONSOLE:
        return t.gettext("The game changed meanwhile — see it as it is now with /shax board.")
    return t.gettext("This board is out of date — use the latest board below (or /shax board).")


@speaks(UNKNOWN_VARIANT)
def unknown_variant(t: Translator, variant: str) -> str:
    return t.gettext(
        "Unknown variant {variant} — choose one of: {variants}.",
        variant=repr(variant),
        variants=", ".join(VARIANT_IDS),
    )


@speaks(NOT_YOUR_GAME)
def not_your_game(t: Translator, white_name: str, black_name: str) -> str:
    return t.gettext(
        "This is {white} and {black}'s game — only they can play it. "
        "Start your own with /shax challenge or /shax play-bot.",
        white=white_name,
        black=black_name,
    )


@speaks_with_voice(GAME_OVER)
def game_over(voice: Voice, game_id: int) -> str:
    t = voice.t
    if voice.surface is Surface.CONSOLE:
        return t.gettext(
            "Game #{game_id} is over. Start a new one with /shax rematch, /shax challenge "
            "or /shax play-bot.",
            game_id=game_id,
        )
    return t.gettext(
        "Game #{game_id} is over. Start a new one with Rematch, /shax challenge or /shax play-bot.",
        game_id=game_id,
    )


@speaks(NOT_YOUR_TURN)
def not_your_turn(t: Translator, them: str, them_is_bot: bool) -> str:
    if them_is_bot:
        return t.gettext("{name} is thinking — wait for its move.", name=them)
    return t.gettext("It's {name}'s turn — wait for their move.", name=them)


@speaks_with_voice(CHANNEL_BUSY)
def channel_busy(voice: Voice, in_thread: bool, game: tuple[int, str, str] | None) -> str:
    """``game`` is the game being played: (id, white's name, black's name), if known."""
    t = voice.t
    if voice.surface is Surface.CONSOLE:
        if game:
            return t.gettext(
                "A game is already being played here (game #{game_id}: {white} vs {black}). "
                "Finish it (or /shax resign) first, or start another console with --channel N "
                "to play a second game.",
                game_id=game[0],
                white=game[1],
                black=game[2],
            )
        return t.gettext(
            "A game is already being played here. Finish it (or /shax resign) first, or start "
            "another console with --channel N to play a second game."
        )
    if in_thread:
        if game:
            return t.gettext(
                "A game is already being played in this thread (game #{game_id}: {white} vs "
                "{black}). Start a new thread from the channel and play there — each thread "
                "holds its own game.",
                game_id=game[0],
                white=game[1],
                black=game[2],
            )
        return t.gettext(
            "A game is already being played in this thread. Start a new thread from the "
            "channel and play there — each thread holds its own game."
        )
    if game:
        return t.gettext(
            "A game is already being played in this channel (game #{game_id}: {white} vs "
            "{black}). Open a thread here and start your game there — each thread holds its "
            "own game.",
            game_id=game[0],
            white=game[1],
            black=game[2],
        )
    return t.gettext(
        "A game is already being played in this channel. Open a thread here and start your "
        "game there — each thread holds its own game."
    )


# -- the live board ------------------------------------------------------------------


@speaks_with_voice(EVENTS)
def events_sentence(voice: Voice, events: Sequence[Said]) -> str:
    """The actions since the last board, each a sentence of its own."""
    return "; ".join(voice.say(event) for event in events) + "."


@speaks(RESULT_LINE)
def result_line(t: Translator, outcome: Outcome, white_name: str, black_name: str) -> str:
    return f"**{result_sentence(outcome, white_name, black_name, t)}.**"


def result_elsewhere(result: str, channel: str, t: Translator) -> str:
    """The result (:func:`result_line`) announced outside the game's own channel, pointing
    to it (``channel`` as the surface writes a channel)."""
    return t.gettext("{result} (the game: {channel})", result=result, channel=channel)


@speaks(SERIES_HOLDER)
def series_holder(t: Translator, name: str, stones: int) -> str:
    return t.ngettext(
        "{player} holds {n} stone in this series.",
        "{player} holds {n} stones in this series.",
        stones,
        player=name,
    )


@speaks_with_voice(GOOD_GAME)
def good_game(voice: Voice, players: Sequence[User]) -> str:
    t, refs = voice.t, [voice.player(player) for player in players]
    if len(refs) == 1:
        return t.gettext("Good game, {player}!", player=refs[0])
    if len(refs) == 2:
        return t.gettext("Good game, {player} and {opponent}!", player=refs[0], opponent=refs[1])
    return t.gettext("Good game!")


@speaks(THINKING)
def thinking(t: Translator, bot_name: str) -> str:
    return t.gettext("{name} is thinking…", name=bot_name)


@speaks_with_voice(YOUR_TURN)
def your_turn(voice: Voice, player: User, color: Color, position: Position) -> str:
    t, ref = voice.t, voice.player(player)
    return t.gettext(
        "{player} — your turn ({color} {stone}): {prompt}.",
        player=ref,
        color=color_name(color, t),
        stone=STONE[color],
        prompt=turn_prompt(position, t),
    )


@speaks(DRAW_OFFERED)
def draw_offered(t: Translator, name: str) -> str:
    return t.gettext("{name} offers a draw.", name=name)


@speaks(CHOICE_DESCRIPTION)
def choice_description(t: Translator, kind: Kind) -> str:
    if kind is Kind.PLACE:
        return t.gettext("place a stone here")
    if kind is Kind.REMOVE:
        return t.gettext("remove this stone")
    return t.gettext("move this stone")


@speaks(STONE_DESTINATIONS)
def stone_destinations(t: Translator, points: Sequence[str]) -> str:
    return t.gettext("to {points}", points=", ".join(points))


@speaks(CHOOSE_PLACEHOLDER)
def choose_placeholder(t: Translator, step: Step) -> str:
    if step is Step.PLACE:
        return t.gettext("Choose a point to place on")
    if step is Step.REMOVE:
        return t.gettext("Choose a stone to remove")
    return t.gettext("Choose a move")


@speaks(RULES_CAPTION)
def rules_caption(t: Translator, variant: Variant) -> str:
    return t.gettext(
        "{variant}: each point is named by its file letter and rank number",
        variant=variant_title(t, variant),
    )


# -- turns -----------------------------------------------------------------------------


@speaks_with_voice(BOT_GAME_INTRO)
def bot_game_intro(voice: Voice, user_name: str, bot_name: str, variant: Said) -> str:
    """``variant`` is the variant's title (:func:`~bot.words.terms.variant_title`)."""
    t, title = voice.t, voice.say(variant)
    return t.gettext("{player} vs {bot}, {variant}.", player=user_name, bot=bot_name, variant=title)


@speaks(BOT_DECLINES_DRAWS)
def bot_declines_draws(t: Translator, bot_name: str) -> str:
    return t.gettext(
        "{name} doesn't accept draws — play on, or resign with /shax resign.", name=bot_name
    )


@speaks(DRAW_ALREADY_OFFERED)
def draw_already_offered(t: Translator, them: str) -> str:
    return t.gettext("You have already offered a draw; it's up to {name}.", name=them)


@speaks_with_voice(DRAW_OFFER_INTRO)
def draw_offer_intro(voice: Voice, name: str, them: User) -> str:
    t, them_ref = voice.t, voice.player(them)
    if voice.surface is Surface.CONSOLE:
        return t.gettext(
            "{player} offers a draw. {opponent}: accept it with /shax draw, decline it with "
            "/shax decline-draw, or just play on.",
            player=name,
            opponent=them_ref,
        )
    return t.gettext(
        "{player} offers a draw. {opponent}: accept it with Accept draw (or /shax draw), "
        "decline it, or just play on.",
        player=name,
        opponent=them_ref,
    )


@speaks(DRAW_DECLINED)
def draw_declined(t: Translator, name: str, withdrawn: bool) -> str:
    if withdrawn:
        return t.gettext("{player} withdrew the draw offer.", player=name)
    return t.gettext("{player} declined the draw.", player=name)


@speaks(NO_MOVABLE_STONE)
def no_movable_stone(t: Translator, src: str) -> str:
    return t.gettext("no stone of yours on {point} can move now", point=src)


@speaks(WHERE_TO)
def where_to(t: Translator, src: str, moves: Sequence[str]) -> str:
    return t.gettext(
        "Where should the stone on {point} go? {moves}.", point=src, moves=", ".join(moves)
    )


PLAYED: Saying[[str]] = Saying("played")
"""The receipt that closes the destination picker (said by the Discord adapter)."""


@speaks(PLAYED)
def played(t: Translator, action: str) -> str:
    """The receipt that closes the destination picker."""
    return t.gettext("You played **{action}**.", action=action)
