"""Turns: playing an action, the two-step move, showing the board, resigning and draws.

How a move is played (:meth:`Turns.play`): under the game's lock the game is read,
the player's turn and the clicked board's version are checked, the engine parses and
applies the action, the kernel commits it (``UPDATE … WHERE version = ?``), and then
the bot answers if it is a bot game; the reply is the new live board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.service import messages
from bot.service.bot_turns import ACTION_LINE, BotPlayer
from bot.service.compose import Composer
from bot.service.kernel import GameKernel, other, side_of
from bot.service.replies import (
    Choice,
    DestinationControls,
    DrawError,
    IllegalAction,
    MalformedAction,
    Place,
    Reply,
    Said,
    Saying,
    Thinking,
    User,
    not_thinking,
)
from bot.storage import GameRow
from engine import (
    IllegalActionError,
    Kind,
    NotationError,
    Outcome,
    Position,
    Refusal,
    Step,
    Termination,
    Variant,
)

MALFORMED: Saying[[str, Variant, list[str]]] = Saying("malformed_sentence")
"""Text that is not an action on this board, and the legal actions."""
ILLEGAL: Saying[[str, Said, list[str]]] = Saying("illegal_sentence")
"""An action the rules refuse now: the action, the rule (:data:`REFUSED`), the legal ones."""
REFUSED: Saying[[Refusal, Mapping[str, object]]] = Saying("illegal_reason")
"""The engine's rule that refuses an action, with what it is about."""
NO_MOVABLE_STONE: Saying[[str]] = Saying("no_movable_stone")
WHERE_TO: Saying[[str, Sequence[str]]] = Saying("where_to")
"""Where the stone on a point can go: the point, each move."""
BOT_DECLINES_DRAWS: Saying[[str]] = Saying("bot_declines_draws")
DRAW_ALREADY_OFFERED: Saying[[str]] = Saying("draw_already_offered")
DRAW_OFFER_INTRO: Saying[[str, User]] = Saying("draw_offer_intro")
"""A draw offered: the offerer's name, and the opponent (to answer it)."""
DRAW_DECLINED: Saying[[str, bool]] = Saying("draw_declined")
"""A draw offer declined (or, true, withdrawn by whoever made it)."""


