"""Every sentence the service says: actions, turns, results, refusals, streaks.

Pure functions of engine values and names (mentions come in already written); the
service parts choose which sentence to say, this module how it reads, in the language
of the reply: every function takes the reply's :class:`~shax_i18n.Translator` as ``t``
(English when none is given), and every sentence is one whole message of the catalogue
(``shax_i18n``) with named placeholders — never glued from translated pieces.
:mod:`bot.service.speech` says which translator a reply uses (the player's for what only
they see, the server's for what the channel sees).

Two things make a sentence fit where it is read. The few sentences that name a control
take the :class:`Surface` the service speaks on: Discord has buttons (Decline, Rematch,
Accept draw) and threads, the console has commands (``/shax cancel``, ``/shax rematch``).
Every example of notation comes from the variant in play (:mod:`bot.service.board_words`,
where the rules are too), so that no message on the 3×3 jar board suggests ``d7`` or a
removal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from bot.service.board_words import examples, point_names
from bot.service.streaks import GABAD, GAL, Tally
from engine import (
    VARIANT_IDS,
    Action,
    Color,
    Kind,
    Outcome,
    Phase,
    Position,
    Step,
    Termination,
    Variant,
)
from engine.moments import Moment, moments_after
from shax_i18n import N_, Translator, translator

EN = translator("en")
"""English: the language of a sentence asked for without a translator (tests, logs)."""

STONE = {Color.WHITE: "○", Color.BLACK: "●"}


class Surface(Enum):
    """Where the service's words are shown, for the sentences that name its controls."""

    DISCORD = "discord"
    """Buttons under the messages (Accept, Decline, Rematch, Accept draw) and threads."""
    CONSOLE = "console"
    """Typed commands only (``/shax accept``, ``/shax cancel``, ``/shax rematch``)."""


# -- the game's own words ---------------------------------------------------------------


def color_name(color: Color, t: Translator = EN) -> str:
    """``"white"`` / ``"black"``: a colour as a word in a sentence."""
    return t.pgettext("color", "white") if color is Color.WHITE else t.pgettext("color", "black")


def variant_title(variant: Variant, t: Translator = EN) -> str:
    """The variant's title (``"Shax (small board)"``) in the reply's language."""
    if variant.id == "shax":
        return t.pgettext("variant", "Shax")
    if variant.id == "shax-small":
        return t.pgettext("variant", "Shax (small board)")
    if variant.id == "jar":
        return t.pgettext("variant", "Jar (children's game)")
    return variant.title


def level_name(level: str, t: Translator = EN) -> str:
    """A bot level as a word (``"hard"``); an unknown one as it is."""
    if level == "easy":
        return t.pgettext("level", "easy")
    if level == "medium":
        return t.pgettext("level", "medium")
    if level == "hard":
        return t.pgettext("level", "hard")
    if level == "master":
        return t.pgettext("level", "master")
    return level


def duration(seconds: float, t: Translator = EN) -> str:
    """``600`` → ``"10 minutes"``; ``86400`` → ``"24 hours"``; ``45`` → ``"45 seconds"``."""
    s = round(seconds)
    if (s >= 3_600 and s % 3_600 == 0) or s >= 7_200:
        return t.ngettext("{n} hour", "{n} hours", round(s / 3_600))
    if (s >= 60 and s % 60 == 0) or s >= 120:
        return t.ngettext("{n} minute", "{n} minutes", round(s / 60))
    return t.ngettext("{n} second", "{n} seconds", s)


LEGAL_LIMIT = 25


def legal_list(legal: list[str], t: Translator = EN) -> str:
    """The legal actions, the first :data:`LEGAL_LIMIT` of them and how many in all."""
    shown = sorted(legal)
    text = ", ".join(shown[:LEGAL_LIMIT])
    if len(shown) <= LEGAL_LIMIT:
        return text or "none"
    return t.gettext("{actions}, … ({n} in all)", actions=text, n=len(shown))


# -- outcomes ---------------------------------------------------------------------------

