"""Cities of Splendor, module "The Strongholds": three strongholds per player on the face-up cards.

* Setup: the base game's; every seat's three strongholds start in its supply.
* Occupation: a face-up card holding another seat's stronghold can be neither
  reserved nor bought (``CARD_OCCUPIED``); blind reserves are unaffected. A card
  that leaves the market (bought or reserved by the owner, or conquered) gives
  its strongholds back to their owner.
* After every purchase (from the market or the reserve), before the bought card
  is replaced, the buyer must place one of their strongholds from the supply or
  move one of them to another face-up card holding no other seat's stronghold
  (stacking their own is allowed), or give one opponent's stronghold back to its
  owner (a PLACE_STRONGHOLD decision; applied at once when only one answer
  exists, skipped when none does).
* Conquest: after any main action (once its card is replaced), a player whose
  three strongholds stand on one face-up card they can afford may buy it (a
  CONQUER decision, or ``Decline``): the strongholds come back, one must be
  placed again before that card is replaced. All of it happens before the noble
  visit and the return of tokens above ten (rules README decision 8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ...actions import Action, Decline, MainAction, PurchaseCard, ReserveCard
from ...catalog import BASE_CARDS, BASE_DECKS, CARDS
from ...config import MAX_PLAYERS
from ...errors import Reason, RuleViolation
from ...events import Event, new_decision_required
from ...market import refill_market
from ...payment import can_afford
from ...plugin import ForbiddenCards, new_forbidden_cards
from ...purchase import purchase_card
from ...state import GameState, PendingDecision, new_pending_decision, with_pending
from ...turn import ask, wrong_answer
from .actions import PlaceStronghold, RemoveStronghold
from .decisions import CONQUER, PLACE_STRONGHOLD
from .events import CardConquered, StrongholdRemoved, StrongholdsReturned, new_stronghold_placed
from .state import STATE, StrongholdsState, new_strongholds_state

NAME: Final = "strongholds"
STRONGHOLDS_PER_PLAYER: Final = 3


BASE_ROWS: Final = len(BASE_DECKS)  # strongholds stand on base cards only
_COSTS: Final = tuple(card.cost for card in CARDS)


def setup(state: GameState) -> GameState:
    """The base setup; every stronghold starts in its owner's supply."""
    return STATE.put(state, StrongholdsState(((),) * state.config.num_players))


# Per seat, the cards under its placed strongholds (repeats: stacked).
Placed = tuple[tuple[int, ...], ...]


def placed_of(state: GameState) -> Placed:
    return STATE.of(state).placed


def _owner(placed: Placed, card_id: int, besides: int) -> int | None:
    """The seat other than ``besides`` whose strongholds stand on the card (at most one can)."""
    for owner, cards in enumerate(placed):
        if owner != besides and card_id in cards:
            return owner
    return None


# --- occupation ----------------------------------------------------------------


def check_main_action(state: GameState, action: MainAction) -> None:
    """Only a stronghold's owner may reserve or buy the face-up card it stands on."""
    if not isinstance(action, (ReserveCard, PurchaseCard)):
        return
    card_id = action.card_id
    seat = state.seat
    # Runs on every candidate action of every legal-action list: a plain loop, no helper call.
    for owner, cards in enumerate(STATE.of(state).placed):
        if card_id in cards and owner != seat:
            raise RuleViolation(
                Reason.CARD_OCCUPIED,
                f"card {card_id} holds a stronghold of seat {owner}: only that seat may reserve or buy it",
                card_id=str(card_id),
                owner=str(owner),
            )


_UNOCCUPIED: Final = ForbiddenCards()


def forbidden_cards(state: GameState) -> ForbiddenCards:
    """What ``check_main_action`` refuses, for the legal-action list: the cards under other seats' strongholds."""
    seat = state.seat
    placed = STATE.of(state).placed
    occupied = placed[1 - seat] if len(placed) == 2 else _others(placed, seat)  # two players: without a call
    if not occupied:
        return _UNOCCUPIED
    # The other seats' strongholds stay put for a few turns: reuse the seat's last answer when they have.
    last_occupied, last = _LAST_FORBIDDEN[seat]
    if occupied == last_occupied:
        return last
    cards = frozenset(occupied)
    forbidden = new_forbidden_cards(reserve=cards, purchase=cards)
    _LAST_FORBIDDEN[seat] = (occupied, forbidden)
    return forbidden


