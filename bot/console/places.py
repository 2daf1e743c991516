"""Games that want a place of their own, at the console: a tournament's pairings
(:class:`~bot.tournaments.notices.PairingToOpen`). The console opens each game in a channel
of its own under its own (a number from the pairing's, so a restart finds the same one),
says so in one line, and ``/as NAME`` takes the keyboard to the game NAME plays; one
keyboard can play a whole round."""

from __future__ import annotations

from bot.service.facade import ShaxService
from bot.service.replies import Notice, Place, User
from bot.service.said import Said
from bot.tournaments.notices import OpenedGame, PairingToOpen
from shax_i18n import N_

PAIRING_CHANNELS = 10**12
"""Pairing ``n``'s game is played in the console's channel ``PAIRING_CHANNELS + n``."""
OPENED = N_("{name} — its game is in #{channel}: /as {white} or /as {black} to play it.")

News = list[Notice | PairingToOpen]


async def news(service: ShaxService) -> News:
    """What the clock says, and what the tournaments say (their pairings to open)."""
    return [*await service.tick(), *await service.tournaments.tick()]


async def open_pairing(service: ShaxService, pairing: PairingToOpen) -> OpenedGame:
    """The pairing's game, in its channel under the tournament's."""
    place = Place(pairing.guild_id, PAIRING_CHANNELS + pairing.pairing_id, pairing.channel_id)
    return await service.tournaments.open_game(pairing.pairing_id, place)


async def place_of(service: ShaxService, user: User, home: Place) -> Place:
    """Where ``user`` plays: their tournament game's channel, else the console's own."""
    channel = await service.tournaments.playing_at(user)
    if channel is None:
        return home
    return Place(home.guild_id, channel, home.channel_id)


async def opened_line(service: ShaxService, pairing: PairingToOpen) -> Said:
    """Open the pairing's game, and the line that says where it is."""
    opened = await open_pairing(service, pairing)
    white, black = pairing.players
    return Said.message(
        OPENED,
        name=pairing.name,
        channel=opened.place.channel_id,
        white=white.name,
        black=black.name,
    )
