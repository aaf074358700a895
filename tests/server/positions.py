"""Core game states for the server tests: random play and hand-built positions.

Positions start from a dealt game and move cards and tokens around without
creating or losing any, then recompute the derived figures, so every position
passes ``validate_state`` (checked before returning).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from engine_service.rules import (
    CARDS,
    NOBLES,
    Action,
    Event,
    GameConfig,
    GameState,
    PlayerState,
    apply,
    legal_actions,
    new_game,
    validate_state,
)

TURN_SAFETY = 600  # random games end long before this; a loop guard, not a rule
NO_MODULES: frozenset[str] = frozenset()


def dealt(num_players: int = 2, seed: int = 1, first_seat: int = 0, turn_limit: int = 0) -> GameState:
    state, _ = new_game(GameConfig(num_players, seed, first_seat=first_seat, turn_limit=turn_limit))
    return state


def random_game(
    num_players: int, seed: int, modules: frozenset[str] = NO_MODULES
) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    """(state, action, next state, events) for each move of a random game played to its end."""
    rng = random.Random(seed)
    state, _ = new_game(GameConfig(num_players, seed, modules=modules))
    while not state.is_over and state.turn < TURN_SAFETY:
        action = rng.choice(legal_actions(state))
        after, events = apply(state, action)
        yield state, action, after, events
        state = after


def random_states(num_players: int, seed: int, every: int = 1, modules: frozenset[str] = NO_MODULES) -> list[GameState]:
    """Every ``every``-th state of a random game, the final one included."""
    moves = list(random_game(num_players, seed, modules))
    return [before for index, (before, _, _, _) in enumerate(moves) if index % every == 0] + [moves[-1][2]]


def _remove_card(state: GameState, card_id: int) -> GameState:
    """The state without ``card_id`` on the table; a market slot it leaves is refilled from its deck."""
    deck = CARDS[card_id].deck
    pile = state.decks[deck]
    row = state.market[deck]
    if card_id in pile:
        pile = tuple(card for card in pile if card != card_id)
    elif card_id in row:
        slot = row.index(card_id)
        replacement = pile[0] if pile else None
        pile = pile[1:]
        row = row[:slot] + (replacement,) + row[slot + 1 :]
    else:
        raise ValueError(f"card {card_id} is not on the table")
    decks = state.decks[:deck] + (pile,) + state.decks[deck + 1 :]
    market = state.market[:deck] + (row,) + state.market[deck + 1 :]
    return state._replace(decks=decks, market=market)


def _recomputed(player: PlayerState) -> PlayerState:
    bonuses = [0] * 5
    for card_id in player.purchased:
        bonuses[CARDS[card_id].bonus] += 1
    prestige = sum(CARDS[card_id].points for card_id in player.purchased)
    prestige += sum(NOBLES[noble].points for noble in player.nobles)
    return player._replace(bonuses=tuple(bonuses), prestige=prestige)


def _update_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    players = state.players[:seat] + (_recomputed(player),) + state.players[seat + 1 :]
    return state._replace(players=players)


def give_tokens(state: GameState, seat: int, tokens: Sequence[int]) -> GameState:
    """Move six token counts from the bank to a seat."""
    bank = tuple(b - t for b, t in zip(state.bank, tokens))
    assert min(bank) >= 0, "the bank does not hold that many"
    player = state.players[seat]
    held = tuple(h + t for h, t in zip(player.tokens, tokens))
    return _update_player(state._replace(bank=bank), seat, player._replace(tokens=held))


def give_purchased(state: GameState, seat: int, card_ids: Iterable[int]) -> GameState:
    for card_id in card_ids:
        state = _remove_card(state, card_id)
        player = state.players[seat]
        state = _update_player(state, seat, player._replace(purchased=player.purchased + (card_id,)))
    return state


def give_reserved(state: GameState, seat: int, card_ids: Iterable[int], blind: bool = False) -> GameState:
    for card_id in card_ids:
        state = _remove_card(state, card_id)
        player = state.players[seat]
        player = player._replace(reserved=player.reserved + (card_id,), reserved_blind=player.reserved_blind + (blind,))
        state = _update_player(state, seat, player)
    return state


def empty_deck(state: GameState, deck: int, seat: int) -> GameState:
    """Hand a deck's whole draw pile to ``seat`` as purchased cards."""
    return give_purchased(state, seat, state.decks[deck])


def checked(state: GameState) -> GameState:
    validate_state(state)
    return state


def cards_with(bonus: int, level: int = 1) -> list[int]:
    return [card.id for card in CARDS if card.bonus == bonus and card.level == level]


def qualifying_for(noble_ids: Sequence[int]) -> list[int]:
    """Level-1 card ids whose bonuses meet every given noble's requirement."""
    need = [max(NOBLES[noble].requirement[color] for noble in noble_ids) for color in range(5)]
    return [card_id for color in range(5) for card_id in cards_with(color)[: need[color]]]
