"""The Orient: the purchases its rules refuse for want of bonuses, whatever the seat's tokens.

A paired card needs an owned card with a printed bonus to attach to (so a seat
with no bonus at all cannot buy one); a sacrifice card needs the bonuses of its
colour it discards. ``check_main_action`` refuses such a purchase; the legal-action
list leaves the cards out (``forbidden_cards``, and the payment rules' ``affordable``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Final

from ...catalog import CARDS
from ...plugin import ForbiddenCards
from .cards import IS_PAIRED, SACRIFICE

PAIRED_CARDS: Final = frozenset(card.id for card in CARDS if IS_PAIRED[card.id])
_SACRIFICES: Final = tuple((card_id, need) for card_id, need in enumerate(SACRIFICE) if need is not None)
# The purchases check_main_action may refuse: a paired card, or a sacrifice card.
RESTRICTED: Final = PAIRED_CARDS | frozenset(card_id for card_id, _ in _SACRIFICES)


def _refusals(no_bonus: bool, unmet: tuple[bool, ...]) -> ForbiddenCards:
    """Every paired card when the seat has no bonus at all; the sacrifice cards whose need is ``unmet``."""
    refused = frozenset(card_id for (card_id, _), short in zip(_SACRIFICES, unmet) if short)
    return ForbiddenCards(purchase=refused | PAIRED_CARDS if no_bonus else refused)


# The refusals depend only on which of those needs the bonuses meet: each answer is built once.
_REFUSALS: Final = {
    (no_bonus, *unmet): _refusals(no_bonus, unmet)
    for no_bonus in (False, True)
    for unmet in product((False, True), repeat=len(_SACRIFICES))
}


# Every set of purchases the rules may refuse.
EVERY_REFUSAL: Final = frozenset(answer.purchase for answer in _REFUSALS.values())


@lru_cache(maxsize=4096)
def refused_with(bonuses: tuple[int, ...]) -> ForbiddenCards:
    """The purchases refused to a seat with these bonuses (few bonuses occur: cached)."""
    return _REFUSALS[(not any(bonuses), *[bonuses[color] < count for _, (color, count) in _SACRIFICES])]
