"""The Orient: what a card does once acquired, resolved before the market is refilled.

The card whose ability is being resolved is always the seat's last purchased
card: a bought card, then each free card it brings, is appended to ``purchased``
when acquired. So the pending decision alone (its kind and options) is all the
memory the chain needs:

* PAIRED: pair it (PAIR_CARD) with an owned card with a printed bonus.
* PAIRED_TAKE_LEVEL1: pair it, then take a face-up level-1 card (TAKE_FREE_CARD).
* TAKE_LEVEL2: take a face-up level-2 card (TAKE_FREE_CARD).
* RESERVE_NOBLE: reserve a noble from the table (RESERVE_NOBLE).

A free card's own ability then resolves in turn (rules README decision 6). As
elsewhere in the engine, a single option is taken at once (its event still
tells) and no option skips the choice.
"""

from __future__ import annotations

from typing import Final

from ...actions import Action, MainAction, PurchaseCard
from ...catalog import CARD_ID_SPACE, CARDS, NOBLE_ID_SPACE, CardKind
from ...decisions import DecisionKind
from ...errors import Reason, RuleViolation
from ...events import Event
from ...market import find_in_market, remove_from_market
from ...state import GameState, PendingDecision, new_player_state, with_pending, with_player, with_table
from ...turn import ask, wrong_answer
from .actions import PairCard, ReserveNoble, TakeFreeCard
from .cards import BONUS, BONUS_COUNT, KIND, POINTS, face_up, orient_of, partners
from .decisions import PAIR_CARD, RESERVE_NOBLE, TAKE_FREE_CARD
from .events import new_card_paired, new_free_card_taken, new_noble_reserved
from .state import new_orient_state, with_orient

_HAS_ABILITY: Final = tuple(
    card.kind in (CardKind.PAIRED, CardKind.PAIRED_TAKE_LEVEL1, CardKind.TAKE_LEVEL2, CardKind.RESERVE_NOBLE)
    for card in CARDS
)
_PAIR: Final = tuple(PairCard(card_id) for card_id in range(CARD_ID_SPACE))
_TAKE: Final = tuple(TakeFreeCard(card_id) for card_id in range(CARD_ID_SPACE))
_RESERVE: Final = tuple(ReserveNoble(noble_id) for noble_id in range(NOBLE_ID_SPACE))
_ANSWERS: Final[dict[DecisionKind, tuple[Action, ...]]] = {
    PAIR_CARD: _PAIR,
    TAKE_FREE_CARD: _TAKE,
    RESERVE_NOBLE: _RESERVE,
}


class ResolveAbility:
    """The follow-up step of a purchase: the bought card's ability, then its free cards' abilities."""

    decisions = (PAIR_CARD, TAKE_FREE_CARD, RESERVE_NOBLE)

    def follow(self, state: GameState, action: MainAction, events: list[Event]) -> GameState:
        if type(action) is not PurchaseCard or not _HAS_ABILITY[action.card_id]:
            return state
        return card_ability(state, state.seat, action.card_id, events)

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        return state  # everything happens in ``follow``, which hears the purchase

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        pending = state.pending
        assert pending is not None
        seat = pending.seat
        kind = pending.kind
        if kind == PAIR_CARD:
            if type(action) is not PairCard:
                raise wrong_answer(pending)
            if action.card_id not in pending.options:
                raise RuleViolation(
                    Reason.PAIRING_NOT_POSSIBLE,
                    f"card {action.card_id} is not one of the owned cards with a bonus {list(pending.options)}",
                    card_id=str(action.card_id),
                )
            return _pair(with_pending(state, None), seat, action.card_id, events)
        if kind == TAKE_FREE_CARD:
            if type(action) is not TakeFreeCard:
                raise wrong_answer(pending)
            if action.card_id not in pending.options:
                raise RuleViolation(
                    Reason.CARD_NOT_AVAILABLE,
                    f"card {action.card_id} is not one of the face-up cards offered {list(pending.options)}",
                    card_id=str(action.card_id),
                )
            return _take_free(with_pending(state, None), seat, action.card_id, events)
        if type(action) is not ReserveNoble:
            raise wrong_answer(pending)
        if action.noble_id not in pending.options:
            raise RuleViolation(
                Reason.NOBLE_NOT_AVAILABLE,
                f"noble {action.noble_id} is not one of the nobles on the table {list(pending.options)}",
                noble_id=str(action.noble_id),
            )
        return _reserve_noble(with_pending(state, None), seat, action.noble_id, events)

    def choices(self, state: GameState) -> list[Action]:
        pending = state.pending
        assert pending is not None
        answers = _ANSWERS[pending.kind]
        return [answers[option] for option in pending.options]