# Per seat, the other seats' strongholds at its last legal-action list and what they forbade: a memo only
# (the answer is a function of the key), so games and threads sharing it at worst compute it again.
_LAST_FORBIDDEN: Final[list[tuple[tuple[int, ...], ForbiddenCards]]] = [((), _UNOCCUPIED)] * MAX_PLAYERS


def _give_back(state: GameState, placed: Placed, card_id: int, events: list[Event]) -> tuple[GameState, Placed]:
    """The strongholds standing on a card that left the market go back to their owner."""
    for owner, cards in enumerate(placed):
        if card_id in cards:
            events.append(StrongholdsReturned(owner, card_id, cards.count(card_id)))
            kept = tuple(card for card in cards if card != card_id)
            placed = placed[:owner] + (kept,) + placed[owner + 1 :]
            return STATE.put(state, StrongholdsState(placed)), placed  # no other seat can stand there
    return state, placed


# --- placing, moving, removing ---------------------------------------------------------


def _others(placed: Placed, seat: int) -> tuple[int, ...]:
    """The cards under the other seats' strongholds (repeats for stacks)."""
    if len(placed) == 2:  # two players: the other seat's, with no tuple built
        return placed[1 - seat]
    others: tuple[int, ...] = ()
    for owner, cards in enumerate(placed):
        if cards and owner != seat:
            others += cards
    return others


Market = tuple[tuple[int | None, ...], ...]


def _targets(market: Market, blocked: tuple[int, ...]) -> tuple[int, ...]:
    """The face-up cards (sorted) outside ``blocked``, the other seats' cards: where the seat may put one."""
    face_up = market[0] + market[1] + market[2]  # the BASE_ROWS (three) rows, joined: cheaper than a nested loop
    if blocked:
        cards = [card for card in face_up if card is not None and card not in blocked]
    else:
        cards = [card for card in face_up if card is not None]
    cards.sort()
    return tuple(cards)


# Answers are immutable, so each possible one is built once and shared (this runs after every purchase).
_PLACE: Final = tuple(PlaceStronghold(card) for card in range(len(BASE_CARDS)))
_MOVE: Final = tuple(
    tuple(PlaceStronghold(card, source) for card in range(len(BASE_CARDS))) for source in range(len(BASE_CARDS))
)
_REMOVE: Final = tuple(RemoveStronghold(card) for card in range(len(BASE_CARDS)))


def placement_answers(state: GameState, seat: int) -> list[Action]:
    """Every answer to PLACE_STRONGHOLD: place from the supply, move one of the seat's own, remove another's."""
    placed = placed_of(state)
    others = _others(placed, seat)
    return _answers(placed[seat], others, _targets(state.market, others))


def _answers(own: tuple[int, ...], others: tuple[int, ...], targets: tuple[int, ...]) -> list[Action]:
    """The placement answers of a seat with strongholds on ``own``, the others' on ``others``.

    ``targets`` may be the cards a stronghold may go to, or the decision's options (the
    same but for the card under all three stacked, where a move may not go anyway).
    """
    answers: list[Action] = [_PLACE[card] for card in targets] if len(own) < STRONGHOLDS_PER_PLAYER else []
    if own:  # the moves of every source in one comprehension: fewer calls than one per source
        answers += [_MOVE[source][card] for source in _each_once(own) for card in targets if card != source]
    if others:
        answers += [_REMOVE[card] for card in _each_once(others)]
    return answers


def _each_once(cards: tuple[int, ...]) -> Sequence[int]:
    """The cards in card order, each once: the sources of moves, the removable strongholds."""
    if len(cards) < 2:
        return cards
    if len(cards) == 2 and cards[0] != cards[1]:  # the most common case after one: without a set and a sort
        return cards if cards[0] < cards[1] else (cards[1], cards[0])
    return sorted(set(cards))


def _answer_count(own: tuple[int, ...], others: tuple[int, ...], targets: tuple[int, ...]) -> int:
    """``len(_answers(own, others, targets))``, without building them."""
    count = len(targets) if len(own) < STRONGHOLDS_PER_PLAYER else 0
    for source in set(own):
        count += len(targets) - 1 if source in targets else len(targets)
    return count + len(set(others))