_REASONS: Mapping[Termination, str] = {
    Termination.TWO_PIECES: N_("{loser} has only two stones left"),
    Termination.THREE_IN_A_ROW: N_("three in a row"),
    Termination.RESIGNATION: N_("{loser} resigned"),
    Termination.TIMEOUT: N_("{loser} ran out of time"),
    Termination.MUTUAL_BLOCKADE: N_("neither player can move"),
    Termination.THREEFOLD_REPETITION: N_("the same position occurred three times"),
    Termination.MOVE_LIMIT: N_("100 moves without a capture"),
    Termination.AGREEMENT: N_("both players agreed"),
}


def outcome_headline(outcome: Outcome, t: Translator = EN) -> str:
    """``"White wins"``, ``"Black wins"`` or ``"Draw"``."""
    if outcome.winner is Color.WHITE:
        return t.gettext("White wins")
    if outcome.winner is Color.BLACK:
        return t.gettext("Black wins")
    return t.gettext("Draw")


def outcome_reason(
    outcome: Outcome, white: str | None = None, black: str | None = None, t: Translator = EN
) -> str:
    """Why the game ended, naming the loser (by colour when no names are given)."""
    white = color_name(Color.WHITE, t) if white is None else white
    black = color_name(Color.BLACK, t) if black is None else black
    loser = black if outcome.winner is Color.WHITE else white
    return t.gettext(_REASONS[outcome.termination], loser=loser)


def result_sentence(outcome: Outcome, white_name: str, black_name: str, t: Translator = EN) -> str:
    """The ending with names: ``"Amina wins: Bashir has only two stones left"``."""
    reason = outcome_reason(outcome, white_name, black_name, t)
    if outcome.winner is None:
        return t.gettext("Draw: {reason}", reason=reason)
    winner = white_name if outcome.winner is Color.WHITE else black_name
    return t.gettext("{winner} wins: {reason}", winner=winner, reason=reason)


# -- actions ----------------------------------------------------------------------------


def describe_action(
    before: Position, action: Action, after: Position, name: str, them: str, t: Translator = EN
) -> str:
    """One action in words: ``"Amina placed a stone on d7"``; ``them`` names the opponent."""
    v = before.variant
    names = v.points
    mover = Color(before.turn)
    point = names[action.dst]
    if action.kind is Kind.PLACE:
        if v.family == "shax" and before.first_jare is None and after.first_jare is mover:
            return t.gettext(
                "{player} placed a stone on {point}, forming the first jare",
                player=name,
                point=point,
            )
        return t.gettext("{player} placed a stone on {point}", player=name, point=point)
    if action.kind is Kind.REMOVE:
        if before.phase is Phase.REMOVAL:
            return t.gettext(
                "{player} removed {opponent}'s stone on {point} (opening removal)",
                player=name,
                opponent=them,
                point=point,
            )
        return t.gettext(
            "{player} removed {opponent}'s stone on {point}",
            player=name,
            opponent=them,
            point=point,
        )
    move = f"{names[action.src]}-{point}"
    if before.step is Step.FREE:
        return t.gettext(
            "{player} moved {move} to free {opponent} (a freeing move is oodan: no capture)",
            player=name,
            move=move,
            opponent=them,
        )
    if after.step is Step.REMOVE and after.turn == before.turn and not after.outcome:
        return t.gettext("{player} moved {move}, forming a jare", player=name, move=move)
    return t.gettext("{player} moved {move}", player=name, move=move)


ANNOUNCED = (Moment.LABA_QAAD, Moment.IRMAAN)
"""The moments the move line names; the blockade (haarig) and oodan already have their
own sentences (the turn prompt, the freeing move)."""


def moment_sentence(moment: Moment, name: str, them: str, t: Translator = EN) -> str:
    """A named moment in words, for the move line: ``"Irmaan! Amina can shunt…"``."""
    if moment is Moment.IRMAAN:
        return t.gettext(
            "Irmaan! {player} can shunt a stone and form a jare on every move", player=name
        )
    if moment is Moment.LABA_QAAD:
        return t.gettext("Laba-qaad! {player} completed two jare at once", player=name)
    if moment is Moment.HAARIG:
        return t.gettext("Haarig! {opponent} cannot move: jid i sii aan jar aheyn", opponent=them)
    return t.gettext("Oodan: the freeing move formed a jare, but it captures nothing")


