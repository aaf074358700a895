"""Player views into ``splendor.v1.GameView``: written from a core view already redacted by ``view_for``,
or, for a game without modules, copied from the state's own message and redacted the same way.

``GameView`` shares its sub-messages (``TokenCounts``, ``MarketRow``, ``PlayerState``,
``PendingDecision``, ``Standing``) with ``GameState``: copying them from a message the
service wrote costs a few C calls, where ``view_for`` and ``fill_view`` build and write every
player, reserved card and market slot again (the larger part of a sealed ApplyAction).
"""

from __future__ import annotations

from splendor.v1 import state_pb2, view_pb2

from engine_service.rules import GameState, GameView, view_for

from .common import end_reason_to_proto, fill_gems, fill_tokens, modules_to_proto
from .modules import module_state_fields
from .state import fill_market, fill_pending, fill_standings


def fill_view(out: view_pb2.GameView, view: GameView) -> None:
    """Write a core view (already redacted by ``view_for``) into an empty message."""
    if view.viewer is not None:
        out.viewer_seat = view.viewer
    out.num_players = view.num_players
    out.modules.extend(modules_to_proto(view.modules))
    out.turn_limit = view.turn_limit
    fill_tokens(out.bank, view.bank)
    out.deck_sizes.extend(view.deck_sizes)
    fill_market(out.market, view.market)
    out.noble_ids.extend(view.nobles)
    for player in view.players:
        msg = out.players.add()
        fill_tokens(msg.tokens, player.tokens)
        fill_gems(msg.bonuses, player.bonuses)
        msg.prestige = player.prestige
        msg.purchased_card_ids.extend(player.purchased)
        for card in player.reserved:
            reserved = msg.reserved.add(deck=card.deck, blind=card.blind)
            if card.card_id is not None:
                reserved.card_id = card.card_id
        msg.noble_ids.extend(player.nobles)
    out.first_seat = view.first_seat
    out.seat = view.seat
    out.turn = view.turn
    out.round = view.turn // view.num_players
    if view.pending is not None:
        fill_pending(out.pending_decision, view.pending)
    out.final_round = view.final_round
    out.passes_in_a_row = view.passes_in_a_row
    out.end_reason = end_reason_to_proto(view.end_reason)
    fill_standings(out.ranking, view.ranking)
    out.winners.extend([standing.seat for standing in view.ranking if standing.place == 1])
    states = view.module_states
    for field in module_state_fields(view_pb2.GameView) if states else ():
        value = states[field.slot] if field.slot < len(states) else None
        if value is not None:
            field.adapter.write(getattr(out, field.name), value)


def fill_view_of_state(out: view_pb2.GameView, msg: state_pb2.GameState, state: GameState, viewer: int | None) -> None:
    """``fill_view(out, view_for(state, viewer))``, faster: ``msg`` is the service's own message of ``state``
    (written or patched by this codec, so canonical and without unknown fields).

    Without modules, the view is the state's public fields and sub-messages copied as they are,
    minus what ``view_for`` hides: the decks (only their sizes are shown), the config's seed,
    and the id of each card another seat reserved unseen. A module may hide part of its
    state (its ``view``), so a game with modules takes ``view_for``.
    """
    config = state.config
    fill_revealed_seed(out, state)
    if config.modules or state.module_states:
        fill_view(out, view_for(state, viewer))
        return
    num_players = config.num_players
    if viewer is not None:
        out.viewer_seat = viewer
    out.num_players = num_players
    out.turn_limit = config.turn_limit
    out.bank.CopyFrom(msg.bank)
    out.deck_sizes.extend([len(pile) for pile in state.decks])
    out.market.extend(msg.market)
    out.noble_ids.extend(state.nobles)
    players = out.players
    players.extend(msg.players)
    for seat, player in enumerate(state.players):
        if seat != viewer and True in player.reserved_blind:
            reserved = players[seat].reserved
            for index, blind in enumerate(player.reserved_blind):
                if blind:
                    reserved[index].ClearField("card_id")
    out.first_seat = state.first_seat
    out.seat = state.seat
    turn = state.turn
    out.turn = turn
    out.round = turn // num_players
    if state.pending is not None:
        out.pending_decision.CopyFrom(msg.pending_decision)
    out.final_round = state.final_round
    out.passes_in_a_row = state.passes_in_a_row
    if state.end_reason is not None:
        out.end_reason = end_reason_to_proto(state.end_reason)
    ranking = state.ranking
    if ranking:
        out.ranking.extend(msg.ranking)
        out.winners.extend([standing.seat for standing in ranking if standing.place == 1])


def fill_revealed_seed(out: view_pb2.GameView, state: GameState) -> None:
    """The seed once the game is over (it replays the game, e.g. a sealed one for review); nothing before."""
    if state.end_reason is not None:
        out.revealed_seed = state.config.seed
