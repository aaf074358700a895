"""Builders of ``Action`` messages, so a move reads like the rules.

>>> from splendor_client import actions
>>> move = actions.take_gems("red", "blue", "green")
>>> move = actions.purchase(57, payment={"red": 3, "gold": 1})
>>> move = actions.reserve_from_deck(0)  # deck 0 is the level 1 deck
>>> move = actions.take_gem("red")  # answer to a Trading Posts TAKE_GEM decision

The builders check only what they need to build a message (colour names, counts
that are not negative); whether the move is legal is for the engine to say.
Anything that takes an action (``EngineClient.apply``, ``EngineClient.replay``)
also accepts a ``LegalAction`` or a bare action id: see ``as_action``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from splendor.v1 import actions_pb2

from .colors import ColorLike, CountsLike, token_counts
from .colors import color as _color

ActionLike: TypeAlias = actions_pb2.Action | actions_pb2.LegalAction | int
"""An ``Action``, a ``LegalAction`` (its ``.action`` is used) or a stable action id."""

BASE_LEVELS = (1, 2, 3)


def take_gems(*colors: ColorLike) -> actions_pb2.Action:
    """Take one gem of each colour: three different colours (or every colour left when fewer remain)."""
    return actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=[_color(value) for value in colors]))


def take_two(color: ColorLike) -> actions_pb2.Action:
    """Take two gems of one colour (the bank must hold at least four of it)."""
    return actions_pb2.Action(take_two_gems=actions_pb2.TakeTwoGems(color=_color(color)))


def reserve(card_id: int) -> actions_pb2.Action:
    """Reserve a face-up card of the market (and take a gold if any is left)."""
    return actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=_non_negative("card_id", card_id)))


def reserve_from_deck(deck: int | None = None, *, level: int | None = None) -> actions_pb2.Action:
    """Reserve the top card of a deck, unseen by the others.

    ``deck`` is the deck id as in the protocol: **0, 1, 2 for levels 1, 2, 3**
    (3-5 for the Orient decks). Alternatively pass ``level=1..3`` for the base decks:
    ``reserve_from_deck(level=1) == reserve_from_deck(0)``.
    """
    if (deck is None) == (level is None):
        raise TypeError("reserve_from_deck takes either a deck id or level=, not both or neither")
    if level is not None:
        if level not in BASE_LEVELS:
            raise ValueError(f"level must be 1, 2 or 3, not {level}")
        deck = level - 1
    assert deck is not None
    return actions_pb2.Action(reserve_from_deck=actions_pb2.ReserveFromDeck(deck=_non_negative("deck", deck)))


def purchase(
    card_id: int, payment: CountsLike | None = None, *, cards_spent: Iterable[int] | None = None
) -> actions_pb2.Action:
    """Buy a face-up card or one of your reserved cards.

    ``payment`` is what to pay after bonuses, as a mapping of colour name to count
    (``{"red": 3, "gold": 1}``) or a ``TokenCounts``; ``None`` lets the engine pay
    coloured tokens first and gold for the rest.

    ``cards_spent`` (the Orient) are owned cards given up for this purchase: gold
    cards spent (two gold each) or the bonus cards a sacrifice card discards.
    ``None`` (or an empty list) lets the engine choose; a list is sent as given.
    """
    move = actions_pb2.PurchaseCard(card_id=_non_negative("card_id", card_id))
    if payment is not None:
        move.payment.CopyFrom(token_counts(payment))
    if cards_spent is not None:
        move.cards_spent.SetInParent()  # present even when empty: sent exactly as given
        move.cards_spent.card_ids.extend(_non_negative("cards_spent", spent) for spent in cards_spent)
    return actions_pb2.Action(purchase_card=move)


def pass_turn() -> actions_pb2.Action:
    """Do nothing; legal only when no other main action is."""
    action = actions_pb2.Action()
    getattr(action, "pass").SetInParent()  # ``pass`` is a Python keyword, so no constructor argument
    return action


def return_tokens(tokens: CountsLike | None = None, /, **counts: int) -> actions_pb2.Action:
    """Answer a return-tokens decision: ``return_tokens(red=1, gold=1)`` or ``return_tokens({"red": 1})``."""
    return actions_pb2.Action(return_tokens=actions_pb2.ReturnTokens(tokens=token_counts(tokens, **counts)))


def choose_noble(noble_id: int) -> actions_pb2.Action:
    """Answer a choose-noble decision with one of the qualifying nobles."""
    return actions_pb2.Action(choose_noble=actions_pb2.ChooseNoble(noble_id=_non_negative("noble_id", noble_id)))


def choose_city(city_id: int) -> actions_pb2.Action:
    """Answer a choose-city decision (the Cities) with one of the qualifying cities."""
    return actions_pb2.Action(choose_city=actions_pb2.ChooseCity(city_id=_non_negative("city_id", city_id)))


def take_gem(color: ColorLike) -> actions_pb2.Action:
    """Answer a take-gem decision (the Trading Posts) with the colour of the gem a power grants."""
    return actions_pb2.Action(take_gem=actions_pb2.TakeGem(color=_color(color)))


def place_stronghold(card_id: int, from_card_id: int | None = None) -> actions_pb2.Action:
    """Answer a place-stronghold decision (the Strongholds): put one of your strongholds on a face-up card.

    ``from_card_id`` ``None`` places one from your supply; a card id moves the one standing on that card.
    """
    move = actions_pb2.PlaceStronghold(card_id=_non_negative("card_id", card_id))
    if from_card_id is not None:
        move.from_card_id = _non_negative("from_card_id", from_card_id)
    return actions_pb2.Action(place_stronghold=move)


def remove_stronghold(card_id: int) -> actions_pb2.Action:
    """Answer a place-stronghold decision (the Strongholds) by giving back an opponent's stronghold on a card."""
    return actions_pb2.Action(remove_stronghold=actions_pb2.RemoveStronghold(card_id=_non_negative("card_id", card_id)))