def action_events(
    before: Position, action: Action, after: Position, name: str, them: str, t: Translator = EN
) -> list[str]:
    """The action in words, then the moments it made that the move line names."""
    found = moments_after(before, action, after)
    return [describe_action(before, action, after, name, them, t)] + [
        moment_sentence(m, name, them, t) for m in ANNOUNCED if m in found
    ]


def turn_prompt(position: Position, t: Translator = EN) -> str:
    """What the player to act must do: ``"place a stone (11 in hand)"``."""
    me = Color(position.turn)
    them = color_name(me.other, t)
    step = position.step
    if step is Step.PLACE:
        return t.gettext("place a stone ({n} in hand)", n=position.in_hand(me))
    if step is Step.REMOVE:
        if position.phase is Phase.REMOVAL:
            return t.gettext(
                "the opening removal: remove one of {opponent}'s stones (x + point)", opponent=them
            )
        return t.gettext(
            "you formed a jare: remove one of {opponent}'s stones from anywhere (x + point)",
            opponent=them,
        )
    if step is Step.FREE:
        return t.gettext(
            "{opponent} is blocked — jid i sii aan jar aheyn: make a move that frees "
            "{opponent} (it captures nothing)",
            opponent=them,
        )
    return t.gettext(
        "move a stone along a line to the next empty point (from-to, e.g. {example})",
        example=examples(position.variant).move,
    )


# -- refusing an action ----------------------------------------------------------------


def illegal_sentence(action: str, reason: str, legal: list[str], t: Translator = EN) -> str:
    """``reason`` is already in the reply's language (:func:`illegal_reason`)."""
    if legal:
        return t.gettext(
            "{action} is not allowed now: {reason}. Legal now: {legal}.",
            action=action,
            reason=reason,
            legal=legal_list(legal, t),
        )
    return t.gettext("{action} is not allowed now: {reason}.", action=action, reason=reason)


def illegal_reason(template: str, params: Mapping[str, str], t: Translator = EN) -> str:
    """The engine's reason for refusing an action, in the reply's language: its message
    (one of the engine's, in the catalogue) with the colours in it put into words."""
    words = {
        key: color_name(Color.WHITE if value == "white" else Color.BLACK, t)
        if value in ("white", "black")
        else value
        for key, value in params.items()
    }
    return t.gettext(template, **words)


# The engine's reasons (engine/position.py), for the catalogue: the engine speaks
# English; these are its messages, translated where they are shown.
ENGINE_REASONS = (
    N_("the game is over ({outcome})"),
    N_("stones are still being placed: {player} places a stone on an empty point"),
    N_("{point} is already taken; place on an empty point"),
    N_(
        "the opening removal: {player} must first remove one of {opponent}'s stones (x + its point)"
    ),
    N_(
        "{player} formed a jare: {player} must first remove one of {opponent}'s stones "
        "(x + its point)"
    ),
    N_("{point} is {player}'s own stone; remove one of {opponent}'s"),
    N_("{point} is empty; remove one of {opponent}'s stones"),
    N_("all stones are placed: {player} moves a stone to an adjacent empty point (from-to)"),
    N_("no removal is due: {player} moves a stone to an adjacent empty point (from-to)"),
    N_("{point} is {opponent}'s stone; {player} moves one of {player}'s own stones"),
    N_("{point} is empty; {player} moves one of {player}'s own stones"),
    N_("{src} and {dst} are not adjacent (next to {src}: {near})"),
    N_("{point} is occupied"),
    N_(
        "{opponent} is blocked (jid i sii aan jar aheyn): {player} must make a move "
        "that frees {opponent}"
    ),
    N_("that move is not allowed now"),
)


SHOWN_INPUT = 16
"""At most this much of what a user typed is quoted back (actions are 5 characters)."""


