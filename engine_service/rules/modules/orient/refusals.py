"""The Orient: the purchases its rules refuse for want of bonuses, whatever the seat's tokens.

A paired card needs an owned card with a printed bonus to attach to (so a seat
with no bonus at all cannot buy one); a sacrifice card needs the bonuses of its
colour it discards. ``check_main_action`` refuses such a purchase; the legal-action
list leaves the cards out (``forbidden_cards``, and the payment rules' ``affordable``).

Which cards are refused depends only on whether the seat has a bonus at all and,
per colour, whether it has the bonuses that colour's sacrifice card needs: six
bits, the index of the answer in a table built at import. Working the index out
costs a few comparisons, less than a cache keyed by the bonuses, which many
different bonuses would keep missing.
"""

from __future__ import annotations

from typing import Final

from ...catalog import CARDS
from ...plugin import ForbiddenCards
from .cards import IS_PAIRED, SACRIFICE

PAIRED_CARDS: Final = frozenset(card.id for card in CARDS if IS_PAIRED[card.id])
_SACRIFICES: Final = tuple((card_id, need) for card_id, need in enumerate(SACRIFICE) if need is not None)
# The purchases check_main_action may refuse: a paired card, or a sacrifice card.
RESTRICTED: Final = PAIRED_CARDS | frozenset(card_id for card_id, _ in _SACRIFICES)


def _needs_per_color() -> tuple[int, ...]:
    """Per colour, the bonuses its sacrifice cards need (0: no sacrifice card of that colour)."""
    needs = [0, 0, 0, 0, 0]
    for card_id, (color, count) in _SACRIFICES:
        if needs[color] not in (0, count):
            raise ValueError(f"sacrifice card {card_id}: the {color} sacrifice cards must all need the same count")
        needs[color] = count
    return tuple(needs)


# One constant per colour (Final: compiled code reads them as C constants, not from the module's dict).
_NEEDS: Final = _needs_per_color()
_N0: Final = _NEEDS[0]
_N1: Final = _NEEDS[1]
_N2: Final = _NEEDS[2]
_N3: Final = _NEEDS[3]
_N4: Final = _NEEDS[4]
NO_BONUS_BIT: Final = 1 << 5  # beside one bit per colour: set when that colour's sacrifice need is unmet
REFUSAL_KINDS: Final = 2 * NO_BONUS_BIT


def refusal_index(bonuses: tuple[int, ...]) -> int:
    """Which of the ``REFUSAL_KINDS`` sets of refused purchases applies to a seat with these bonuses."""
    b0, b1, b2, b3, b4 = bonuses
    index = (b0 < _N0) | (b1 < _N1) << 1 | (b2 < _N2) << 2 | (b3 < _N3) << 3 | (b4 < _N4) << 4
    return index if b0 or b1 or b2 or b3 or b4 else index | NO_BONUS_BIT


def _refusals(index: int) -> ForbiddenCards:
    """Every paired card when the seat has no bonus at all; the sacrifice cards whose colour's need is unmet."""
    refused = frozenset(card_id for card_id, (color, _) in _SACRIFICES if index >> color & 1)
    return ForbiddenCards(purchase=refused | PAIRED_CARDS if index & NO_BONUS_BIT else refused)


# Each answer, built once.
REFUSALS: Final = tuple(_refusals(index) for index in range(REFUSAL_KINDS))