class Turns:
    """What players do in a game that is on."""

    def __init__(self, kernel: GameKernel, composer: Composer, bots: BotPlayer) -> None:
        self.kernel = kernel
        self.composer = composer
        self.bots = bots

    async def play(
        self,
        user: User,
        place: Place,
        action: str,
        game_id: int | None = None,
        version: int | None = None,
        *,
        thinking: Thinking = not_thinking,
    ) -> Reply:
        """Play one action in notation; in a bot game the bot's answer follows."""
        k = self.kernel
        game_id = await k.game_id(place, game_id)
        async with k.lock(game_id):
            row = await k.game(game_id)
            me = k.check_turn(row, user, version)
            position = k.position(row)
            text = action.strip().lower()
            if position.step in (Step.MOVE, Step.FREE) and text in position.variant.index:
                return destinations(row, position, text)
            try:
                act = position.parse(text)
                after = position.apply(act)
            except NotationError as exc:
                legal = position.legal_notations()
                raise MalformedAction(
                    MALFORMED(action, position.variant, legal),
                    action,
                    exc.reason,
                    legal,
                ) from None
            except IllegalActionError as exc:
                raise IllegalAction(
                    ILLEGAL(exc.action, REFUSED(exc.refusal, exc.params), exc.legal),
                    exc.action,
                    exc.reason,
                    exc.legal,
                ) from None
            # Acting declines the opponent's draw offer; the player's own offer stands.
            offer = row.draw_offered_by if row.draw_offered_by == user.id else None
            events = [ACTION_LINE(position, act, after, me.name, other(row, me).name)]
            row, finished = await k.commit(row, act.notation(position.variant), after, offer)
        row, bot_events, bot_finished = await self.bots.play_turns(row, thinking)
        events += bot_events
        return await self.composer.board_reply(
            row, events=events, finished=finished or bot_finished, viewer=user.id
        )

    async def legal_choices(self, user: User, place: Place, typed: str = "") -> list[Choice]:
        """The legal actions starting with ``typed`` (none when there is no game here or it
        is not ``user``'s turn), for autocomplete."""
        row = await self.kernel.storage.games.active_game_in_channel(place.channel_id)
        if row is None:
            return []
        position = self.kernel.position(row)
        me = side_of(row, user.id)
        if me is None or position.to_move is not me.color:
            return []
        prefix = typed.strip().lower()
        return [
            Choice(label=a, value=a) for a in position.legal_notations() if a.startswith(prefix)
        ]

    async def board(
        self, place: Place, *, thinking: Thinking = not_thinking, viewer: int | None = None
    ) -> Reply:
        """The game in this channel as a fresh live board (anyone may look), in the
        theme of ``viewer``, who asked."""
        row = await self.kernel.find_game(place)
        row, events, finished = await self.bots.play_turns(row, thinking)
        return await self.composer.board_reply(row, events=events, finished=finished, viewer=viewer)

    async def resign(
        self, user: User, place: Place, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Resign: the opponent wins. The final board comes with the replay."""
        k = self.kernel
        game_id = await k.game_id(place, game_id)
        async with k.lock(game_id):
            row = await k.game(game_id)
            me = k.check_player(row, user, version)
            outcome = Outcome(me.color.other, Termination.RESIGNATION)
            finished = await k.finish(row, row.record, outcome)
        return await self.composer.board_reply(finished.game, finished=finished, viewer=user.id)

    async def draw(
        self, user: User, place: Place, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Offer a draw, or accept the opponent's offer (the game ends drawn).
        The bot declines draw offers."""
        k = self.kernel
        game_id = await k.game_id(place, game_id)
        async with k.lock(game_id):
            row = await k.game(game_id)
            me = k.check_player(row, user, version)
            them = other(row, me)
            if row.ai_level is not None:
                raise DrawError(BOT_DECLINES_DRAWS(them.name))
            if row.draw_offered_by == them.user_id:
                finished = await k.finish(row, row.record, Outcome(None, Termination.AGREEMENT))
                return await self.composer.board_reply(
                    finished.game, finished=finished, viewer=user.id
                )
            if row.draw_offered_by == user.id:
                raise DrawError(DRAW_ALREADY_OFFERED(them.name))
            stored = await k.set_draw_offer(row, user.id)
        intro = DRAW_OFFER_INTRO(me.name, them.user)
        return await self.composer.board_reply(
            stored, intro=intro, ping=(them.user_id,), viewer=user.id
        )

    async def decline_draw(
        self, user: User, place: Place, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Decline the opponent's draw offer, or withdraw one's own."""
        k = self.kernel
        game_id = await k.game_id(place, game_id)
        async with k.lock(game_id):
            row = await k.game(game_id)
            me = k.check_player(row, user, version)
            if row.draw_offered_by is None:
                raise DrawError(Said.message(messages.NO_DRAW_OFFER))
            stored = await k.set_draw_offer(row, None)
        intro = DRAW_DECLINED(me.name, row.draw_offered_by == user.id)
        return await self.composer.board_reply(stored, intro=intro, viewer=user.id)


def destinations(row: GameRow, position: Position, src: str) -> Reply:
    """An ephemeral question: where should the stone on ``src`` go?"""
    v = position.variant
    moves = [a for a in position.legal_actions() if a.kind is Kind.MOVE and v.points[a.src] == src]
    if not moves:
        legal = position.legal_notations()
        reason = NO_MOVABLE_STONE(src)
        raise IllegalAction(ILLEGAL(src, reason, legal), src, str(reason), legal)
    choices = tuple(Choice(label=f"{src}-{v.points[a.dst]}", value=a.notation(v)) for a in moves)
    return Reply(
        text=WHERE_TO(src, [c.label for c in choices]),
        ephemeral=True,
        controls=DestinationControls(row.id, row.version, src, choices),
        game_id=row.id,
        version=row.version,
    )