def malformed_sentence(text: str, variant: Variant, legal: list[str], t: Translator = EN) -> str:
    """Text that is not an action on this board: the point it names that the board lacks,
    or else how actions are written here (the engine's reason stays on the exception)."""
    shown = text.strip() or t.gettext("(nothing)")
    if len(shown) > SHOWN_INPUT:
        shown = shown[:SHOWN_INPUT] + "…"
    missing = _unknown_point(text, variant)
    if missing is not None:
        reason = t.gettext(
            "{name} is not a point on the {variant} board; its points are {points}",
            name=repr(missing),
            variant=variant.id,
            points=point_names(variant),
        )
    else:
        reason = notation_phrase(variant, t)
    if legal:
        return t.gettext(
            "I can't read {text} as an action: {reason}. Legal now: {legal}.",
            text=repr(shown),
            reason=reason,
            legal=legal_list(legal, t),
        )
    return t.gettext("I can't read {text} as an action: {reason}.", text=repr(shown), reason=reason)


def notation_phrase(variant: Variant, t: Translator = EN) -> str:
    """How actions are written on this board: ``"write a point (b2) or a move from-to (a1-a2)"``."""
    ex = examples(variant)
    if ex.remove is None:
        return t.gettext(
            "write a point ({place}) or a move from-to ({move})", place=ex.place, move=ex.move
        )
    return t.gettext(
        "write a point ({place}), a move from-to ({move}) or a removal ({remove})",
        place=ex.place,
        move=ex.move,
        remove=ex.remove,
    )


def _unknown_point(text: str, variant: Variant) -> str | None:
    """The first name in ``text`` written like a point (letter, number) that this board
    does not have: ``"d7"`` on the jar board; ``None`` if there is none."""
    body = text.strip().lower().removeprefix("x")
    for name in body.split("-")[:2]:
        looks_like_a_point = 2 <= len(name) <= 3 and name[0].isalpha() and name[1:].isdigit()
        if looks_like_a_point and name not in variant.index:
            return name
    return None


# -- games: finding and checking --------------------------------------------------


def stale(surface: Surface, t: Translator = EN) -> str:
    """The game changed since the board that was acted on."""
    if surface is Surface.CONSOLE:
        return t.gettext("The game changed meanwhile — see it as it is now with /shax board.")
    return t.gettext("This board is out of date — use the latest board below (or /shax board).")


NO_GAME_HERE = N_(
    "There is no game in this channel. Start one with /shax challenge "
    "opponent:@someone or /shax play-bot."
)
GAME_GONE = N_("That game doesn't exist any more.")


def unknown_variant(variant: str, t: Translator = EN) -> str:
    return t.gettext(
        "Unknown variant {variant} — choose one of: {variants}.",
        variant=repr(variant),
        variants=", ".join(VARIANT_IDS),
    )


def not_your_game(white_name: str, black_name: str, t: Translator = EN) -> str:
    return t.gettext(
        "This is {white} and {black}'s game — only they can play it. "
        "Start your own with /shax challenge or /shax play-bot.",
        white=white_name,
        black=black_name,
    )


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


def not_your_turn(them: str, them_is_bot: bool, t: Translator = EN) -> str:
    if them_is_bot:
        return t.gettext("{name} is thinking — wait for its move.", name=them)
    return t.gettext("It's {name}'s turn — wait for their move.", name=them)


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

CHOOSE_STONE = N_("Choose a stone to move")


def events_sentence(events: Sequence[str]) -> str:
    """The actions since the last board, each already a sentence of the catalogue."""
    return "; ".join(events) + "."


def result_line(outcome: Outcome, white_name: str, black_name: str, t: Translator = EN) -> str:
    return f"**{result_sentence(outcome, white_name, black_name, t)}.**"


def result_elsewhere(
    outcome: Outcome, white_name: str, black_name: str, channel_id: int, t: Translator = EN
) -> str:
    """The result announced outside the game's own channel, pointing to it."""
    return t.gettext(
        "{result} (the game: {channel})",
        result=result_line(outcome, white_name, black_name, t),
        channel=f"<#{channel_id}>",
    )


def series_holder(name: str, stones: int, t: Translator = EN) -> str:
    return t.ngettext(
        "{player} holds {n} stone in this series.",
        "{player} holds {n} stones in this series.",
        stones,
        player=name,
    )


def good_game(refs: Sequence[str], t: Translator = EN) -> str:
    if len(refs) == 1:
        return t.gettext("Good game, {player}!", player=refs[0])
    if len(refs) == 2:
        return t.gettext("Good game, {player} and {opponent}!", player=refs[0], opponent=refs[1])
    return t.gettext("Good game!")