def decline() -> actions_pb2.Action:
    """Answer a conquer decision (the Strongholds): do not buy the card."""
    return actions_pb2.Action(decline=actions_pb2.Decline())


def pair_card(card_id: int) -> actions_pb2.Action:
    """Answer a pair-card decision (the Orient) with the owned card the paired card attaches to."""
    return actions_pb2.Action(pair_card=actions_pb2.PairCard(card_id=_non_negative("card_id", card_id)))


def take_free_card(card_id: int) -> actions_pb2.Action:
    """Answer a take-free-card decision (the Orient) with the face-up card to take."""
    return actions_pb2.Action(take_free_card=actions_pb2.TakeFreeCard(card_id=_non_negative("card_id", card_id)))


def reserve_noble(noble_id: int) -> actions_pb2.Action:
    """Answer a reserve-noble decision (the Orient) with the noble only you can then be visited by."""
    return actions_pb2.Action(reserve_noble=actions_pb2.ReserveNoble(noble_id=_non_negative("noble_id", noble_id)))


def by_id(action_id: int) -> actions_pb2.Action:
    """Any action by its stable id (see ``Catalog.action_id_ranges``); purchases use the default payment."""
    return actions_pb2.Action(action_id=_non_negative("action_id", action_id))


def as_action(action: ActionLike) -> actions_pb2.Action:
    """The ``Action`` of an ``Action``, a ``LegalAction`` or an action id."""
    if isinstance(action, actions_pb2.Action):
        return action
    if isinstance(action, actions_pb2.LegalAction):
        if action.HasField("action"):
            return action.action
        return by_id(action.action_id)
    if isinstance(action, bool) or not isinstance(action, int):
        raise TypeError(f"expected an Action, a LegalAction or an action id, not {type(action).__name__}")
    return by_id(action)


def kind(action: ActionLike) -> str:
    """The kind of an action, named like its ``Action`` field (``"take_gems"``, ``"pass"``...; ``""`` if empty)."""
    return as_action(action).WhichOneof("kind") or ""


def _non_negative(name: str, value: int) -> int:
    if isinstance(value, bool) or int(value) != value or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
    return int(value)


__all__ = [
    "ActionLike",
    "as_action",
    "by_id",
    "choose_city",
    "choose_noble",
    "decline",
    "kind",
    "pair_card",
    "pass_turn",
    "place_stronghold",
    "purchase",
    "remove_stronghold",
    "reserve",
    "reserve_from_deck",
    "reserve_noble",
    "return_tokens",
    "take_free_card",
    "take_gem",
    "take_gems",
    "take_two",
]
