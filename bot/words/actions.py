"""Actions in words, and refusing an illegal one."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.bot_turns import ACTION_LINE
from bot.service.replies import Said
from bot.service.shown import DESCRIBE_ACTION
from bot.service.turns import ILLEGAL, MALFORMED, REFUSED
from bot.words.boards import examples, point_names
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import color_name, legal_list, outcome_headline, outcome_reason
from bot.words.voice import Voice
from engine import (
    Action,
    Color,
    Kind,
    Outcome,
    Phase,
    Position,
    Refusal,
    Step,
    Variant,
)
from engine.moments import Moment, irmaan_appeared, moments_after
from shax_i18n import N_, Translator

# -- actions ----------------------------------------------------------------------------


@speaks(DESCRIBE_ACTION)
def describe_action(
    t: Translator, before: Position, action: Action, after: Position, name: str, them: str
) -> str:
    """One action in words: ``"Amina placed a stone on d7"``; ``them`` names the opponent."""
    v = before.variant
    names = v.points
    mover = Color(before.turn)
    point = names[action.dst]
    if action.kind is Kind.PLACE:
        if before.first_jare is None and after.first_jare is mover:
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


def moment_sentence(moment: Moment, name: str, them: str, t: Translator) -> str:
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
    before: Position, action: Action, after: Position, name: str, them: str, t: Translator
) -> list[str]:
    """The action in words, then the moments it made that the move line names: the
    player's own, then an irmaan it gave the opponent (by moving the only blocker away,
    or by the opening removal that begins the movement)."""
    found = moments_after(before, action, after)
    events = [describe_action(t, before, action, after, name, them)] + [
        moment_sentence(m, name, them, t) for m in ANNOUNCED if m in found
    ]
    if Color(before.turn).other in irmaan_appeared(before, after):
        events.append(moment_sentence(Moment.IRMAAN, them, name, t))
    return events


@speaks(ACTION_LINE)
def action_line(
    t: Translator, before: Position, action: Action, after: Position, name: str, them: str
) -> str:
    """One action and its moments in one line (:func:`action_events`, joined)."""
    return "; ".join(action_events(before, action, after, name, them, t))


def turn_prompt(position: Position, t: Translator) -> str:
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


@speaks_with_voice(ILLEGAL)
def illegal_sentence(voice: Voice, action: str, refused: Said, legal: list[str]) -> str:
    """``refused`` is the rule that refuses it (:func:`illegal_reason`)."""
    t, reason = voice.t, voice.say(refused)
    if legal:
        return t.gettext(
            "{action} is not allowed now: {reason}. Legal now: {legal}.",
            action=action,
            reason=reason,
            legal=legal_list(legal, t),
        )
    return t.gettext("{action} is not allowed now: {reason}.", action=action, reason=reason)


@speaks(REFUSED)
def illegal_reason(t: Translator, refusal: Refusal, params: Mapping[str, object]) -> str:
    """The rule that refuses an action (the engine's :class:`~engine.Refusal`), in the
    reply's language, with the colours, points and the game's end it is about."""
    words = {key: _value_words(value, t) for key, value in params.items()}
    return t.gettext(REFUSALS[refusal], **words)


def _value_words(value: object, t: Translator) -> str:
    if isinstance(value, Color):
        return color_name(value, t)
    if isinstance(value, Outcome):
        headline, reason = outcome_headline(value, t), outcome_reason(value, t=t)
        return t.gettext("{headline}: {reason}", headline=headline, reason=reason)
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    return str(value)


REFUSALS: dict[Refusal, str] = {
    Refusal.GAME_OVER: N_("the game is over ({outcome})"),
    Refusal.STILL_PLACING: N_(
        "stones are still being placed: {player} places a stone on an empty point"
    ),
    Refusal.POINT_TAKEN: N_("{point} is already taken; place on an empty point"),
    Refusal.OPENING_REMOVAL_DUE: N_(
        "the opening removal: {player} must first remove one of {opponent}'s stones (x + its point)"
    ),
    Refusal.JARE_REMOVAL_DUE: N_(
        "{player} formed a jare: {player} must first remove one of {opponent}'s stones "
        "(x + its point)"
    ),
    Refusal.OWN_STONE: N_("{point} is {player}'s own stone; remove one of {opponent}'s"),
    Refusal.NOTHING_TO_REMOVE: N_("{point} is empty; remove one of {opponent}'s stones"),
    Refusal.ALL_PLACED: N_(
        "all stones are placed: {player} moves a stone to an adjacent empty point (from-to)"
    ),
    Refusal.NO_REMOVAL_DUE: N_(
        "no removal is due: {player} moves a stone to an adjacent empty point (from-to)"
    ),
    Refusal.OPPONENTS_STONE: N_(
        "{point} is {opponent}'s stone; {player} moves one of {player}'s own stones"
    ),
    Refusal.NOTHING_TO_MOVE: N_("{point} is empty; {player} moves one of {player}'s own stones"),
    Refusal.NOT_ADJACENT: N_("{src} and {dst} are not adjacent (next to {src}: {near})"),
    Refusal.OCCUPIED: N_("{point} is occupied"),
    Refusal.MUST_FREE: N_(
        "{opponent} is blocked (jid i sii aan jar aheyn): {player} must make a move "
        "that frees {opponent}"
    ),
    Refusal.NOT_ALLOWED: N_("that move is not allowed now"),
}
"""The rules' refusals (the engine's :class:`~engine.Refusal`), as players read them."""


SHOWN_INPUT = 16
"""At most this much of what a user typed is quoted back (actions are 5 characters)."""


@speaks(MALFORMED)
def malformed_sentence(t: Translator, text: str, variant: Variant, legal: list[str]) -> str:
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


def notation_phrase(variant: Variant, t: Translator) -> str:
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
