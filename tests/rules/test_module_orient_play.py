"""Random legal Orient games for 2, 3 and 4 players, and payment oracles on the positions they reach.

After every step: the state validates, every listed action is accepted, sampled
unlisted actions are refused without touching the state, and tokens and cards
are conserved (the box of discarded cards included).
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator
from itertools import chain, combinations, product

import pytest

from engine_service.rules import (
    ACTION_ID_COUNT,
    CARDS,
    CardKind,
    Event,
    GameConfig,
    GameState,
    NobleVisited,
    PurchaseCard,
    Reason,
    RuleViolation,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
    state_digest,
    validate_state,
)
from engine_service.rules.modules.orient import STATE as ORIENT_STATE
from engine_service.rules.modules.orient import CardsDiscarded, OrientState
from engine_service.rules.modules.strongholds import MOVE_STRONGHOLD
from tests.rules.helpers import GEMS_PER_COLOR

ORIENT = frozenset({"orient"})
TURN_GUARD = 400
SEEDS = range(6)


def orient_of(state: GameState) -> OrientState:
    assert ORIENT_STATE.find(state) is not None
    return ORIENT_STATE.find(state)


def random_game(players: int, seed: int) -> Iterator[tuple[GameState, list, object, GameState, tuple[Event, ...]]]:
    """(state, its legal actions, the chosen one, the next state, its events) along one random Orient game."""
    rng = random.Random(seed * 10 + players)
    state, _ = new_game(GameConfig(players, seed, modules=ORIENT, turn_limit=TURN_GUARD))
    while not state.is_over:
        actions = legal_actions(state)
        action = rng.choice(actions)
        after, events = apply(state, action)
        yield state, actions, action, after, events
        state = after


def every_card(state: GameState) -> list[int]:
    cards = [card for pile in state.decks for card in pile]
    cards += [card for row in state.market for card in row if card is not None]
    for player in state.players:
        cards += list(player.reserved) + list(player.purchased)
    return cards + [card for box in orient_of(state).discarded for card in box]


def check_refused(state: GameState, action: object) -> None:
    digest = state_digest(state)
    copy = state._replace()
    with pytest.raises(RuleViolation) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert isinstance(caught.value.reason, Reason) and caught.value.message
    assert state == copy and state_digest(state) == digest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_orient_games_keep_every_invariant_after_every_step(players: int) -> None:
    seen: Counter[str] = Counter()
    gems = GEMS_PER_COLOR[players]
    for seed in SEEDS:
        rng = random.Random(seed)
        steps = 0
        for before, actions, _, after, events in random_game(players, seed):
            validate_state(after)
            piles = [after.bank] + [player.tokens for player in after.players]
            assert tuple(map(sum, zip(*piles))) == (gems,) * 5 + (5,)
            assert sorted(every_card(after)) == list(range(len(CARDS)))
            if after.pending is None:
                assert all(sum(player.tokens) <= 10 for player in after.players)
            listed = {action_id(action) for action in actions}
            assert len(listed) == len(actions)
            for action in actions:
                apply(before, action)
            for value in rng.sample(range(ACTION_ID_COUNT), 6):
                if value not in listed:
                    check_refused(before, action_from_id(value))
            owned = before.players[before.acting_seat].purchased
            purchases = [a for a in actions if isinstance(a, PurchaseCard)]
            if purchases and owned:  # an arbitrary list of spent cards is accepted or refused cleanly
                spent = tuple(rng.sample(owned, min(len(owned), rng.randint(1, 3))))
                with contextlib.suppress(RuleViolation):
                    apply(before, PurchaseCard(rng.choice(purchases).card_id, None, spent))
            seen.update(type(event).__name__ for event in events)
            steps += 1
        assert steps < 3 * TURN_GUARD
    # The games went through the module's rules, not around them.
    for name in ("CardPaired", "FreeCardTaken", "NobleReserved", "CardsDiscarded"):
        assert seen[name], f"no {name} in {players}-player random games"


def test_random_orient_games_spend_gold_cards_sacrifice_and_visit_reserved_nobles() -> None:
    gold_spent = sacrificed = reserved_visits = 0
    for players in (2, 3, 4):
        for seed in range(6):
            for before, _, action, _, events in random_game(players, seed):
                reserved = set(chain.from_iterable(orient_of(before).reserved_nobles))
                for event in events:
                    if isinstance(event, CardsDiscarded):
                        kinds = {CARDS[card].kind for card in event.card_ids}
                        bought = CARDS[action.card_id].kind  # type: ignore[attr-defined]
                        if bought is CardKind.SACRIFICE:
                            sacrificed += 1
                            assert CardKind.GOLD_X2 not in kinds
                        else:
                            gold_spent += 1
                            assert kinds == {CardKind.GOLD_X2}
                    elif isinstance(event, NobleVisited) and event.noble_id in reserved:
                        assert event.noble_id in orient_of(before).reserved_nobles[event.seat]  # its holder only
                        reserved_visits += 1
    assert gold_spent and sacrificed and reserved_visits


def test_listed_orient_actions_are_exactly_the_actions_apply_accepts() -> None:
    candidates = range(MOVE_STRONGHOLD)  # moved strongholds are refused before any rule is read
    checked = 0
    for players in (2, 3, 4):
        for index, (before, actions, _, _, _) in enumerate(random_game(players, 11)):
            if index % 6:
                continue
            accepted = set()
            for value in candidates:
                try:
                    apply(before, action_from_id(value))
                except RuleViolation:
                    continue
                accepted.add(value)
            assert accepted == {action_id(action) for action in actions}
            checked += 1
    assert checked > 40


def gold_payment_is_valid(due: tuple[int, ...], held: tuple[int, ...], payment: tuple[int, ...], cards: int) -> bool:
    """The rule as written: coloured tokens within what is due, g <= r <= g + 2k, and no gold card to spare."""
    if any(p > h for p, h in zip(payment, held)) or any(p > d for p, d in zip(payment[:5], due)):
        return False
    rest = sum(due) - sum(payment[:5])
    gold = payment[5]
    return gold <= rest <= gold + 2 * cards and (cards == 0 or gold + 2 * (cards - 1) < rest)


def test_every_payment_with_gold_cards_follows_the_rule_and_no_other() -> None:
    checked = 0
    for players in (2, 3, 4):
        for seed in range(8):
            for before, actions, _, _, _ in random_game(players, seed):
                seat = before.seat
                player = before.players[seat]
                gold_cards = [card for card in player.purchased if CARDS[card].kind is CardKind.GOLD_X2]
                if before.pending is not None or not gold_cards:
                    continue
                boxed = set(orient_of(before).discarded[seat])
                purchases = [
                    a
                    for a in actions
                    if isinstance(a, PurchaseCard) and CARDS[a.card_id].kind is not CardKind.SACRIFICE
                ]
                for purchase in purchases[:2]:
                    due = tuple(max(0, c - b) for c, b in zip(CARDS[purchase.card_id].cost, player.bonuses))
                    # Every payment up to one token beyond what is due or held, with every set of gold cards.
                    ranges = [range(min(d, t) + 2) for d, t in zip(due, player.tokens)] + [range(player.tokens[5] + 2)]
                    subsets = [s for size in range(len(gold_cards) + 1) for s in combinations(gold_cards, size)]
                    for payment, spent in product(product(*ranges), subsets):
                        cards = len(spent)
                        if not spent:  # no list: the engine adds as few gold cards as the payment leaves to cover
                            cards = min(len(gold_cards), max(0, (sum(due) - sum(payment) + 1) // 2))
                        valid = gold_payment_is_valid(due, player.tokens, payment, cards)
                        try:
                            after, _ = apply(before, PurchaseCard(purchase.card_id, payment, spent))
                        except RuleViolation as error:
                            assert not valid, (payment, spent, error.message)
                            assert error.reason in (Reason.PAYMENT_INVALID, Reason.CARDS_SPENT_INVALID)
                            continue
                        assert valid, (payment, spent)
                        assert after.players[seat].tokens == tuple(t - p for t, p in zip(player.tokens, payment))
                        assert set(spent) <= set(orient_of(after).discarded[seat])
                        checked += 1
                    # The default spends as few gold cards as needed, after every gold token.
                    after, _ = apply(before, purchase)
                    used = set(orient_of(after).discarded[seat]) - boxed
                    rest = sum(due) - sum(min(d, t) for d, t in zip(due, player.tokens)) - player.tokens[5]
                    assert used == set(sorted(gold_cards)[: max(0, (rest + 1) // 2)])
    assert checked > 20


def sacrifice_is_valid(state: GameState, card_id: int, spent: tuple[int, ...]) -> bool:
    """The rule as written: paired cards of the colour first, then cards of the colour, none superfluous."""
    color, count = CARDS[card_id].sacrifice_color, CARDS[card_id].sacrifice_count
    player = state.players[state.seat]
    pairs = dict(orient_of(state).pairs[state.seat])
    paired = {card for card, partner in pairs.items() if CARDS[partner].bonus == color}
    value = {card: CARDS[card].bonus_count for card in player.purchased if CARDS[card].bonus == color}
    value.update(dict.fromkeys(paired, 1))
    if len(set(spent)) != len(spent) or not set(spent) <= set(value):
        return False
    total = sum(value[card] for card in spent)
    if total < count:
        return False
    if len(paired) >= count:
        return set(spent) <= paired and len(spent) == count
    return paired <= set(spent) and all(total - value[card] < count for card in spent if card not in paired)


def test_every_sacrifice_list_follows_the_rule_and_no_other() -> None:
    checked = 0
    for players in (2, 3, 4):
        for seed in range(10):
            for before, actions, _, _, _ in random_game(players, seed):
                purchases = [
                    a for a in actions if isinstance(a, PurchaseCard) and CARDS[a.card_id].kind is CardKind.SACRIFICE
                ]
                if before.pending is not None or not purchases:
                    continue
                owned = before.players[before.seat].purchased
                card_id = purchases[0].card_id
                for size in range(1, 4):
                    for spent in combinations(owned, size):
                        valid = sacrifice_is_valid(before, card_id, spent)
                        try:
                            _, events = apply(before, PurchaseCard(card_id, None, spent))
                        except RuleViolation as error:
                            assert not valid, (spent, error.message)
                            assert error.reason in (Reason.CARDS_SPENT_INVALID, Reason.SACRIFICE_NOT_POSSIBLE)
                            continue
                        assert valid, spent
                        assert CardsDiscarded(before.seat, spent) in events
                        checked += 1
                _, events = apply(before, purchases[0])
                discarded = next(e.card_ids for e in events if isinstance(e, CardsDiscarded))
                assert sacrifice_is_valid(before, card_id, discarded)
    assert checked > 20