def thinking(bot_name: str, t: Translator = EN) -> str:
    return t.gettext("{name} is thinking…", name=bot_name)


def your_turn(ref: str, color: Color, position: Position, t: Translator = EN) -> str:
    return t.gettext(
        "{player} — your turn ({color} {stone}): {prompt}.",
        player=ref,
        color=color_name(color, t),
        stone=STONE[color],
        prompt=turn_prompt(position, t),
    )


def draw_offered(name: str, t: Translator = EN) -> str:
    return t.gettext("{name} offers a draw.", name=name)


def choice_description(kind: Kind, t: Translator = EN) -> str:
    if kind is Kind.PLACE:
        return t.gettext("place a stone here")
    if kind is Kind.REMOVE:
        return t.gettext("remove this stone")
    return t.gettext("move this stone")


def stone_destinations(points: Sequence[str], t: Translator = EN) -> str:
    return t.gettext("to {points}", points=", ".join(points))


def choose_placeholder(step: Step, t: Translator = EN) -> str:
    if step is Step.PLACE:
        return t.gettext("Choose a point to place on")
    if step is Step.REMOVE:
        return t.gettext("Choose a stone to remove")
    return t.gettext("Choose a move")


def rules_caption(variant: Variant, t: Translator = EN) -> str:
    return t.gettext(
        "{variant}: each point is named by its file letter and rank number",
        variant=variant_title(variant, t),
    )


# -- turns -----------------------------------------------------------------------------

NO_DRAW_OFFER = N_("There is no draw offer to decline.")


def bot_game_intro(user_name: str, bot_name: str, title: str, t: Translator = EN) -> str:
    """``title`` is the variant's title, already in the reply's language."""
    return t.gettext("{player} vs {bot}, {variant}.", player=user_name, bot=bot_name, variant=title)


def bot_declines_draws(bot_name: str, t: Translator = EN) -> str:
    return t.gettext(
        "{name} doesn't accept draws — play on, or resign with /shax resign.", name=bot_name
    )


def draw_already_offered(them: str, t: Translator = EN) -> str:
    return t.gettext("You have already offered a draw; it's up to {name}.", name=them)


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


def draw_declined(name: str, *, withdrawn: bool, t: Translator = EN) -> str:
    if withdrawn:
        return t.gettext("{player} withdrew the draw offer.", player=name)
    return t.gettext("{player} declined the draw.", player=name)


def no_movable_stone(src: str, t: Translator = EN) -> str:
    return t.gettext("no stone of yours on {point} can move now", point=src)


def where_to(src: str, moves: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Where should the stone on {point} go? {moves}.", point=src, moves=", ".join(moves)
    )


# -- challenges ------------------------------------------------------------------------

CHALLENGE_YOURSELF = N_(
    "You can't challenge yourself — challenge someone else, or play me with /shax play-bot."
)
CHALLENGE_EXPIRED = N_("This challenge has expired — send a new one with /shax challenge.")
CHALLENGE_CLOSED = N_("This challenge is no longer open.")
CHALLENGE_GONE = N_("That challenge doesn't exist any more.")
NO_OPEN_CHALLENGE = N_("You have no open challenge here.")
BOT_ACCOUNTS_CANT_PLAY = N_("Bot accounts can't play Shax.")
STILL_PLAYING = N_("This game is still being played — finish it first.")


def challenge_the_bot(levels: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "To play against me, use /shax play-bot (choose a level: {levels}).",
        levels=", ".join(levels),
    )


def challenge_a_bot_account(name: str, t: Translator = EN) -> str:
    return t.gettext(
        "{name} is a bot account and can't play Shax — challenge a person, "
        "or play me with /shax play-bot.",
        name=name,
    )


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


def accept_own_challenge(opponent: str, t: Translator = EN) -> str:
    return t.gettext("You can't accept your own challenge — wait for {name}.", name=opponent)


def challenge_for_someone_else(opponent: str, t: Translator = EN) -> str:
    return t.gettext("This challenge is for {name}, not for you.", name=opponent)


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


