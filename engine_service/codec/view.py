"""Player views into ``splendor.v1.GameView``: written from a core view already redacted by ``view_for``."""

from __future__ import annotations

from splendor.v1 import view_pb2

from engine_service.rules import GameView

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
    out.winners.extend(standing.seat for standing in view.ranking if standing.place == 1)
    states = view.module_states
    for field in module_state_fields(view_pb2.GameView) if states else ():
        value = states[field.slot] if field.slot < len(states) else None
        if value is not None:
            field.adapter.write(getattr(out, field.name), value)
