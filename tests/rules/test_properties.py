"""Properties of random legal play, for 2, 3 and 4 players.

Each example deals a game from a random seed and plays it to the end with a
``random.Random`` driven by the example, checking invariants along the way.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine_service.rules import (
    ACTION_ID_COUNT,
    BASE_CARDS,
    CARDS,
    SPECTATOR,
    EndReason,
    GameConfig,
    GameState,
    PurchaseCard,
    Reason,
    RuleViolation,
    TakeGems,
    TakeTwoGems,
    action_from_id,
    action_id,
    apply,
    events_for,
    legal_actions,
    new_game,
    state_digest,
    validate_state,
    view_for,
)
from tests.rules.helpers import GEMS_PER_COLOR, card_ids_shown, hidden_from

PROPERTY_SETTINGS = settings(max_examples=30, deadline=None)
# Random play ended within 176 turns in 9,000 measured games (2-4 players); three times that is the bound.
RANDOM_GAME_TURN_BOUND = 500

seeds = st.integers(min_value=0, max_value=2**64 - 1)
player_counts = st.sampled_from([2, 3, 4])


def _game(players: int, seed: int, turn_limit: int = 0):
    """Yield (state before, legal actions, chosen action, state after, events) along one random game."""
    rng = random.Random(seed)
    state, _ = new_game(GameConfig(players, seed, turn_limit=turn_limit))
    steps = 0
    while not state.is_over:
        actions = legal_actions(state)
        action = rng.choice(actions)
        after, events = apply(state, action)
        yield state, actions, action, after, events, rng
        state = after
        steps += 1
        assert steps < 4 * RANDOM_GAME_TURN_BOUND, "the game does not end"


def _token_totals(state: GameState) -> tuple[int, ...]:
    piles = [state.bank] + [player.tokens for player in state.players]
    return tuple(sum(pile[color] for pile in piles) for color in range(6))


def _all_cards(state: GameState) -> list[int]:
    cards = [card for pile in state.decks for card in pile]
    cards += [card for row in state.market for card in row if card is not None]
    for player in state.players:
        cards += list(player.reserved) + list(player.purchased)
    return cards


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_tokens_and_cards_are_conserved_after_every_step(players: int, seed: int) -> None:
    gems = GEMS_PER_COLOR[players]
    for _, _, _, after, _, _ in _game(players, seed):
        validate_state(after)
        assert _token_totals(after) == (gems,) * 5 + (5,)
        assert all(count >= 0 for count in after.bank)
        assert all(count >= 0 for player in after.players for count in player.tokens)
        assert sorted(_all_cards(after)) == list(range(len(BASE_CARDS)))
        for player in after.players:
            assert len(player.reserved) <= 3
            if after.pending is None:
                assert sum(player.tokens) <= 10


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_every_listed_legal_action_applies_without_error(players: int, seed: int) -> None:
    for before, actions, _, _, _, rng in _game(players, seed):
        assert actions, "a game in progress always offers an action"
        for action in rng.sample(actions, min(len(actions), 12)):
            after, events = apply(before, action, before.acting_seat)
            assert events
            if rng.random() < 0.1:
                validate_state(after)


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_gem_actions_never_take_gold_and_take_two_needs_four(players: int, seed: int) -> None:
    for before, actions, _, _, _, _ in _game(players, seed):
        for action in actions:
            if isinstance(action, TakeGems):
                assert 5 not in action.colors and len(set(action.colors)) == len(action.colors)
                available = sum(1 for count in before.bank[:5] if count)
                assert len(action.colors) == min(3, available)
            elif isinstance(action, TakeTwoGems):
                assert action.color != 5 and before.bank[action.color] >= 4


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_illegal_actions_are_refused_and_leave_the_state_unchanged(players: int, seed: int) -> None:
    for before, actions, _, _, _, rng in _game(players, seed):
        legal_ids = {action_id(action) for action in actions}
        assert len(legal_ids) == len(actions)
        digest = state_digest(before)
        copy = before._replace()
        for value in rng.sample(range(ACTION_ID_COUNT), 8):
            if value in legal_ids:
                continue
            try:
                apply(before, action_from_id(value))
            except RuleViolation as error:
                assert isinstance(error.reason, Reason)
            else:
                raise AssertionError(f"{action_from_id(value)} is not listed as legal but was accepted")
        assert before == copy and state_digest(before) == digest


def _valid_payments(player, cost) -> set[tuple[int, ...]]:
    due = [max(0, c - b) for c, b in zip(cost, player.bonuses)]
    payments = set()
    for coloured in product(*(range(min(d, t) + 1) for d, t in zip(due, player.tokens))):
        gold = sum(due) - sum(coloured)
        if gold <= player.tokens[5]:
            payments.add((*coloured, gold))
    return payments


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_every_exact_payment_is_accepted_and_no_other(players: int, seed: int) -> None:
    for before, actions, _, _, _, rng in _game(players, seed):
        purchases = [a for a in actions if isinstance(a, PurchaseCard)]
        if not purchases or before.pending is not None:
            continue
        purchase = rng.choice(purchases)
        player = before.players[before.seat]
        valid = _valid_payments(player, CARDS[purchase.card_id].cost)
        assert valid, "a listed purchase must have a payment"
        for payment in valid:
            after, _ = apply(before, PurchaseCard(purchase.card_id, payment))
            assert after.players[before.seat].tokens == tuple(t - p for t, p in zip(player.tokens, payment))
        for _ in range(5):
            payment = tuple(rng.randint(0, 3) for _ in range(6))
            if payment in valid:
                continue
            try:
                apply(before, PurchaseCard(purchase.card_id, payment))
            except RuleViolation as error:
                assert error.reason is Reason.PAYMENT_INVALID
            else:
                raise AssertionError(f"payment {payment} accepted; valid ones are {sorted(valid)}")


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_a_view_never_contains_a_hidden_card(players: int, seed: int) -> None:
    viewers = [*range(players), SPECTATOR]
    for _, _, _, after, events, _ in _game(players, seed):
        for viewer in viewers:
            hidden = hidden_from(after, viewer)
            shown = card_ids_shown(view_for(after, viewer))
            assert not hidden.intersection(shown), (viewer, hidden.intersection(shown))
            for event in events_for(events, viewer):
                leaked = hidden.intersection(card_ids_shown(event))
                assert not leaked, (viewer, event)


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_replaying_the_action_log_reproduces_the_final_state(players: int, seed: int) -> None:
    log = []
    final = None
    digests = []
    for _, _, action, after, _, _ in _game(players, seed):
        log.append(action)
        digests.append(state_digest(after))
        final = after
    assert final is not None
    state, _ = new_game(GameConfig(players, seed))
    for action, digest in zip(log, digests):
        state, _ = apply(state, action)
        assert state_digest(state) == digest
    assert state == final
    assert state_digest(state) == state_digest(final)


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_random_games_end_within_a_generous_bound(players: int, seed: int) -> None:
    final = None
    for _, _, _, after, _, _ in _game(players, seed):
        final = after
        assert after.turn <= RANDOM_GAME_TURN_BOUND
    assert final is not None and final.is_over
    assert final.end_reason in (EndReason.FINAL_ROUND_COMPLETED, EndReason.ALL_PLAYERS_PASSED)
    assert final.ranking and final.winners
    places = Counter(standing.place for standing in final.ranking)
    assert sorted(standing.seat for standing in final.ranking) == list(range(players))
    assert min(places) == 1
    if final.end_reason is EndReason.FINAL_ROUND_COMPLETED:
        assert final.turn % players == 0 and final.seat == final.first_seat
        assert max(player.prestige for player in final.players) >= 15


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds, turn_limit=st.integers(min_value=1, max_value=200))
def test_every_game_ends_under_a_turn_limit(players: int, seed: int, turn_limit: int) -> None:
    final = None
    for _, _, _, after, _, _ in _game(players, seed, turn_limit=turn_limit):
        final = after
        assert after.turn <= turn_limit
    assert final is not None and final.is_over
    if final.end_reason is EndReason.TURN_LIMIT_REACHED:
        assert final.turn == turn_limit
    else:
        assert final.turn <= turn_limit


@PROPERTY_SETTINGS
@given(players=player_counts, seed=seeds)
def test_every_game_ends_with_a_turn_limit_of_400(players: int, seed: int) -> None:
    final = None
    for _, _, _, after, _, _ in _game(players, seed, turn_limit=400):
        final = after
    assert final is not None and final.is_over and final.turn <= 400