def challenge_declined(name: str, challenger: str, t: Translator = EN) -> str:
    return t.gettext(
        "{player} declined {challenger}'s challenge.", player=name, challenger=challenger
    )


def only_challenger_withdraws(challenger: str, t: Translator = EN) -> str:
    return t.gettext("Only {name} can withdraw this challenge.", name=challenger)


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


def challenge_not_open(status: str, t: Translator = EN) -> str:
    return t.gettext(_NOT_OPEN.get(status, CHALLENGE_CLOSED))


def nothing_to(verb: str, t: Translator = EN) -> str:
    if verb == "accept":
        return t.gettext("No challenge is waiting for you here, so there is nothing to accept.")
    return t.gettext("No challenge is waiting for you here, so there is nothing to decline.")


def unknown_level(level: str, levels: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Unknown level {level} — choose one of: {levels}.",
        level=repr(level),
        levels=", ".join(levels),
    )


def unknown_first(first: str, t: Translator = EN) -> str:
    return t.gettext("first must be me, bot or random, not {first}.", first=repr(first))


def rematch_already_asked(them: str, t: Translator = EN) -> str:
    return t.gettext("You have already asked for a rematch; it's up to {name}.", name=them)


# -- the clock -------------------------------------------------------------------------


def challenge_expired(challenger: str, opponent: str, t: Translator = EN) -> str:
    return t.gettext(
        "{challenger}'s challenge to {opponent} expired.", challenger=challenger, opponent=opponent
    )


def timeout_warning(
    ref: str,
    game_id: int,
    white_name: str,
    black_name: str,
    seconds_left: float,
    t: Translator = EN,
) -> str:
    return t.gettext(
        "⏳ {player}, it's your turn in game #{game_id} ({white} vs {black}). Play within "
        "{duration}, or you forfeit the game.",
        player=ref,
        game_id=game_id,
        white=white_name,
        black=black_name,
        duration=duration(seconds_left, t),
    )


# -- streaks ---------------------------------------------------------------------------


def streak_phrase(streak: int, t: Translator = EN) -> str:
    """How a winning streak sounds: ``"3 in a row — one more for a gal"``."""
    if streak <= 0:
        return t.gettext("no wins in a row yet")
    if streak < GAL:
        more = GAL - streak
        if more == 1:
            return t.gettext("{n} in a row — one more for a gal", n=streak)
        if more == 2:
            return t.gettext("{n} in a row — two more for a gal", n=streak)
        return t.gettext("{n} in a row — three more for a gal", n=streak)
    if streak == GAL:
        return t.gettext("{n} in a row: a gal!", n=streak)
    if streak == GABAD:
        return t.gettext("{n} in a row: a gabad!", n=streak)
    return t.gettext("{n} in a row — past a gabad!", n=streak)


def change_text(
    winner_name: str | None,
    winner_after: Tally | None,
    loser_name: str | None,
    loser_before: Tally | None,
    t: Translator = EN,
) -> str:
    """The streak line under a result; ``winner_name=None`` for a draw.

    A missing tally (the bot's side) is left out.
    """
    if winner_name is None:
        return t.gettext("A draw breaks nobody's streak.")
    parts = []
    if winner_after is not None:
        parts.append(
            t.gettext(
                "{player}: {streak}.",
                player=winner_name,
                streak=streak_phrase(winner_after.streak, t),
            )
        )
    if loser_before is not None and loser_before.streak > 0:
        parts.append(
            t.gettext("{player}'s run of {n} ends.", player=loser_name, n=loser_before.streak)
        )
    return " ".join(parts)


def _badges(tally: Tally, t: Translator) -> str:
    extra = t.gettext(" · gal ×{n}", n=tally.gal) if tally.gal else ""
    return extra + (t.gettext(" · gabad ×{n}", n=tally.gabad) if tally.gabad else "")


def tally_line(tally: Tally, t: Translator = EN) -> str:
    now = streak_phrase(tally.streak, t) if tally.streak else t.gettext("no current streak")
    return t.gettext(
        "{wins} won, {losses} lost, {draws} drawn — {streak}; best {best} in a row",
        wins=tally.wins,
        losses=tally.losses,
        draws=tally.draws,
        streak=now,
        best=tally.best,
    ) + _badges(tally, t)


