"""The tournaments' sentences, in the reader's language: the words of each
:mod:`bot.tournaments.notices` saying (mypy holds each to its saying's values)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.service.replies import User
from bot.tournaments import notices as n
from bot.tournaments.rows import Format
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import duration, variant_title
from bot.words.voice import Surface, Voice
from engine import Variant, get_variant
from renderer.standings import StandingLine, points_text
from shax_i18n import Translator

MEDALS = ("🥇", "🥈", "🥉")
FIRE = "🔥"


def _points(t: Translator, points: Fraction | int) -> str:
    """``2 points``, ``1½ points``, ``1 point``."""
    whole = Fraction(points).denominator == 1
    count = int(points) if whole else 2
    return t.ngettext("{points} point", "{points} points", count, points=points_text(points))


# -- refusals -------------------------------------------------------------------------------


@speaks(n.NO_TOURNAMENT_HERE)
def no_tournament_here(t: Translator) -> str:
    return t.gettext(
        "There is no tournament in this channel: make one with `/shax tournament create`."
    )


@speaks(n.TOURNAMENT_HERE_ALREADY)
def tournament_here_already(t: Translator) -> str:
    return t.gettext(
        "This channel has a tournament already: join it with `/shax tournament join`, "
        "or make yours in another channel."
    )


@speaks(n.ALREADY_IN)
def already_in_tournament(t: Translator) -> str:
    return t.gettext(
        "You are in this tournament already: wait for your games (or `/shax tournament leave`)."
    )


@speaks(n.SWISS_BEGUN)
def swiss_begun(t: Translator) -> str:
    return t.gettext(
        "This Swiss has begun and takes no new players: follow it with "
        "`/shax tournament standings`, or make an arena (`format:arena`), which takes "
        "players late."
    )


@speaks(n.LEFT_FOR_GOOD)
def left_swiss_for_good(t: Translator) -> str:
    return t.gettext(
        "You left this Swiss, and a Swiss takes no one back: follow it with "
        "`/shax tournament standings`, or join the next one."
    )


@speaks(n.ARENA_OVER)
def arena_over(t: Translator) -> str:
    return t.gettext(
        "This arena's time is up and its last games are being played: join the next one."
    )


@speaks(n.NOT_IN_IT)
def not_in_tournament(t: Translator) -> str:
    return t.gettext("You are not playing in this tournament: `/shax tournament join` enters it.")


@speaks(n.JOIN_ENDED)
def join_ended_tournament(t: Translator) -> str:
    return t.gettext(
        "That tournament is over: `/shax tournament join` joins the one in this channel now, "
        "if there is one."
    )


@speaks(n.TOO_FEW_PLAYERS)
def too_few_players(t: Translator, count: int) -> str:
    return t.gettext(
        "A tournament needs at least 3 players and this one has {n}: ask others to "
        "`/shax tournament join`, then start it again.",
        n=count,
    )


@speaks(n.ONLY_CREATOR_STARTS)
def only_creator_starts(t: Translator, creator: str) -> str:
    return t.gettext(
        "Only {creator}, who made this tournament, or a member with Manage Server can "
        "start it: ask one of them.",
        creator=creator,
    )


@speaks(n.ONLY_CREATOR_CANCELS)
def only_creator_cancels(t: Translator, creator: str) -> str:
    return t.gettext(
        "Only {creator}, who made this tournament, or a member with Manage Server can "
        "cancel it: ask one of them.",
        creator=creator,
    )


@speaks(n.ALREADY_STARTED)
def tournament_started_already(t: Translator) -> str:
    return t.gettext(
        "This tournament has started already: `/shax tournament standings` shows how it stands."
    )


@speaks(n.NOT_A_NUMBER)
def not_a_tournament_number(t: Translator, option: str, text: str, low: int, high: int) -> str:
    return t.gettext(
        "`{option}` takes a whole number from {low} to {high}, not {text}.",
        option=option,
        low=low,
        high=high,
        text=repr(text),
    )


@speaks(n.NOT_A_LENGTH)
def not_a_tournament_length(t: Translator, option: str, text: str, low: float, high: float) -> str:
    return t.gettext(
        "`{option}` takes a length of time from {low} to {high}, like 5m, not {text}.",
        option=option,
        low=duration(low, t),
        high=duration(high, t),
        text=repr(text),
    )


@speaks(n.UNKNOWN_FORMAT)
def unknown_tournament_format(t: Translator, text: str) -> str:
    return t.gettext("Unknown format {text}: choose swiss or arena.", text=repr(text))


# -- answers and announcements ---------------------------------------------------------------


@speaks_with_voice(n.CREATED)
def tournament_created(
    voice: Voice,
    creator: User,
    format: Format,
    variant: Variant,
    size: int,
    turn: float,
    start: float | None,
) -> str:
    t = voice.t
    values = {
        "player": voice.player(creator),
        "board": variant_title(t, variant),
        "n": size,
        "turn": duration(turn, t),
    }
    if format is Format.SWISS:
        made = t.ngettext(
            "{player} made a Swiss tournament of {board} here: {n} round, {turn} a move.",
            "{player} made a Swiss tournament of {board} here: {n} rounds, {turn} a move.",
            size,
            **values,
        )
    else:
        made = t.gettext(
            "{player} made an arena of {board} here: {n} minutes, {turn} a move; whoever "
            "finishes a game is paired again at once.",
            **values,
        )
    if start is None:
        begins = t.gettext(
            "Join with `/shax tournament join`; it begins when {player} starts it "
            "(`/shax tournament start`).",
            player=voice.player(creator),
        )
    else:
        begins = t.gettext(
            "Join with `/shax tournament join`; it begins in {time}.",
            time=duration(start, t),
        )
    return f"{made} {begins}"


@speaks_with_voice(n.JOINED)
def tournament_joined(voice: Voice, player: User, count: int) -> str:
    return voice.t.ngettext(
        "{player} joined the tournament: {n} player now.",
        "{player} joined the tournament: {n} players now.",
        count,
        player=voice.player(player),
    )


@speaks_with_voice(n.LEFT_BEFORE_START)
def tournament_left(voice: Voice, player: User, count: int) -> str:
    return voice.t.ngettext(
        "{player} left the tournament before its start: {n} player now.",
        "{player} left the tournament before its start: {n} players now.",
        count,
        player=voice.player(player),
    )


@speaks_with_voice(n.WITHDRAWN)
def tournament_withdrawn(voice: Voice, player: User, lost: bool) -> str:
    if lost:
        return voice.t.gettext(
            "{player} left the tournament: their game under way is lost, and no further "
            "game (nor a bye) is theirs.",
            player=voice.player(player),
        )
    return voice.t.gettext(
        "{player} left the tournament: no further game (nor a bye) is theirs.",
        player=voice.player(player),
    )


@speaks_with_voice(n.PAUSED)
def tournament_paused(voice: Voice, player: User) -> str:
    return voice.t.gettext(
        "{player} pauses: no new game until `/shax tournament join` again; the points so far stay.",
        player=voice.player(player),
    )


@speaks(n.REMINDER)
def tournament_reminder(t: Translator, seconds: float, count: int) -> str:
    return t.ngettext(
        "The tournament here begins in {time}, with {n} player so far: "
        "`/shax tournament join` to play.",
        "The tournament here begins in {time}, with {n} players so far: "
        "`/shax tournament join` to play.",
        count,
        time=duration(seconds, t),
    )


def _pairs(voice: Voice, pairs: Sequence[tuple[User, User]]) -> list[str]:
    return [
        "• "
        + voice.t.gettext(
            "{white} (white) against {black}",
            white=voice.player(white),
            black=voice.player(black),
        )
        for white, black in pairs
    ]


def _where_played(voice: Voice) -> str:
    if voice.surface is Surface.CONSOLE:
        return voice.t.gettext("Each game has a channel of its own: `/as NAME` plays it.")
    return voice.t.gettext("Each game has a thread of its own.")


@speaks_with_voice(n.ROUND_PAIRED)
def tournament_round_paired(
    voice: Voice, number: int, rounds: int, pairs: Sequence[tuple[User, User]], bye: User | None
) -> str:
    t = voice.t
    lines = [t.gettext("Round {round} of {rounds}:", round=number, rounds=rounds)]
    lines += _pairs(voice, pairs)
    if bye is not None:
        lines.append("• " + t.gettext("{player} has a bye (a point)", player=voice.player(bye)))
    lines.append(_where_played(voice))
    return "\n".join(lines)


@speaks_with_voice(n.ARENA_STARTED)
def arena_started(
    voice: Voice, minutes: int, pairs: Sequence[tuple[User, User]], waiting: User | None
) -> str:
    t = voice.t
    lines = [t.gettext("The arena has begun: {n} minutes. The first games:", n=minutes)]
    lines += _pairs(voice, pairs)
    if waiting is not None:
        lines.append(
            "• "
            + t.gettext("{player} waits for the next free opponent", player=voice.player(waiting))
        )
    lines.append(_where_played(voice))
    return "\n".join(lines)


def standing_line(t: Translator, line: StandingLine, format: Format, fire: bool) -> str:
    """``1. Dahir — 2 points · Buchholz 2`` (an arena: ``· 3 games``, and 🔥 on fire)."""
    points = _points(t, line.points)
    if format is Format.SWISS:
        rest = t.gettext("Buchholz {value}", value=points_text(line.tiebreaks[0]))
    else:
        games = int(line.tiebreaks[0])
        rest = t.ngettext("{n} game", "{n} games", games)
    text = f"{line.rank}. {line.name} — {points} · {rest}"
    return f"{text} {FIRE}" if fire else text


@speaks(n.STANDINGS)
def tournament_standings(
    t: Translator,
    format: Format,
    played: int,
    rounds: int,
    lines: Sequence[StandingLine],
    on_fire: Sequence[str],
) -> str:
    if format is Format.SWISS:
        head = t.gettext("Standings after round {round} of {rounds}:", round=played, rounds=rounds)
    else:
        head = t.ngettext("Standings after {n} game:", "Standings after {n} games:", played)
    fire = set(on_fire)
    return "\n".join([head, *(standing_line(t, x, format, x.name in fire) for x in lines)])


@speaks(n.STANDINGS_TITLE)
def tournament_standings_title(
    t: Translator, format: Format, variant: str, played: int, rounds: int
) -> str:
    board = variant_title(t, get_variant(variant))
    if format is Format.SWISS:
        return t.gettext(
            "Swiss · {board} · round {round} of {rounds}", board=board, round=played, rounds=rounds
        )
    return t.ngettext(
        "Arena · {board} · {n} game", "Arena · {board} · {n} games", played, board=board
    )


@speaks(n.POINTS_HEADING)
def tournament_points_heading(t: Translator) -> str:
    return t.pgettext("standings", "Points")


@speaks(n.SB_HEADING)
def tournament_sb_heading(t: Translator) -> str:
    return t.pgettext("standings", "SB")


@speaks(n.GAMES_HEADING)
def tournament_games_heading(t: Translator) -> str:
    return t.pgettext("standings", "Games")


@speaks(n.NEXT_ROUND_IN)
def tournament_next_round_in(t: Translator, number: int, seconds: float) -> str:
    return t.gettext("Round {round} begins in {time}.", round=number, time=duration(seconds, t))


@speaks(n.NO_STANDINGS_YET)
def tournament_no_standings_yet(t: Translator, count: int) -> str:
    return t.ngettext(
        "Nothing has been played yet: {n} player is in.",
        "Nothing has been played yet: {n} players are in.",
        count,
    )


@speaks(n.PODIUM)
def tournament_podium(t: Translator, lines: Sequence[StandingLine]) -> str:
    places = [
        f"{MEDALS[min(x.rank, len(MEDALS)) - 1]} {x.name} ({_points(t, x.points)})" for x in lines
    ]
    return t.gettext("The tournament is over! {podium}", podium=" · ".join(places))


@speaks_with_voice(n.CANCELLED)
def tournament_cancelled(voice: Voice, player: User) -> str:
    return voice.t.gettext(
        "{player} cancelled the tournament here; games under way go on as ordinary games.",
        player=voice.player(player),
    )


@speaks(n.CANCELLED_TOO_FEW)
def tournament_cancelled_too_few(t: Translator, count: int) -> str:
    return t.ngettext(
        "The tournament did not begin: it had {n} player, and 3 are needed. Make a new "
        "one with `/shax tournament create`.",
        "The tournament did not begin: it had {n} players, and 3 are needed. Make a new "
        "one with `/shax tournament create`.",
        count,
    )


@speaks(n.PAIRING_NAME)
def tournament_pairing_name(t: Translator, number: int | None, white: str, black: str) -> str:
    if number is None:
        return t.gettext("Arena · {white} vs {black}", white=white, black=black)
    return t.gettext("Round {round} · {white} vs {black}", round=number, white=white, black=black)


@speaks_with_voice(n.GAME_INTRO)
def tournament_game_intro(voice: Voice, number: int | None, white: User, black: User) -> str:
    values = {"white": voice.player(white), "black": voice.player(black)}
    if number is None:
        return voice.t.gettext("Arena game: {white} (white) against {black}.", **values)
    return voice.t.gettext(
        "Round {round} of the tournament: {white} (white) against {black}.",
        round=number,
        **values,
    )