def placement_options(state: GameState, seat: int) -> tuple[int, ...]:
    """The cards a stronghold of the seat may be placed or moved onto (the PLACE_STRONGHOLD options)."""
    placed = placed_of(state)
    return _options(placed[seat], _targets(state.market, _others(placed, seat)))


def _options(own: tuple[int, ...], targets: tuple[int, ...]) -> tuple[int, ...]:
    if len(own) < STRONGHOLDS_PER_PLAYER or own.count(own[0]) < STRONGHOLDS_PER_PLAYER:
        return targets
    # All three stacked on one card: they can only move off it.
    return tuple(card for card in targets if card != own[0])


def _not_allowed(message: str, card_id: int, **details: str) -> RuleViolation:
    return RuleViolation(Reason.STRONGHOLD_NOT_ALLOWED, message, card_id=str(card_id), **details)


def _answer_placement(
    placed: Placed, seat: int, action: PlaceStronghold | RemoveStronghold, allowed: tuple[int, ...], events: list[Event]
) -> Placed:
    """Check a PLACE_STRONGHOLD answer and return where the strongholds stand after it (raises if refused).

    ``allowed``: the cards a stronghold of the seat may go to, or the decision's options, which
    leave out only the card under all three stacked (a move from it cannot go back onto it).
    """
    own = placed[seat]
    if type(action) is PlaceStronghold:
        card_id, source = action.card_id, action.from_card_id
        if source is None:
            if len(own) >= STRONGHOLDS_PER_PLAYER:
                raise _not_allowed(
                    f"all {STRONGHOLDS_PER_PLAYER} of your strongholds are placed: move one instead", card_id
                )
            kept = own
        else:
            if source not in own:
                raise _not_allowed(
                    f"none of your strongholds stands on card {source}", card_id, from_card_id=str(source)
                )
            if source == card_id:
                raise _not_allowed("a moved stronghold must go to another card", card_id, from_card_id=str(source))
            index = own.index(source)
            kept = own[:index] + own[index + 1 :]
        if card_id not in allowed:
            raise _not_allowed(f"card {card_id} is not a face-up card free of other players' strongholds", card_id)
        events.append(new_stronghold_placed(seat=seat, card_id=card_id, from_card_id=source))
        return placed[:seat] + (kept + (card_id,),) + placed[seat + 1 :]
    card_id = action.card_id
    owner = _owner(placed, card_id, seat)
    if owner is None:
        raise _not_allowed(f"no other player's stronghold stands on card {card_id}", card_id)
    theirs = placed[owner]
    index = theirs.index(card_id)
    events.append(StrongholdRemoved(seat, card_id, owner))
    return placed[:owner] + (theirs[:index] + theirs[index + 1 :],) + placed[owner + 1 :]


def _place_after_purchase(state: GameState, placed: Placed, events: list[Event]) -> GameState:
    """The mandatory placement after a purchase: asked, applied when only one answer exists, skipped when none."""
    seat = state.seat
    own = placed[seat]
    others = _others(placed, seat)
    targets = _targets(state.market, others)
    if len(own) < STRONGHOLDS_PER_PLAYER and len(targets) >= 2:
        # Most often one is still in the supply and may go to two cards at least: asked, the targets as options.
        return _ask_placement(state, seat, targets, events)
    count = _answer_count(own, others, targets)
    if count == 0:
        return state
    if count == 1:
        only = _answers(own, others, targets)[0]
        assert isinstance(only, (PlaceStronghold, RemoveStronghold))
        return STATE.put(state, StrongholdsState(_answer_placement(placed, seat, only, targets, events)))
    return _ask_placement(state, seat, _options(own, targets), events)


def _ask_placement(state: GameState, seat: int, options: tuple[int, ...], events: list[Event]) -> GameState:
    """``turn.ask`` spelt out for this decision: it is asked after about every other main action."""
    events.append(new_decision_required(seat=seat, kind=PLACE_STRONGHOLD, amount=0, options=options))
    pending = new_pending_decision(kind=PLACE_STRONGHOLD, seat=seat, amount=0, options=options)
    return with_pending(state, pending)


# --- conquest ---------------------------------------------------------------------


def conquerable(state: GameState, seat: int) -> int | None:
    """The card under all three of the seat's strongholds, if the seat can afford it."""
    return _conquerable(state, placed_of(state)[seat], seat)


