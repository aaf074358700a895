"""The base game's properties of random legal play, for each Cities of Splendor module.

Each example deals a game with one module from a random seed and plays it to the
end with a ``random.Random`` driven by the example: tokens and cards are
conserved (the Orient's discards included), every state passes the integrity
check, an illegal action is refused without touching the state, no view or
event shows a hidden card, the action log replays to the same state, and the
game ends well within a turn bound.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine_service.rules import (
    ACTION_ID_COUNT,
    SPECTATOR,
    GameConfig,
    GameState,
    Reason,
    RuleViolation,
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
from engine_service.rules.ruleset import ruleset_for
from tests.rules.helpers import GEMS_PER_COLOR, card_ids_shown, hidden_from
from tests.rulesets import MODULE_NAMES

MODULE_SETTINGS = settings(max_examples=8, deadline=None)
# Random play ended within 176 turns in 1,200 measured module games (2-4 players); the bound is far above.
MODULE_TURN_BOUND = 500

modules = st.sampled_from(MODULE_NAMES)
seeds = st.integers(min_value=0, max_value=2**64 - 1)
player_counts = st.sampled_from([2, 3, 4])


def _config(module: str, players: int, seed: int) -> GameConfig:
    return GameConfig(players, seed, modules=frozenset({module}))


def _game(module: str, players: int, seed: int):
    """Yield (state before, legal actions, chosen action, state after, events, rng) along one random game."""
    rng = random.Random(seed)
    state, _ = new_game(_config(module, players, seed))
    while not state.is_over:
        assert state.turn <= MODULE_TURN_BOUND, "the game does not end"
        actions = legal_actions(state)
        assert actions, "a game in progress always offers an action"
        action = rng.choice(actions)
        after, events = apply(state, action)
        yield state, actions, action, after, events, rng
        state = after


def _cards_everywhere(state: GameState) -> list[int]:
    """Every card id in the decks, the market, the seats' hands and tableaus, and out of play."""
    cards = [card for pile in state.decks for card in pile]
    cards += [card for row in state.market for card in row if card is not None]
    for player in state.players:
        cards += list(player.reserved) + list(player.purchased)
    for module in ruleset_for(state).modules:
        if module.out_of_play is not None:
            cards += list(module.out_of_play(state))
    return cards


@MODULE_SETTINGS
@given(module=modules, players=player_counts, seed=seeds)
def test_tokens_and_cards_are_conserved_in_every_module(module: str, players: int, seed: int) -> None:
    gems = GEMS_PER_COLOR[players]
    for _, _, _, after, _, _ in _game(module, players, seed):
        validate_state(after)
        piles = [after.bank] + [player.tokens for player in after.players]
        assert tuple(sum(pile[color] for pile in piles) for color in range(6)) == (gems,) * 5 + (5,)
        assert min(min(pile) for pile in piles) >= 0
        cards = _cards_everywhere(after)
        assert len(cards) == len(set(cards)), "a card is in two places"
        assert set(cards) == ruleset_for(after).all_cards
        if after.pending is None:
            assert all(sum(player.tokens) <= 10 for player in after.players)


@MODULE_SETTINGS
@given(module=modules, players=player_counts, seed=seeds)
def test_illegal_actions_are_refused_untouched_in_every_module(module: str, players: int, seed: int) -> None:
    for before, actions, _, _, _, rng in _game(module, players, seed):
        legal_ids = {action_id(action) for action in actions}
        assert len(legal_ids) == len(actions), "two legal actions share an id"
        digest, copy = state_digest(before), before._replace()
        for value in rng.sample(range(ACTION_ID_COUNT), 6):
            if value in legal_ids:
                continue
            try:
                apply(before, action_from_id(value))
            except RuleViolation as error:
                assert isinstance(error.reason, Reason)
            else:
                raise AssertionError(f"{action_from_id(value)} is not listed as legal but was accepted")
        assert before == copy and state_digest(before) == digest


@MODULE_SETTINGS
@given(module=modules, players=player_counts, seed=seeds)
def test_views_and_events_never_show_a_hidden_card_in_any_module(module: str, players: int, seed: int) -> None:
    viewers = [*range(players), SPECTATOR]
    for _, _, _, after, events, _ in _game(module, players, seed):
        for viewer in viewers:
            hidden = hidden_from(after, viewer)
            assert not hidden.intersection(card_ids_shown(view_for(after, viewer))), viewer
            for event in events_for(events, viewer):
                assert not hidden.intersection(card_ids_shown(event)), (viewer, event)


@MODULE_SETTINGS
@given(module=modules, players=player_counts, seed=seeds)
def test_replay_reproduces_every_module_game_and_it_ends(module: str, players: int, seed: int) -> None:
    log, digests, final = [], [], None
    for _, _, action, after, _, _ in _game(module, players, seed):
        log.append(action)
        digests.append(state_digest(after))
        final = after
    assert final is not None and final.is_over and final.ranking and final.winners
    state, _ = new_game(_config(module, players, seed))
    for action, digest in zip(log, digests):
        state, _ = apply(state, action)
        assert state_digest(state) == digest
    assert state == final
