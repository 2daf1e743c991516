"""Every sentence the service says: actions, turns, results, refusals, streaks.

Pure functions of engine values and names (mentions come in already written); the
service parts choose which sentence to say, this module how it reads.

Two things make a sentence fit where it is read. The few sentences that name a control
take the :class:`Surface` the service speaks on: Discord has buttons (Decline, Rematch,
Accept draw) and threads, the console has commands (``/shax cancel``, ``/shax rematch``).
Every example of notation comes from the variant in play (:mod:`bot.service.board_words`,
where the rules are too), so that no message on the 3×3 jar board suggests ``d7`` or a
removal.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from bot.service.board_words import examples, point_names
from bot.service.streaks import GABAD, GAL, Tally
from engine import VARIANT_IDS, Action, Color, Kind, Outcome, Phase, Position, Step, Variant
from engine.errors import summarize

STONE = {Color.WHITE: "○", Color.BLACK: "●"}


class Surface(Enum):
    """Where the service's words are shown, for the sentences that name its controls."""

    DISCORD = "discord"
    """Buttons under the messages (Accept, Decline, Rematch, Accept draw) and threads."""
    CONSOLE = "console"
    """Typed commands only (``/shax accept``, ``/shax cancel``, ``/shax rematch``)."""


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
    example = examples(position.variant).move
    return f"move a stone along a line to the next empty point (from-to, e.g. {example})"


def result_sentence(outcome: Outcome, white_name: str, black_name: str) -> str:
    """The ending with names: ``"Amina wins: Bashir has only two stones left"``."""
    return outcome.describe(white_name, black_name)


def illegal_sentence(action: str, reason: str, legal: list[str]) -> str:
    text = f"{action} is not allowed now: {reason}."
    if legal:
        text += f" Legal now: {legal_list(legal)}."
    return text


SHOWN_INPUT = 16
"""At most this much of what a user typed is quoted back (actions are 5 characters)."""


def malformed_sentence(text: str, variant: Variant, legal: list[str]) -> str:
    """Text that is not an action on this board: the point it names that the board lacks,
    or else how actions are written here (the engine's reason stays on the exception)."""
    shown = text.strip() or "(nothing)"
    if len(shown) > SHOWN_INPUT:
        shown = shown[:SHOWN_INPUT] + "…"
    missing = _unknown_point(text, variant)
    if missing is not None:
        out = (
            f"I can't read {shown!r} as an action: {missing!r} is not a point on the "
            f"{variant.id} board; its points are {point_names(variant)}."
        )
    else:
        out = f"I can't read {shown!r} as an action: write {examples(variant).phrase()}."
    if legal:
        out += f" Legal now: {legal_list(legal)}."
    return out


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


def stale(surface: Surface) -> str:
    """The game changed since the board that was acted on."""
    if surface is Surface.CONSOLE:
        return "The game changed meanwhile — see it as it is now with /shax board."
    return "This board is out of date — use the latest board below (or /shax board)."


NO_GAME_HERE = (
    "There is no game in this channel. Start one with /shax challenge "
    "opponent:@someone or /shax play-bot."
)
GAME_GONE = "That game doesn't exist any more."


def unknown_variant(variant: str) -> str:
    return f"Unknown variant {variant!r} — choose one of: {', '.join(VARIANT_IDS)}."


def not_your_game(white_name: str, black_name: str) -> str:
    return (
        f"This is {white_name} and {black_name}'s game — only they can play it. "
        "Start your own with /shax challenge or /shax play-bot."
    )


def game_over(game_id: int, surface: Surface) -> str:
    rematch = "/shax rematch" if surface is Surface.CONSOLE else "Rematch"
    return (
        f"Game #{game_id} is over. Start a new one with {rematch}, /shax challenge "
        "or /shax play-bot."
    )


def not_your_turn(them: str, them_is_bot: bool) -> str:
    if them_is_bot:
        return f"{them} is thinking — wait for its move."
    return f"It's {them}'s turn — wait for their move."


def channel_busy(in_thread: bool, game: tuple[int, str, str] | None, surface: Surface) -> str:
    """``game`` is the game being played: (id, white's name, black's name), if known."""
    which = f" (game #{game[0]}: {game[1]} vs {game[2]})" if game else ""
    if surface is Surface.CONSOLE:
        return (
            f"A game is already being played here{which}. Finish it (or /shax resign) "
            "first, or start another console with --channel N to play a second game."
        )
    if in_thread:
        return (
            f"A game is already being played in this thread{which}. Start a new thread "
            "from the channel and play there — each thread holds its own game."
        )
    return (
        f"A game is already being played in this channel{which}. Open a thread here "
        "and start your game there — each thread holds its own game."
    )