def no_games_yet(name: str, t: Translator = EN) -> str:
    return t.gettext("{player} hasn't finished a game here yet.", player=name)


def streaks_heading(name: str, t: Translator = EN) -> str:
    return t.gettext("**{player}** — streaks on this server", player=name)


def against_people(tally: Tally, t: Translator = EN) -> str:
    return t.gettext("Against people: {tally}", tally=tally_line(tally, t))


def against_bot(level: str, tally: Tally, t: Translator = EN) -> str:
    return t.gettext(
        "Against the {level} bot: {tally}", level=level_name(level, t), tally=tally_line(tally, t)
    )


def bot_record_heading(name: str, t: Translator = EN) -> str:
    return t.gettext("**{player}** — its games on this server", player=name)


def bot_record_line(level: str, won: int, lost: int, drawn: int, t: Translator = EN) -> str:
    return t.gettext(
        "As the {level} bot: {won} won, {lost} lost, {drawn} drawn",
        level=level_name(level, t),
        won=won,
        lost=lost,
        drawn=drawn,
    )


def bot_no_games_yet(name: str, t: Translator = EN) -> str:
    return t.gettext(
        "{player} hasn't finished a game here yet: challenge it with /shax play-bot.",
        player=name,
    )


def leaderboard(
    current: Sequence[tuple[str, Tally]], best: Sequence[tuple[str, Tally]], t: Translator = EN
) -> str:
    lines = [
        t.gettext(
            "**Leaderboard** — streaks against people (games against the bot show in /shax streak)"
        )
    ]
    if not best:
        lines.append(t.gettext("Nobody has won a game against a person here yet."))
        return "\n".join(lines)
    lines.append(t.gettext("Current streaks:"))
    lines += [
        t.gettext("{rank}. {player} — {n} in a row", rank=i, player=name, n=tally.streak)
        for i, (name, tally) in enumerate(current, 1)
    ] or [t.gettext("(no running streaks)")]
    lines.append(t.gettext("All-time best:"))
    lines += [
        t.gettext("{rank}. {player} — {n} in a row", rank=i, player=name, n=tally.best)
        + _badges(tally, t)
        for i, (name, tally) in enumerate(best, 1)
    ]
    return "\n".join(lines)


# -- the language -----------------------------------------------------------------------


def language_set(language: str, t: Translator = EN) -> str:
    """The answer to ``/shax language``, in the language just chosen."""
    from shax_i18n import LANGUAGES

    return t.gettext(
        "Language: {language}. Choose another with /shax language.", language=LANGUAGES[language]
    )


def language_reset(language: str, t: Translator = EN) -> str:
    from shax_i18n import LANGUAGES

    return t.gettext(
        "Language: {language}, as your Discord app or the server says. Choose one with "
        "/shax language.",
        language=LANGUAGES[language],
    )


def unknown_language(language: str, t: Translator = EN) -> str:
    from shax_i18n import LANGUAGES

    return t.gettext(
        "Unknown language {language} — choose one of: {languages}.",
        language=repr(language),
        languages=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items()),
    )


# -- the teacher: hints and reviews ----------------------------------------------------


def line_words(points: Sequence[str]) -> str:
    """A line or a pair of points as players write them: ``"a4 b4 c4"``."""
    return " ".join(points)


REASONS = {
    "wins": N_("it wins the game"),
    "laba_qaad": N_("it makes two jare at once, a laba-qaad ({points})"),
    "first_jare": N_("it makes the first jare ({points}), so you remove first"),
    "closes_jare": N_("it closes a jare on {points}: one of their stones comes off"),
    "only_action": N_("it is the only legal action"),
    "takes_irmaan": N_("it breaks their irmaan ({points})"),
    "takes_threat": N_("it takes a stone from their line {points} before they close it"),
    "stops_jare": N_("it stops their jare on {points}"),
    "haarig": N_("it leaves them no move (hārig)"),
    "makes_irmaan": N_("it builds an irmaan: the stone between {points} closes a jare every move"),
    "frees_safely": N_("it frees them without giving an irmaan or a jare"),
    "threatens_jare": N_("it threatens a jare on {points}"),
}
"""Why an action is good, by :class:`engine.explain.Reason` value."""
BALANCED = N_("it keeps the position best balanced")


