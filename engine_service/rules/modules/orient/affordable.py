"""The Orient: which candidate cards the acting seat can pay for, once per legal-action list.

Cards are bits of an int (bit ``card_id``). Per colour, a table gives the cards
whose cost in that colour is at most what the seat holds of it (tokens and
bonuses): the cards within reach without gold are the AND of five lookups, so a
candidate costs one bit test. Only when gold (tokens, and two per gold card) can
make up a shortfall are the cards within reach of holdings plus all that gold
checked by their exact shortfall.

A sacrifice card costs no tokens, so it is always within reach here: whether the
seat's bonuses pay for it is a refusal of ``check_main_action``, which the
legal-action list applies through ``forbidden_cards`` (as for a paired card
without a partner).
"""

from __future__ import annotations

from typing import Final

from ...catalog import CARDS
from ...state import GameState
from .cards import COSTS, GOLD_CARDS, IS_GOLD_CARD

_MAX_COST: Final = max(max(cost) for cost in COSTS)


def _cards_within(color: int) -> tuple[int, ...]:
    """Per held count (capped at the highest cost), the cards costing at most that much of ``color``."""
    return tuple(sum(1 << card.id for card in CARDS if card.cost[color] <= held) for held in range(_MAX_COST + 1))


_CARDS_WITHIN: Final = tuple(_cards_within(color) for color in range(5))


def affordable(state: GameState, seat: int, card_ids: list[int]) -> list[int]:
    """The cards some payment buys, in order (see the module docstring)."""
    player = state.players[seat]
    t0, t1, t2, t3, t4, gold = player.tokens
    b0, b1, b2, b3, b4 = player.bonuses
    h0, h1, h2, h3, h4 = t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4
    m = _MAX_COST
    w0, w1, w2, w3, w4 = _CARDS_WITHIN
    within = (
        w0[h0 if h0 < m else m] & w1[h1 if h1 < m else m] & w2[h2 if h2 < m else m]
        & w3[h3 if h3 < m else m] & w4[h4 if h4 < m else m]
    )  # fmt: skip
    purchased = player.purchased
    if not GOLD_CARDS.isdisjoint(purchased):
        gold += 2 * sum(map(IS_GOLD_CARD.__getitem__, purchased))
    if not gold:
        return [card_id for card_id in card_ids if within >> card_id & 1]
    # A card beyond holdings plus all the gold in one colour is beyond reach; the others are checked exactly.
    r0, r1, r2, r3, r4 = h0 + gold, h1 + gold, h2 + gold, h3 + gold, h4 + gold
    reach = (
        w0[r0 if r0 < m else m] & w1[r1 if r1 < m else m] & w2[r2 if r2 < m else m]
        & w3[r3 if r3 < m else m] & w4[r4 if r4 < m else m]
    )  # fmt: skip
    kept: list[int] = []
    for card_id in card_ids:
        if within >> card_id & 1:
            kept.append(card_id)
        elif reach >> card_id & 1:
            c0, c1, c2, c3, c4 = COSTS[card_id]
            missing = (c0 - h0 if c0 > h0 else 0) + (c1 - h1 if c1 > h1 else 0) + (c2 - h2 if c2 > h2 else 0)
            if missing + (c3 - h3 if c3 > h3 else 0) + (c4 - h4 if c4 > h4 else 0) <= gold:
                kept.append(card_id)
    return kept