# -- the live board ------------------------------------------------------------------

CHOOSE_STONE = "Choose a stone to move"


def events_sentence(events: Sequence[str]) -> str:
    return "; ".join(events) + "."


def result_line(outcome: Outcome, white_name: str, black_name: str) -> str:
    return f"**{result_sentence(outcome, white_name, black_name)}.**"


def result_elsewhere(outcome: Outcome, white_name: str, black_name: str, channel_id: int) -> str:
    """The result announced outside the game's own channel, pointing to it."""
    return f"{result_line(outcome, white_name, black_name)} (the game: <#{channel_id}>)"


def series_holder(name: str, stones: int) -> str:
    return f"{name} holds {stones} stone{'s' if stones != 1 else ''} in this series."


def good_game(refs: Sequence[str]) -> str:
    return "Good game, " + " and ".join(refs) + "!"


def thinking(bot_name: str) -> str:
    return f"{bot_name} is thinking…"


def your_turn(ref: str, color: Color, position: Position) -> str:
    return f"{ref} — your turn ({color.label} {STONE[color]}): {turn_prompt(position)}."


def draw_offered(name: str) -> str:
    return f"{name} offers a draw."


def choice_description(kind: Kind) -> str:
    return {Kind.PLACE: "place a stone here", Kind.REMOVE: "remove this stone"}.get(
        kind, "move this stone"
    )


def stone_destinations(points: Sequence[str]) -> str:
    return "to " + ", ".join(points)


def choose_placeholder(step: Step) -> str:
    return {
        Step.PLACE: "Choose a point to place on",
        Step.REMOVE: "Choose a stone to remove",
    }.get(step, "Choose a move")


def rules_caption(variant: Variant) -> str:
    return f"{variant.title}: each point is named by its file letter and rank number"


# -- turns -----------------------------------------------------------------------------

NO_DRAW_OFFER = "There is no draw offer to decline."


def bot_game_intro(user_name: str, bot_name: str, title: str) -> str:
    return f"{user_name} vs {bot_name}, {title}. "


def bot_declines_draws(bot_name: str) -> str:
    return f"{bot_name} doesn't accept draws — play on, or resign with /shax resign."


def draw_already_offered(them: str) -> str:
    return f"You have already offered a draw; it's up to {them}."


def draw_offer_intro(name: str, them_ref: str, surface: Surface) -> str:
    if surface is Surface.CONSOLE:
        how = "accept it with /shax draw, decline it with /shax decline-draw"
    else:
        how = "accept it with Accept draw (or /shax draw), decline it"
    return f"{name} offers a draw. {them_ref}: {how}, or just play on. "


def draw_declined(name: str, *, withdrawn: bool) -> str:
    verb = "withdrew the draw offer" if withdrawn else "declined the draw"
    return f"{name} {verb}. "


def no_movable_stone(src: str) -> str:
    return f"no stone of yours on {src} can move now"


def where_to(src: str, moves: Sequence[str]) -> str:
    return f"Where should the stone on {src} go? {', '.join(moves)}."


# -- challenges ------------------------------------------------------------------------

CHALLENGE_YOURSELF = (
    "You can't challenge yourself — challenge someone else, or play me with /shax play-bot."
)
CHALLENGE_EXPIRED = "This challenge has expired — send a new one with /shax challenge."
CHALLENGE_CLOSED = "This challenge is no longer open."
CHALLENGE_GONE = "That challenge doesn't exist any more."
NO_OPEN_CHALLENGE = "You have no open challenge here."
BOT_ACCOUNTS_CANT_PLAY = "Bot accounts can't play Shax."
STILL_PLAYING = "This game is still being played — finish it first."


def challenge_the_bot(levels: Sequence[str]) -> str:
    return f"To play against me, use /shax play-bot (choose a level: {', '.join(levels)})."


def challenge_a_bot_account(name: str) -> str:
    return (
        f"{name} is a bot account and can't play Shax — challenge a person, "
        "or play me with /shax play-bot."
    )


def already_challenged(name: str, surface: Surface) -> str:
    withdraw = "/shax cancel" if surface is Surface.CONSOLE else "Decline"
    return (
        f"You have already challenged {name} here; wait for an answer or withdraw it "
        f"with {withdraw}."
    )


def challenge_sent(
    opponent_ref: str,
    challenger: str,
    title: str | None,
    expiry_seconds: float,
    surface: Surface,
) -> str:
    """``title`` is the variant's; ``None`` for a rematch."""
    what = "a rematch" if title is None else f"a game of {title}"
    if surface is Surface.CONSOLE:
        answer = "Answer with /shax accept or /shax decline"
    else:
        answer = "Accept or decline"
    return (
        f"{opponent_ref}, {challenger} challenges you to {what}! "
        f"{answer} within {duration(expiry_seconds)}."
    )


