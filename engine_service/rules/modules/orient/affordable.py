"""The Orient: which candidate cards the acting seat may buy, once per legal-action list.

A card's cost is packed into one small int, a field per colour, each with a
guard bit above the largest cost. Subtracting it from the seat's packed holdings
(tokens and bonuses per colour, capped at the largest cost, every guard bit set)
borrows a field's guard bit exactly when the card costs more of that colour than
the seat holds, and never disturbs another field: a candidate costs one
subtraction and one mask (on a small int, the kind both CPython and
compiled code handle fastest). When gold (tokens, and two per gold card) can make
up a shortfall, the cards within reach of holdings plus all that gold in every
colour are checked by their exact shortfall: the same subtraction leaves each
short colour's field that much below its guard bit, and two tables indexed by the
result's low and high fields sum those shortfalls.

The cards the rules refuse for want of bonuses (``refusals.py``: what
``check_main_action`` refuses and ``forbidden_cards`` names) get a cost no
holdings meet, in a table of packed costs built at import for each set of
refusals: the legal-action list asks a payment module for both at once.
"""

from __future__ import annotations

from typing import Final

from ...state import GameState
from .cards import COSTS, GOLD_CARD_COUNT, OWNS_NO_GOLD_CARD
from .refusals import REFUSALS, refusal_index

_MAX_COST: Final = max(max(cost) for cost in COSTS)
_WIDTH: Final = _MAX_COST.bit_length() + 1  # the top bit of a field is its guard
_GUARDS: Final = sum(1 << (_WIDTH * color + _WIDTH - 1) for color in range(5))
_PACKED_COSTS: Final = tuple(sum(count << (_WIDTH * color) for color, count in enumerate(cost)) for cost in COSTS)
_NOT_FOR_SALE: Final = 1 << (_WIDTH - 1)  # more of the first colour than capped holdings ever have
# Per set of refused purchases (``refusals.py``), the packed costs with those cards made impossible.
_COSTS_REFUSING: Final = tuple(
    tuple(_NOT_FOR_SALE if card_id in refusals.purchase else cost for card_id, cost in enumerate(_PACKED_COSTS))
    for refusals in REFUSALS
)


def _shortfalls(fields: int) -> tuple[int, ...]:
    """Per value of ``fields`` fields of a subtraction's result: the total its fields with a clear guard bit lack."""
    guard = 1 << (_WIDTH - 1)
    field_mask = (1 << _WIDTH) - 1
    table = []
    for packed in range(1 << (_WIDTH * fields)):
        values = [packed >> (_WIDTH * field) & field_mask for field in range(fields)]
        table.append(sum(guard - value for value in values if value < guard))
    return tuple(table)


_LOW_BITS: Final = 3 * _WIDTH  # the first three colours' fields; the last two are the high fields
_LOW_MASK: Final = (1 << _LOW_BITS) - 1
_SHORT_LOW: Final = _shortfalls(3)
_SHORT_HIGH: Final = _shortfalls(2)


def _packed(h0: int, h1: int, h2: int, h3: int, h4: int) -> int:
    """Holdings per colour, capped at the largest cost, packed with every guard bit set."""
    m = _MAX_COST
    w = _WIDTH
    return (
        _GUARDS | (h0 if h0 < m else m) | (h1 if h1 < m else m) << w | (h2 if h2 < m else m) << 2 * w
        | (h3 if h3 < m else m) << 3 * w | (h4 if h4 < m else m) << 4 * w
    )  # fmt: skip


def affordable(state: GameState, seat: int, card_ids: list[int]) -> list[int]:
    """The cards the seat may buy and some payment buys, in order (see the module docstring)."""
    player = state.players[seat]
    t0, t1, t2, t3, t4, gold = player.tokens
    b0, b1, b2, b3, b4 = player.bonuses
    h0, h1, h2, h3, h4 = t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4
    held = _packed(h0, h1, h2, h3, h4)
    guards = _GUARDS
    costs = _COSTS_REFUSING[refusal_index(player.bonuses)]
    purchased = player.purchased
    if not OWNS_NO_GOLD_CARD(purchased):
        gold += 2 * sum(map(GOLD_CARD_COUNT, purchased))
    if not gold:
        return [card_id for card_id in card_ids if (held - costs[card_id]) & guards == guards]
    # A card costing more of one colour than holdings plus all the gold is beyond reach; the rest are checked exactly.
    reach = _packed(h0 + gold, h1 + gold, h2 + gold, h3 + gold, h4 + gold)
    return [
        card_id
        for card_id in card_ids
        if (reach - (cost := costs[card_id])) & guards == guards
        and _SHORT_LOW[(short := held - cost) & _LOW_MASK] + _SHORT_HIGH[short >> _LOW_BITS] <= gold
    ]