def card_ability(state: GameState, seat: int, card_id: int, events: list[Event]) -> GameState:
    """Resolve the ability of ``card_id``, just acquired (the seat's last purchased card)."""
    kind = KIND[card_id]
    if kind is CardKind.PAIRED or kind is CardKind.PAIRED_TAKE_LEVEL1:
        options = partners(state.players[seat].purchased)
        if len(options) > 1:
            return ask(state, PendingDecision(PAIR_CARD, seat, options=options), events)
        if options:
            return _pair(state, seat, options[0], events)
        return _after_pairing(state, seat, card_id, events)  # cannot happen: buying it needs a bonus card
    if kind is CardKind.TAKE_LEVEL2:
        return _offer_free_card(state, seat, 2, events)
    if kind is CardKind.RESERVE_NOBLE:
        options = state.nobles
        if len(options) > 1:
            return ask(state, PendingDecision(RESERVE_NOBLE, seat, options=options), events)
        if options:
            return _reserve_noble(state, seat, options[0], events)
    return state


def _pair(state: GameState, seat: int, partner: int, events: list[Event]) -> GameState:
    """Attach the seat's last purchased card (a paired card) to ``partner``: one bonus of its colour."""
    player = state.players[seat]
    paired = player.purchased[-1]
    color = BONUS[partner]
    assert color is not None
    bonuses = list(player.bonuses)
    bonuses[color] += 1
    orient = orient_of(state)
    pairs = orient.pairs
    pairs = pairs[:seat] + (pairs[seat] + ((paired, partner),),) + pairs[seat + 1 :]
    events.append(new_card_paired(seat=seat, card_id=paired, partner_card_id=partner, color=color))
    p = player
    player = new_player_state(
        tokens=p.tokens,
        bonuses=tuple(bonuses),
        prestige=p.prestige,
        purchased=p.purchased,
        reserved=p.reserved,
        reserved_blind=p.reserved_blind,
        nobles=p.nobles,
    )
    players = with_player(state.players, seat, player)
    orient = new_orient_state(pairs=pairs, reserved_nobles=orient.reserved_nobles, discarded=orient.discarded)
    state = with_orient(state, players, orient, state.pending)
    return _after_pairing(state, seat, paired, events)


def _after_pairing(state: GameState, seat: int, card_id: int, events: list[Event]) -> GameState:
    if KIND[card_id] is CardKind.PAIRED_TAKE_LEVEL1:
        return _offer_free_card(state, seat, 1, events)
    return state


def _offer_free_card(state: GameState, seat: int, level: int, events: list[Event]) -> GameState:
    options = face_up(state, level)
    if len(options) > 1:
        return ask(state, PendingDecision(TAKE_FREE_CARD, seat, options=options), events)
    if options:
        return _take_free(state, seat, options[0], events)
    return state


def _take_free(state: GameState, seat: int, card_id: int, events: list[Event]) -> GameState:
    """The face-up card joins the seat's cards at no cost; the refill waits for the end of the chain."""
    deck = CARDS[card_id].deck
    slot = find_in_market(state, card_id)
    assert slot is not None
    events.append(new_free_card_taken(seat=seat, card_id=card_id, deck=deck, slot=slot))
    market = remove_from_market(state.market, state.decks, deck, slot, events)
    player = state.players[seat]
    bonuses = player.bonuses
    color = BONUS[card_id]
    if color is not None:
        added = list(bonuses)
        added[color] += BONUS_COUNT[card_id]
        bonuses = tuple(added)
    p = player
    prestige = p.prestige + POINTS[card_id]
    purchased = p.purchased + (card_id,)
    player = new_player_state(
        tokens=p.tokens,
        bonuses=bonuses,
        prestige=prestige,
        purchased=purchased,
        reserved=p.reserved,
        reserved_blind=p.reserved_blind,
        nobles=p.nobles,
    )
    state = with_table(state, state.bank, market, state.decks, with_player(state.players, seat, player))
    return card_ability(state, seat, card_id, events)


def _reserve_noble(state: GameState, seat: int, noble_id: int, events: list[Event]) -> GameState:
    """The noble leaves the table for the seat: only that seat can now be visited by it. No gold."""
    orient = orient_of(state)
    held = orient.reserved_nobles
    held = held[:seat] + (held[seat] + (noble_id,),) + held[seat + 1 :]
    events.append(new_noble_reserved(seat=seat, noble_id=noble_id))
    nobles = tuple([noble for noble in state.nobles if noble != noble_id])
    orient = new_orient_state(pairs=orient.pairs, reserved_nobles=held, discarded=orient.discarded)
    return with_orient(state, state.players, orient, state.pending, nobles)


RESOLVE_ABILITY: Final = ResolveAbility()