def accept_own_challenge(opponent: str) -> str:
    return f"You can't accept your own challenge — wait for {opponent}."


def challenge_for_someone_else(opponent: str) -> str:
    return f"This challenge is for {opponent}, not for you."


def challenge_accepted(
    name: str, challenger: str, white: str, *, last_winner: bool, after_draw: bool
) -> str:
    text = f"{name} accepted {challenger}'s challenge. "
    if last_winner:
        text += f"{white} won the last game and places first. "
    elif after_draw:
        text += f"After the draw, {white} places first. "
    return text


def challenge_declined(name: str, challenger: str) -> str:
    return f"{name} declined {challenger}'s challenge."


def only_challenger_withdraws(challenger: str) -> str:
    return f"Only {challenger} can withdraw this challenge."


def challenge_withdrawn(challenger: str, opponent: str) -> str:
    return f"{challenger} withdrew the challenge to {opponent}."


def challenge_not_open(status: str) -> str:
    return f"This challenge is no longer open (it was {status})."


def nothing_to(verb: str) -> str:
    return f"No challenge is waiting for you here, so there is nothing to {verb}."


def unknown_level(level: str, levels: Sequence[str]) -> str:
    return f"Unknown level {level!r} — choose one of: {', '.join(levels)}."


def unknown_first(first: str) -> str:
    return f"first must be me, bot or random, not {first!r}."


def rematch_already_asked(them: str) -> str:
    return f"You have already asked for a rematch; it's up to {them}."


# -- the clock -------------------------------------------------------------------------


def challenge_expired(challenger: str, opponent: str) -> str:
    return f"{challenger}'s challenge to {opponent} expired."


def timeout_warning(
    ref: str, game_id: int, white_name: str, black_name: str, seconds_left: float
) -> str:
    return (
        f"⏳ {ref}, it's your turn in game #{game_id} "
        f"({white_name} vs {black_name}). Play within {duration(seconds_left)}, "
        "or you forfeit the game."
    )


# -- streaks ---------------------------------------------------------------------------

_WORDS = {1: "one", 2: "two", 3: "three"}


def streak_phrase(streak: int) -> str:
    """How a winning streak sounds: ``"3 in a row — one more for a gal"``."""
    if streak <= 0:
        return "no wins in a row yet"
    if streak < GAL:
        return f"{streak} in a row — {_WORDS[GAL - streak]} more for a gal"
    if streak == GAL:
        return f"{GAL} in a row: a gal!"
    if streak == GABAD:
        return f"{GABAD} in a row: a gabad!"
    return f"{streak} in a row — past a gabad!"


def change_text(
    winner_name: str | None,
    winner_after: Tally | None,
    loser_name: str | None,
    loser_before: Tally | None,
) -> str:
    """The streak line under a result; ``winner_name=None`` for a draw.

    A missing tally (the bot's side) is left out.
    """
    if winner_name is None:
        return "A draw breaks nobody's streak."
    parts = []
    if winner_after is not None:
        parts.append(f"{winner_name}: {streak_phrase(winner_after.streak)}")
    if loser_before is not None and loser_before.streak > 0:
        parts.append(f"{loser_name}'s run of {loser_before.streak} ends")
    return ". ".join(parts) + "." if parts else ""


def tally_line(t: Tally) -> str:
    record = f"{t.wins} won, {t.losses} lost, {t.draws} drawn"
    now = streak_phrase(t.streak) if t.streak else "no current streak"
    extra = f" · gal ×{t.gal}" if t.gal else ""
    extra += f" · gabad ×{t.gabad}" if t.gabad else ""
    return f"{record} — {now}; best {t.best} in a row{extra}"


def no_games_yet(name: str) -> str:
    return f"{name} hasn't finished a game here yet."


def streaks_heading(name: str) -> str:
    return f"**{name}** — streaks on this server"


def against_people(t: Tally) -> str:
    return "Against people: " + tally_line(t)


def against_bot(level: str, t: Tally) -> str:
    return f"Against the {level} bot: " + tally_line(t)


def bot_record_heading(name: str) -> str:
    return f"**{name}** — its games on this server"


def bot_record_line(level: str, won: int, lost: int, drawn: int) -> str:
    return f"As the {level} bot: {won} won, {lost} lost, {drawn} drawn"


def bot_no_games_yet(name: str) -> str:
    return f"{name} hasn't finished a game here yet: challenge it with /shax play-bot."


