"""The Orient: which candidate cards the acting seat may buy, once per legal-action list.

What a card needs is packed into one small int, a field per count, each field
with a guard bit above the largest need: its cost in each colour; for a
sacrifice card, the bonuses of its colour it discards; for a paired card, one
owned card with a bonus to attach to. The seat's holdings are packed alike
(tokens and bonuses per colour, bonuses per colour, whether it owns a bonus;
each capped at the largest need, every guard bit set). Subtracting a card's
needs from the holdings borrows a field's guard bit exactly when the card needs
more than the seat holds there, and never disturbs another field: a candidate
costs one subtraction and one mask. Only when gold (tokens, and two per gold
card) can make up a shortfall are the cards within reach of holdings plus all
that gold in every colour checked by their exact shortfall.

So the list holds the purchases ``check_main_action`` allows as well (the
cards ``forbidden_cards`` names are left out): the legal-action list asks a
payment module for both at once.
"""

from __future__ import annotations

from typing import Final

from ...state import GameState
from .cards import COSTS, GOLD_CARDS, IS_GOLD_CARD, IS_PAIRED, SACRIFICE

_COLORS: Final = 5
_SACRIFICE_FIELD: Final = _COLORS  # then one field per colour: the bonuses a sacrifice card discards
_PARTNER_FIELD: Final = 2 * _COLORS  # a paired card needs an owned card with a bonus
_MAX_NEED: Final = max([max(cost) for cost in COSTS] + [need[1] for need in SACRIFICE if need is not None] + [1])
_WIDTH: Final = _MAX_NEED.bit_length() + 1  # the top bit of a field is its guard
_GUARDS: Final = sum(1 << (_WIDTH * field + _WIDTH - 1) for field in range(_PARTNER_FIELD + 1))


def _needs(card_id: int) -> int:
    """What the card needs, packed: its cost, the bonuses it sacrifices, a partner."""
    needs = sum(count << (_WIDTH * color) for color, count in enumerate(COSTS[card_id]))
    sacrifice = SACRIFICE[card_id]
    if sacrifice is not None:
        color, count = sacrifice
        needs |= count << (_WIDTH * (_SACRIFICE_FIELD + color))
    if IS_PAIRED[card_id]:
        needs |= 1 << (_WIDTH * _PARTNER_FIELD)
    return needs


_NEEDS: Final = tuple(_needs(card_id) for card_id in range(len(COSTS)))


def _fields(h0: int, h1: int, h2: int, h3: int, h4: int) -> int:
    """Five counts in five fields, each capped at the largest need (no guard bits)."""
    m = _MAX_NEED
    w = _WIDTH
    return (
        (h0 if h0 < m else m) | (h1 if h1 < m else m) << w | (h2 if h2 < m else m) << 2 * w
        | (h3 if h3 < m else m) << 3 * w | (h4 if h4 < m else m) << 4 * w
    )  # fmt: skip


def affordable(state: GameState, seat: int, card_ids: list[int]) -> list[int]:
    """The cards the seat may buy and some payment buys, in order (see the module docstring)."""
    player = state.players[seat]
    t0, t1, t2, t3, t4, gold = player.tokens
    b0, b1, b2, b3, b4 = player.bonuses
    h0, h1, h2, h3, h4 = t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4
    # Above the gem fields: bonuses alone (what a sacrifice discards), and whether there is one (a partner).
    owned = _GUARDS | _fields(b0, b1, b2, b3, b4) << (_WIDTH * _SACRIFICE_FIELD)
    if b0 or b1 or b2 or b3 or b4:
        owned |= 1 << (_WIDTH * _PARTNER_FIELD)
    held = owned | _fields(h0, h1, h2, h3, h4)
    guards = _GUARDS
    needs = _NEEDS
    purchased = player.purchased
    if not GOLD_CARDS.isdisjoint(purchased):
        gold += 2 * sum(map(IS_GOLD_CARD.__getitem__, purchased))
    if not gold:
        return [card_id for card_id in card_ids if (held - needs[card_id]) & guards == guards]
    # A card costing more of one colour than holdings plus all the gold is beyond reach; the rest are checked exactly.
    reach = owned | _fields(h0 + gold, h1 + gold, h2 + gold, h3 + gold, h4 + gold)
    kept: list[int] = []
    for card_id in card_ids:
        need = needs[card_id]
        if (held - need) & guards == guards:
            kept.append(card_id)
        elif (reach - need) & guards == guards:
            c0, c1, c2, c3, c4 = COSTS[card_id]
            missing = (c0 - h0 if c0 > h0 else 0) + (c1 - h1 if c1 > h1 else 0) + (c2 - h2 if c2 > h2 else 0)
            if missing + (c3 - h3 if c3 > h3 else 0) + (c4 - h4 if c4 > h4 else 0) <= gold:
                kept.append(card_id)
    return kept