def reason_words(reason: str, points: Sequence[str], t: Translator = EN) -> str:
    """Why an action is good, from an :class:`engine.explain.Reason` value and its points."""
    return t.gettext(REASONS.get(reason, BALANCED), points=line_words(points))


def hint_line(action: str, why: str, used: int, limit: int, t: Translator = EN) -> str:
    return t.gettext(
        "Hint {used} of {limit}: **{action}** — {why}.",
        used=used,
        limit=limit,
        action=action,
        why=why,
    )


HINTS_ONLY_AGAINST_THE_BOT = N_(
    "Hints are only for games against the bot — a game between people is theirs alone."
)


def no_hints_left(limit: int, t: Translator = EN) -> str:
    return t.gettext(
        "You have used all {limit} hints of this game — the rest is yours to find.", limit=limit
    )


def hints_used(used: int, limit: int, t: Translator = EN) -> str:
    return t.gettext("Hints used: {used} of {limit}.", used=used, limit=limit)


REVIEWING = N_("Reviewing the game…")
NOTHING_TO_REVIEW = N_("There is no finished game here to review yet — play one first.")
EMPTY_GAME = N_("That game ended before its first action: there is nothing to review.")
REVIEW_WHEN_OVER = N_("This game is still being played — the review comes when it is over.")


def review_heading(white: str, black: str, actions: int, t: Translator = EN) -> str:
    return t.gettext(
        "**Review of {white} vs {black}** ({actions} actions): the curve shows who stood "
        "better after each action — above the line {white}, below it {black}.",
        white=white,
        black=black,
        actions=actions,
    )


def loss_words(loss: int, gave_away_win: bool, walked_into_loss: bool, t: Translator = EN) -> str:
    """What an action lost, in stones (100 centi-stones) or in the game's result."""
    if gave_away_win:
        return t.gettext("let a won game go")
    if walked_into_loss:
        return t.gettext("walked into a lost game")
    return t.gettext("lost {stones} stones", stones=f"{loss / 100:.1f}")


def turning_point(
    number: int,
    action_number: int,
    name: str,
    played: str,
    lost: str,
    best: str,
    why: str,
    t: Translator = EN,
) -> str:
    return t.gettext(
        "{number}. Action {action}: {name} played **{played}** and {lost}; "
        "better **{best}** — {why}.",
        number=number,
        action=action_number,
        name=name,
        played=played,
        lost=lost,
        best=best,
        why=why,
    )


def turning_point_caption(
    number: int, action_number: int, played: str, best: str, t: Translator = EN
) -> str:
    return t.gettext(
        "{number}. Action {action}: better {best} than {played}",
        number=number,
        action=action_number,
        best=best,
        played=played,
    )


NO_TURNING_POINTS = N_(
    "No turning points: no action lost more than a quarter of a stone. Well played!"
)


def series_stones(name: str, stones: int, t: Translator = EN) -> str:
    """The series stones on the picture, explained: whose, how many, what comes next."""
    if stones < GAL:
        return t.ngettext(
            "Series stones: {name}, {n} win in a row; {more} more for a gal.",
            "Series stones: {name}, {n} wins in a row; {more} more for a gal.",
            stones,
            name=name,
            more=GAL - stones,
        )
    if stones < GABAD:
        return t.gettext(
            "Series stones: {name}, {n} wins in a row (a gal); one more for a gabad.",
            name=name,
            n=stones,
        )
    return t.gettext("Series stones: {name}, {n} wins in a row (a gabad).", name=name, n=stones)


def theme_chosen(theme: str, t: Translator = EN) -> str:
    # Translators: The answer to /shax theme; {theme} is dark or light (the command's
    # values, kept as is).
    return t.gettext("Your boards are now drawn in the {theme} theme.", theme=theme)


def theme_current(theme: str, themes: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Your boards are drawn in the {theme} theme; choose with /shax theme: {themes}.",
        theme=theme,
        themes=", ".join(themes),
    )


def unknown_theme(theme: str, themes: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "Unknown theme {theme} — choose one of: {themes}.",
        theme=repr(theme),
        themes=", ".join(themes),
    )