def leaderboard(current: Sequence[tuple[str, Tally]], best: Sequence[tuple[str, Tally]]) -> str:
    lines = [
        "**Leaderboard** — streaks against people (games against the bot show in /shax streak)"
    ]
    if not best:
        lines.append("Nobody has won a game against a person here yet.")
        return "\n".join(lines)
    lines.append("Current streaks:")
    lines += [f"{i}. {name} — {t.streak} in a row" for i, (name, t) in enumerate(current, 1)] or [
        "(no running streaks)"
    ]
    lines.append("All-time best:")
    lines += [
        f"{i}. {name} — {t.best} in a row"
        + (f" · gal ×{t.gal}" if t.gal else "")
        + (f" · gabad ×{t.gabad}" if t.gabad else "")
        for i, (name, t) in enumerate(best, 1)
    ]
    return "\n".join(lines)


# -- the teacher: hints and reviews ----------------------------------------------------


def line_words(points: Sequence[str]) -> str:
    """A line or a pair of points as players write them: ``"a4 b4 c4"``."""
    return " ".join(points)


def reason_words(reason: str, points: Sequence[str]) -> str:
    """Why an action is good, from an :class:`engine.explain.Reason` value and its points."""
    at = line_words(points)
    words = {
        "wins": "it wins the game",
        "laba_qaad": f"it makes two jare at once, a laba-qaad ({at})",
        "first_jare": f"it makes the first jare ({at}), so you remove first",
        "closes_jare": f"it closes a jare on {at}: one of their stones comes off",
        "only_action": "it is the only legal action",
        "takes_irmaan": f"it breaks their irmaan ({at})",
        "takes_threat": f"it takes a stone from their line {at} before they close it",
        "stops_jare": f"it stops their jare on {at}",
        "haarig": "it leaves them no move (hārig)",
        "makes_irmaan": f"it builds an irmaan: the stone between {at} closes a jare every move",
        "frees_safely": "it frees them without giving an irmaan or a jare",
        "threatens_jare": f"it threatens a jare on {at}",
    }
    return words.get(reason, "it keeps the position best balanced")


def hint_line(action: str, why: str, used: int, limit: int) -> str:
    return f"Hint {used} of {limit}: **{action}** — {why}."


HINTS_ONLY_AGAINST_THE_BOT = (
    "Hints are only for games against the bot — a game between people is theirs alone."
)


def no_hints_left(limit: int) -> str:
    return f"You have used all {limit} hints of this game — the rest is yours to find."


def hints_used(used: int, limit: int) -> str:
    return f"Hints used: {used} of {limit}."


REVIEWING = "Reviewing the game…"
NOTHING_TO_REVIEW = "There is no finished game here to review yet — play one first."
EMPTY_GAME = "That game ended before its first action: there is nothing to review."
REVIEW_WHEN_OVER = "This game is still being played — the review comes when it is over."


def review_heading(white: str, black: str, actions: int) -> str:
    return (
        f"**Review of {white} vs {black}** ({actions} actions): the curve shows who stood "
        f"better after each action — above the line {white}, below it {black}."
    )


def loss_words(loss: int, gave_away_win: bool, walked_into_loss: bool) -> str:
    """What an action lost, in stones (100 centi-stones) or in the game's result."""
    if gave_away_win:
        return "let a won game go"
    if walked_into_loss:
        return "walked into a lost game"
    return f"lost {loss / 100:.1f} stones"


def turning_point(
    number: int, action_number: int, name: str, played: str, lost: str, best: str, why: str
) -> str:
    return (
        f"{number}. Action {action_number}: {name} played **{played}** and {lost}; "
        f"better **{best}** — {why}."
    )


def turning_point_caption(number: int, action_number: int, played: str, best: str) -> str:
    return f"{number}. Action {action_number}: better {best} than {played}"


NO_TURNING_POINTS = "No turning points: no action lost more than a quarter of a stone. Well played!"


def series_stones(name: str, stones: int) -> str:
    """The series stones on the picture, explained: whose, how many, what comes next."""
    wins = f"{stones} win{'s' if stones != 1 else ''} in a row"
    if stones < GAL:
        more = GAL - stones
        return f"Series stones: {name}, {wins}; {more} more for a gal."
    if stones < GABAD:
        return f"Series stones: {name}, {wins} (a gal); one more for a gabad."
    return f"Series stones: {name}, {wins} (a gabad)."


def theme_chosen(theme: str) -> str:
    return f"Your boards are now drawn in the {theme} theme."


def theme_current(theme: str, themes: Sequence[str]) -> str:
    return (
        f"Your boards are drawn in the {theme} theme; choose with /shax theme: {', '.join(themes)}."
    )


def unknown_theme(theme: str, themes: Sequence[str]) -> str:
    return f"Unknown theme {theme!r} — choose one of: {', '.join(themes)}."
