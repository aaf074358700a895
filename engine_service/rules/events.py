"""What a transition did, in order, for front ends to animate and logs to tell."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from .records import distinct_kind
from .state import DecisionKind, EndReason, Standing


class CardSource(Enum):
    MARKET = "MARKET"
    RESERVE = "RESERVE"


@distinct_kind
class GameStarted(NamedTuple):
    first_seat: int
    num_players: int


@distinct_kind
class GemsTaken(NamedTuple):
    seat: int
    tokens: tuple[int, ...]  # six counts


@distinct_kind
class GemsReturned(NamedTuple):
    seat: int
    tokens: tuple[int, ...]  # six counts


@distinct_kind
class CardReserved(NamedTuple):
    seat: int
    card_id: int | None  # None in a view where the card was drawn unseen by someone else
    deck: int
    blind: bool  # drawn from the top of a deck
    slot: int | None  # market slot it left (None when blind)


@distinct_kind
class GoldReceived(NamedTuple):
    seat: int
    amount: int


@distinct_kind
class CardPurchased(NamedTuple):
    seat: int
    card_id: int
    source: CardSource
    slot: int | None  # market slot it left (None when from the reserve)
    payment: tuple[int, ...]  # six counts paid into the bank


@distinct_kind
class CardRevealed(NamedTuple):
    """A card turned face up into an empty market slot."""

    deck: int
    slot: int
    card_id: int


@distinct_kind
class MarketSlotEmptied(NamedTuple):
    """A market slot left empty because its deck has run out."""

    deck: int
    slot: int


@distinct_kind
class NobleVisited(NamedTuple):
    seat: int
    noble_id: int


@distinct_kind
class CityClaimed(NamedTuple):
    """The Cities: a player took a city tile."""

    seat: int
    city_id: int


@distinct_kind
class PowerGemTaken(NamedTuple):
    """Trading Posts: a power (post 0 after a purchase, post 1 with two of a colour) gave a gem."""

    seat: int
    color: int
    post: int


@distinct_kind
class ShieldPlaced(NamedTuple):
    """Trading Posts: a player met a post's requirements and placed a shield on it."""

    seat: int
    post: int
    prestige_gained: int  # posts 3 and 4 score when placed, and post 4 for every later shield


@distinct_kind
class StrongholdPlaced(NamedTuple):
    """Strongholds: a stronghold put on a face-up card, from the supply or moved from another card."""

    seat: int
    card_id: int
    from_card_id: int | None  # None: from the player's supply


@distinct_kind
class StrongholdRemoved(NamedTuple):
    """Strongholds: ``seat`` gave an opponent's stronghold on ``card_id`` back to ``owner``."""

    seat: int
    card_id: int
    owner: int


@distinct_kind
class StrongholdsReturned(NamedTuple):
    """Strongholds: a card left the market and the strongholds on it went back to their owner."""

    owner: int
    card_id: int
    returned: int  # how many strongholds


@distinct_kind
class CardConquered(NamedTuple):
    """Strongholds: the conquest purchase of the card all three strongholds stood on (CardPurchased follows)."""

    seat: int
    card_id: int


@distinct_kind
class CardPaired(NamedTuple):
    """The Orient: a paired card attached to an owned card, worth one bonus of its colour."""

    seat: int
    card_id: int
    partner_card_id: int
    color: int


@distinct_kind
class FreeCardTaken(NamedTuple):
    """The Orient: a face-up card taken for free by a card's ability."""

    seat: int
    card_id: int
    deck: int
    slot: int


@distinct_kind
class NobleReserved(NamedTuple):
    """The Orient: a noble set aside that only this seat can be visited by."""

    seat: int
    noble_id: int


@distinct_kind
class CardsDiscarded(NamedTuple):
    """The Orient: owned cards back to the box (gold cards spent, bonus cards sacrificed)."""

    seat: int
    card_ids: tuple[int, ...]


@distinct_kind
class DecisionRequired(NamedTuple):
    seat: int
    kind: DecisionKind
    amount: int
    options: tuple[int, ...]


@distinct_kind
class Passed(NamedTuple):
    seat: int


@distinct_kind
class FinalRoundTriggered(NamedTuple):
    seat: int  # the seat whose turn triggered it
    prestige: int


@distinct_kind
class TurnEnded(NamedTuple):
    seat: int
    next_seat: int
    turn: int  # turns completed after this one


@distinct_kind
class GameEnded(NamedTuple):
    reason: EndReason
    ranking: tuple[Standing, ...]
    winners: tuple[int, ...]


Event = (
    GameStarted
    | GemsTaken
    | GemsReturned
    | CardReserved
    | GoldReceived
    | CardPurchased
    | CardRevealed
    | MarketSlotEmptied
    | NobleVisited
    | CityClaimed
    | PowerGemTaken
    | ShieldPlaced
    | StrongholdPlaced
    | StrongholdRemoved
    | StrongholdsReturned
    | CardConquered
    | CardPaired
    | FreeCardTaken
    | NobleReserved
    | CardsDiscarded
    | DecisionRequired
    | Passed
    | FinalRoundTriggered
    | TurnEnded
    | GameEnded
)