def _conquerable(state: GameState, own: tuple[int, ...], seat: int) -> int | None:
    if len(own) != STRONGHOLDS_PER_PLAYER or not own[0] == own[1] == own[2]:
        return None
    card_id = own[0]
    return card_id if can_afford(state.players[seat], _COSTS[card_id]) else None


def _offer_conquest(state: GameState, placed: Placed, events: list[Event]) -> GameState:
    """Offer the conquest if it is possible, once the cards taken this turn are replaced.

    Without an offer the market is left to the turn's refill step, which runs right after
    this step (modules are played one at a time, so no other follow-up comes between):
    refilling here too would scan the market twice a step.
    """
    seat = state.seat
    own = placed[seat]
    if len(own) != STRONGHOLDS_PER_PLAYER:  # the common case, checked before any call
        return state
    card_id = _conquerable(state, own, seat)  # the refill changes neither the layout nor the purse
    if card_id is None:
        return state
    state = refill_market(state, events)
    return ask(state, PendingDecision(CONQUER, seat, options=(card_id,)), events)


def _conquer(state: GameState, card_id: int, action: PurchaseCard, events: list[Event]) -> GameState:
    """Buy the card under the three strongholds, take them back, and place one again."""
    if action.card_id != card_id:
        raise RuleViolation(
            Reason.CARD_NOT_AVAILABLE,
            f"only card {card_id}, under your three strongholds, can be conquered",
            card_id=str(action.card_id),
        )
    bought: list[Event] = []
    state = purchase_card(state, action, bought)  # validates first: raises before anything is announced
    events.append(CardConquered(state.seat, card_id))
    events.extend(bought)
    state, placed = _give_back(state, placed_of(state), card_id, events)
    state = _place_after_purchase(state, placed, events)
    if state.pending is not None:
        return state
    return _offer_conquest(state, placed_of(state), events)


# --- the follow-up step ------------------------------------------------------------


class StrongholdStep:
    """Hears every main action: gives back strongholds, asks the placement and offers the conquest."""

    decisions = (PLACE_STRONGHOLD, CONQUER)

    def follow(self, state: GameState, action: MainAction, events: list[Event]) -> GameState:
        # Main actions come here by their exact type (``engine._MAIN_ACTIONS``), so ``type`` tells them apart.
        placed = STATE.of(state).placed
        kind = type(action)
        if kind is PurchaseCard or kind is ReserveCard:
            assert isinstance(action, (PurchaseCard, ReserveCard))
            # ``check_main_action`` let the seat take the card: no other seat's stronghold stands on it.
            if action.card_id in placed[state.seat]:
                state, placed = _give_back(state, placed, action.card_id, events)
            if kind is PurchaseCard:
                state = _place_after_purchase(state, placed, events)
                if state.pending is not None:
                    return state
                placed = STATE.of(state).placed
        if len(placed[state.seat]) < STRONGHOLDS_PER_PLAYER:
            return state  # no conquest without all three placed: the common case, without a call
        return _offer_conquest(state, placed, events)

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        return state  # everything happens in ``follow`` and ``resolve``

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        pending = state.pending
        assert pending is not None
        if pending.kind is PLACE_STRONGHOLD:
            if type(action) is not PlaceStronghold and type(action) is not RemoveStronghold:
                raise wrong_answer(pending)
            # The options are the cards one may go to: the state's validation checked them.
            placed = _answer_placement(STATE.of(state).placed, pending.seat, action, pending.options, events)
            state = STATE.put_answered(state, new_strongholds_state(placed=placed))
            if len(placed[pending.seat]) < STRONGHOLDS_PER_PLAYER:
                return state  # no conquest without all three placed, as in ``follow``
            return _offer_conquest(state, placed, events)
        if type(action) is Decline:
            return with_pending(state, None)
        if type(action) is PurchaseCard:
            return _conquer(with_pending(state, None), pending.options[0], action, events)
        raise wrong_answer(pending)

    def choices(self, state: GameState) -> list[Action]:
        pending = state.pending
        assert pending is not None
        if pending.kind is PLACE_STRONGHOLD:
            seat = pending.seat
            placed = STATE.of(state).placed
            return _answers(placed[seat], _others(placed, seat), pending.options)
        return [PurchaseCard(pending.options[0]), Decline()]


STRONGHOLD_STEP: Final = StrongholdStep()
