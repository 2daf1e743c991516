"""The service's words: actions, turns and results in sentences, and the short rules.

Pure functions of engine values and names; the service adds mentions and controls.
"""

from __future__ import annotations

from engine import Action, Color, Kind, Outcome, Phase, Position, Step, Variant
from engine.errors import summarize

STONE = {Color.WHITE: "○", Color.BLACK: "●"}


def duration(seconds: float) -> str:
    """``600`` → ``"10 minutes"``; ``86400`` → ``"24 hours"``; ``45`` → ``"45 seconds"``."""
    s = round(seconds)
    if (s >= 3_600 and s % 3_600 == 0) or s >= 7_200:
        n, unit = round(s / 3_600), "hour"
    elif (s >= 60 and s % 60 == 0) or s >= 120:
        n, unit = round(s / 60), "minute"
    else:
        n, unit = s, "second"
    return f"{n} {unit}{'s' if n != 1 else ''}"


def legal_list(legal: list[str]) -> str:
    return summarize(sorted(legal), limit=25)


def describe_action(before: Position, action: Action, after: Position, name: str, them: str) -> str:
    """One action in words: ``"Amina placed a stone on d7"``; ``them`` names the opponent."""
    v = before.variant
    names = v.points
    mover = Color(before.turn)
    if action.kind is Kind.PLACE:
        text = f"{name} placed a stone on {names[action.dst]}"
        if v.family == "shax" and before.first_jare is None and after.first_jare is mover:
            text += ", forming the first jare"
        return text
    if action.kind is Kind.REMOVE:
        if before.phase is Phase.REMOVAL:
            return f"{name} removed {them}'s stone on {names[action.dst]} (opening removal)"
        return f"{name} removed {them}'s stone on {names[action.dst]}"
    text = f"{name} moved {names[action.src]}-{names[action.dst]}"
    if before.step is Step.FREE:
        text += f" to free {them} (a freeing move is oodan: no capture)"
    elif after.step is Step.REMOVE and after.turn == before.turn and not after.outcome:
        text += ", forming a jare"
    return text


def turn_prompt(position: Position) -> str:
    """What the player to act must do: ``"place a stone (11 in hand)"``."""
    me = Color(position.turn)
    them = me.other.label
    step = position.step
    if step is Step.PLACE:
        return f"place a stone ({position.in_hand(me)} in hand)"
    if step is Step.REMOVE:
        if position.phase is Phase.REMOVAL:
            return f"the opening removal: remove one of {them}'s stones (x + point)"
        return f"you formed a jare: remove one of {them}'s stones from anywhere (x + point)"
    if step is Step.FREE:
        return (
            f"{them} is blocked — jid i sii aan jar aheyn: make a move that frees {them} "
            "(it captures nothing)"
        )
    a, b = position.variant.edges[0]
    example = f"{position.variant.points[a]}-{position.variant.points[b]}"
    return f"move a stone along a line to the next empty point (from-to, e.g. {example})"


def result_sentence(outcome: Outcome, white_name: str, black_name: str) -> str:
    """The ending with names: ``"Amina wins: Bashir has only two stones left"``."""
    return outcome.describe(white_name, black_name)


# -- rules ----------------------------------------------------------------------

_SHAX_RULES = """\
**{title}** — {pieces} stones each, {points} points. White places first.
1. **Placement.** Take turns placing one stone on any empty point until all are placed. \
A line of three (a **jare**) captures nothing yet; the game only remembers who formed the \
**first jare**.
2. **Opening removals.** The board is full. The first-jare player removes any one of the \
opponent's stones, then the other removes one (if nobody formed a jare, black removes first).
3. **Movement.** Whoever removed first moves first: one stone along a line to the next empty \
point. No flying, ever.
4. **Captures.** A move that forms a jare removes one opponent stone from **anywhere** — \
stones in a jare are not protected.
5. **Blockade — jid i sii aan jar aheyn.** If you cannot move, your opponent must move \
instead and open a way for you; that freeing move is **oodan** (closed): it never captures.
6. **End.** Down to **two** stones, you lose. You may resign.
7. **Draws.** By agreement; when neither player can move; on the third repetition of a \
position; after 100 moves without a capture.
Notation: place `d7`, move `a7-d7`, remove `xg1`. The picture shows every point's name."""

_JAR_RULES = """\
**{title}** — {pieces} stones each on the 3×3 grid. White places first.
1. Take turns placing your three stones on empty points.
2. Then take turns moving one stone to the next empty point along a line (white first).
3. The first to have **three in a row** — a row or a column, while placing or moving — wins \
at once. Nothing is captured.
4. Blockade and draws as in Shax: a blocked player's opponent must open a way \
(jid i sii aan jar aheyn); drawn by agreement, when neither can move, on the third \
repetition, or after 100 moves.
Notation: place `b2`, move `a1-a2`. The picture shows every point's name."""


def rules_text(variant: Variant) -> str:
    template = _JAR_RULES if variant.family == "jar" else _SHAX_RULES
    return template.format(title=variant.title, pieces=variant.pieces, points=variant.size)


def illegal_sentence(action: str, reason: str, legal: list[str]) -> str:
    text = f"{action} is not allowed now: {reason}."
    if legal:
        text += f" Legal now: {legal_list(legal)}."
    return text


SHOWN_INPUT = 16
"""At most this much of what a user typed is quoted back (actions are 5 characters)."""


def malformed_sentence(text: str, reason: str, legal: list[str]) -> str:
    shown = text.strip() or "(nothing)"
    if len(shown) > SHOWN_INPUT:
        shown = shown[:SHOWN_INPUT] + "…"
    out = f"I can't read {shown!r} as an action: {reason}."
    if legal:
        out += f" Legal now: {legal_list(legal)}."
    return out
