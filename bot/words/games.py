"""Finding and checking games, the live board and turns."""

from __future__ import annotations

from collections.abc import Sequence

from bot.words.actions import turn_prompt
from bot.words.registry import sentence
from bot.words.terms import EN, STONE, Surface, color_name, result_sentence, variant_title
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


@sentence
def stale(surface: Surface, t: Translator = EN) -> str:
    """The game changed since the board that was acted on."""
    if surface is Surface.CONSOLE:
        return t.gettext("The game changed meanwhile — see it as it is now with /shax board.")
    return t.gettext("This board is out of date — use the latest board below (or /shax board).")


@sentence
def unknown_variant(variant: str, t: Translator = EN) -> str:
    return t.gettext(
        "Unknown variant {variant} — choose one of: {variants}.",
        variant=repr(variant),
        variants=", ".join(VARIANT_IDS),
    )


@sentence
def not_your_game(white_name: str, black_name: str, t: Translator = EN) -> str:
    return t.gettext(
        "This is {white} and {black}'s game — only they can play it. "
        "Start your own with /shax challenge or /shax play-bot.",
        white=white_name,
        black=black_name,
    )


@sentence
def game_over(game_id: int, surface: Surface, t: Translator = EN) -> str:
    if surface is Surface.CONSOLE:
        return t.gettext(
            "Game #{game_id} is over. Start a new one with /shax rematch, /shax challenge "
            "or /shax play-bot.",
            game_id=game_id,
        )
    return t.gettext(
        "Game #{game_id} is over. Start a new one with Rematch, /shax challenge or /shax play-bot.",
        game_id=game_id,
    )


@sentence
def not_your_turn(them: str, them_is_bot: bool, t: Translator = EN) -> str:
    if them_is_bot:
        return t.gettext("{name} is thinking — wait for its move.", name=them)
    return t.gettext("It's {name}'s turn — wait for their move.", name=them)


@sentence
def channel_busy(
    in_thread: bool, game: tuple[int, str, str] | None, surface: Surface, t: Translator = EN
) -> str:
    """``game`` is the game being played: (id, white's name, black's name), if known."""
    if surface is Surface.CONSOLE:
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


@sentence
def events_sentence(events: Sequence[str]) -> str:
    """The actions since the last board, each already a sentence of the catalogue."""
    return "; ".join(events) + "."


@sentence
def result_line(outcome: Outcome, white_name: str, black_name: str, t: Translator = EN) -> str:
    return f"**{result_sentence(outcome, white_name, black_name, t)}.**"


def result_elsewhere(result: str, channel: str, t: Translator = EN) -> str:
    """The result (:func:`result_line`) announced outside the game's own channel, pointing
    to it (``channel`` as the surface writes a channel)."""
    return t.gettext("{result} (the game: {channel})", result=result, channel=channel)


@sentence
def series_holder(name: str, stones: int, t: Translator = EN) -> str:
    return t.ngettext(
        "{player} holds {n} stone in this series.",
        "{player} holds {n} stones in this series.",
        stones,
        player=name,
    )


@sentence
def good_game(refs: Sequence[str], t: Translator = EN) -> str:
    if len(refs) == 1:
        return t.gettext("Good game, {player}!", player=refs[0])
    if len(refs) == 2:
        return t.gettext("Good game, {player} and {opponent}!", player=refs[0], opponent=refs[1])
    return t.gettext("Good game!")


@sentence
def thinking(bot_name: str, t: Translator = EN) -> str:
    return t.gettext("{name} is thinking…", name=bot_name)


@sentence
def your_turn(ref: str, color: Color, position: Position, t: Translator = EN) -> str:
    return t.gettext(
        "{player} — your turn ({color} {stone}): {prompt}.",
        player=ref,
        color=color_name(color, t),
        stone=STONE[color],
        prompt=turn_prompt(position, t),
    )


@sentence
def draw_offered(name: str, t: Translator = EN) -> str:
    return t.gettext("{name} offers a draw.", name=name)


@sentence
def choice_description(kind: Kind, t: Translator = EN) -> str:
    if kind is Kind.PLACE:
        return t.gettext("place a stone here")
    if kind is Kind.REMOVE:
        return t.gettext("remove this stone")
    return t.gettext("move this stone")


@sentence
def stone_destinations(points: Sequence[str], t: Translator = EN) -> str:
    return t.gettext("to {points}", points=", ".join(points))


@sentence
def choose_placeholder(step: Step, t: Translator = EN) -> str:
    if step is Step.PLACE:
        return t.gettext("Choose a point to place on")
    if step is Step.REMOVE:
        return t.gettext("Choose a stone to remove")
    return t.gettext("Choose a move")


@sentence
def rules_caption(variant: Variant, t: Translator = EN) -> str:
    return t.gettext(
        "{variant}: each point is named by its file letter and rank number",
        variant=variant_title(variant, t),
    )


# -- turns -----------------------------------------------------------------------------


@sentence
def bot_game_intro(user_name: str, bot_name: str, title: str, t: Translator = EN) -> str:
    """``title`` is the variant's title, already in the reply's language."""
    return t.gettext("{player} vs {bot}, {variant}.", player=user_name, bot=bot_name, variant=title)


@sentence
def bot_declines_draws(bot_name: str, t: Translator = EN) -> str:
    return t.gettext(
        "{name} doesn't accept draws — play on, or resign with /shax resign.", name=bot_name
    )


@sentence
def draw_already_offered(them: str, t: Translator = EN) -> str:
    return t.gettext("You have already offered a draw; it's up to {name}.", name=them)


@sentence
def draw_offer_intro(name: str, them_ref: str, surface: Surface, t: Translator = EN) -> str:
    if surface is Surface.CONSOLE:
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


@sentence
def draw_declined(name: str, *, withdrawn: bool, t: Translator = EN) -> str:
    if withdrawn:
        return t.gettext("{player} withdrew the draw offer.", player=name)
    return t.gettext("{player} declined the draw.", player=name)


@sentence
def no_movable_stone(src: str, t: Translator = EN) -> str:
    return t.gettext("no stone of yours on {point} can move now", point=src)


@sentence
def where_to(src: str, moves: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Where should the stone on {point} go? {moves}.", point=src, moves=", ".join(moves)
    )


@sentence
def played(action: str, t: Translator = EN) -> str:
    """The receipt that closes the destination picker."""
    return t.gettext("You played **{action}**.", action=action)
