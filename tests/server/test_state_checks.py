"""``validate_state``'s one-pass test against the checks it stands in for.

Every call from a client runs ``_holdings_consistent`` instead of the itemised
checks, which only run to name a fault. These tests corrupt many real states in
many ways and require the same outcome (accepted, or the same reason, field and
message) with the one-pass test as with the itemised checks alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine_service.rules import CARDS, NOBLES, GameState, PlayerState, RuleViolation, integrity, validate_state
from engine_service.rules.ruleset import ruleset_for
from tests.server.positions import random_states

Corruption = Callable[[random.Random, GameState], GameState]


def _outcome(state: GameState) -> tuple[str, str, str] | None:
    try:
        validate_state(state)
    except RuleViolation as violation:
        return violation.reason.name, violation.details.get("field", ""), violation.message
    except Exception as error:  # a crash must at least be the same crash
        return type(error).__name__, "", str(error)
    return None


def _itemised_outcome(state: GameState, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str] | None:
    with monkeypatch.context() as patch:
        patch.setattr(integrity, "_holdings_consistent", lambda state, ruleset: False)
        return _outcome(state)


def _with_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    return state._replace(players=state.players[:seat] + (player,) + state.players[seat + 1 :])


def _bump(values: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    index = rng.randrange(len(values))
    return values[:index] + (values[index] + rng.choice((-2, -1, 1, 2, 300)),) + values[index + 1 :]


def _bank(rng: random.Random, state: GameState) -> GameState:
    return state._replace(bank=_bump(state.bank, rng))


def _tokens(rng: random.Random, state: GameState) -> GameState:
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    return _with_player(state, seat, player._replace(tokens=_bump(player.tokens, rng)))


def _move_token(rng: random.Random, state: GameState) -> GameState:
    """Conserved totals, but a pile may go negative or a seat over ten."""
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    color = rng.randrange(min(len(state.bank), len(player.tokens)))
    amount = rng.choice((1, 3, 8))
    bank = state.bank[:color] + (state.bank[color] - amount,) + state.bank[color + 1 :]
    held = player.tokens[:color] + (player.tokens[color] + amount,) + player.tokens[color + 1 :]
    return _with_player(state._replace(bank=bank), seat, player._replace(tokens=held))


def _token_count(rng: random.Random, state: GameState) -> GameState:
    return state._replace(bank=state.bank + (0,) if rng.random() < 0.5 else state.bank[:5])


def _bonuses(rng: random.Random, state: GameState) -> GameState:
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    return _with_player(state, seat, player._replace(bonuses=_bump(player.bonuses, rng)))


def _bonus_overflow(rng: random.Random, state: GameState) -> GameState:
    """Counts that would alias in a packed integer: one colour 256 too many, the next one fewer."""
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    bonuses = list(player.bonuses)
    color = rng.randrange(len(bonuses) - 1)
    bonuses[color] += 256
    bonuses[color + 1] -= 1
    return _with_player(state, seat, player._replace(bonuses=tuple(bonuses)))


def _prestige(rng: random.Random, state: GameState) -> GameState:
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    return _with_player(state, seat, player._replace(prestige=player.prestige + rng.choice((-1, 1, 3))))


def _take_from_pile(state: GameState, rng: random.Random) -> tuple[GameState, int] | None:
    piles = [deck for deck, pile in enumerate(state.decks) if pile]
    if not piles:
        return None
    deck = rng.choice(piles)
    pile = state.decks[deck]
    index = rng.randrange(len(pile))
    decks = state.decks[:deck] + (pile[:index] + pile[index + 1 :],) + state.decks[deck + 1 :]
    return state._replace(decks=decks), pile[index]


def _card_to_player(rng: random.Random, state: GameState) -> GameState:
    """A card from a pile bought or reserved (figures left stale, or recomputed)."""
    taken = _take_from_pile(state, rng)
    if taken is None:
        return state
    state, card_id = taken
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    if rng.random() < 0.5:
        player = player._replace(reserved=player.reserved + (card_id,), reserved_blind=player.reserved_blind + (True,))
    else:
        card = CARDS[card_id % len(CARDS)]
        bonuses = list(player.bonuses)
        if 0 <= card_id < len(CARDS) and card.bonus is not None:
            bonuses[card.bonus] += card.bonus_count
        player = player._replace(
            purchased=player.purchased + (card_id,), bonuses=tuple(bonuses), prestige=player.prestige + card.points
        )
    return _with_player(state, seat, player)


def _duplicate_card(rng: random.Random, state: GameState) -> GameState:
    table = [card for deck, row in zip(state.decks, state.market) for card in deck + row if card is not None]
    if not table:
        return state
    card_id = rng.choice(table)
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    return _with_player(
        state,
        seat,
        player._replace(reserved=player.reserved + (card_id,), reserved_blind=player.reserved_blind + (False,)),
    )


def _lose_card(rng: random.Random, state: GameState) -> GameState:
    taken = _take_from_pile(state, rng)
    return state if taken is None else taken[0]


def _foreign_card(rng: random.Random, state: GameState) -> GameState:
    """A card in another deck's pile, or an id outside the catalog."""
    taken = _take_from_pile(state, rng)
    if taken is None:
        return state
    state, card_id = taken
    if rng.random() < 0.3:
        card_id = rng.choice((len(CARDS), 200, -1))
    deck = rng.randrange(len(state.decks))
    decks = state.decks[:deck] + (state.decks[deck] + (card_id,),) + state.decks[deck + 1 :]
    return state._replace(decks=decks)


def _empty_slot(rng: random.Random, state: GameState) -> GameState:
    """A slot emptied, its card moved to the bottom of its pile or into a hand, or the pile emptied too."""
    deck = rng.randrange(len(state.market))
    row = state.market[deck]
    slot = rng.randrange(len(row))
    card_id = row[slot]
    market = state.market[:deck] + (row[:slot] + (None,) + row[slot + 1 :],) + state.market[deck + 1 :]
    pile = state.decks[deck] + ((card_id,) if card_id is not None else ())
    if rng.random() < 0.5:
        seat = rng.randrange(len(state.players))
        player = state.players[seat]
        state = _with_player(
            state,
            seat,
            player._replace(
                reserved=player.reserved + pile, reserved_blind=player.reserved_blind + (False,) * len(pile)
            ),
        )
        pile = ()
    decks = state.decks[:deck] + (pile,) + state.decks[deck + 1 :]
    return state._replace(decks=decks, market=market)


def _row_length(rng: random.Random, state: GameState) -> GameState:
    deck = rng.randrange(len(state.market))
    row = state.market[deck]
    row = row[:-1] if rng.random() < 0.5 else row + (None,)
    return state._replace(market=state.market[:deck] + (row,) + state.market[deck + 1 :])


def _deck_count(rng: random.Random, state: GameState) -> GameState:
    if rng.random() < 0.5:
        return state._replace(decks=state.decks + ((),), market=state.market + ((None,) * 4,))
    return state._replace(decks=state.decks[:-1], market=state.market[:-1])


def _blind_flags(rng: random.Random, state: GameState) -> GameState:
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    return _with_player(state, seat, player._replace(reserved_blind=player.reserved_blind + (False,)))


def _noble(rng: random.Random, state: GameState) -> GameState:
    """A noble duplicated, unknown, or moved to a seat (figures stale or not), or one too many."""
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    choice = rng.randrange(4)
    if choice == 0 and state.nobles:
        return _with_player(state, seat, player._replace(nobles=player.nobles + (state.nobles[0],)))
    if choice == 1:
        return state._replace(nobles=state.nobles + (rng.choice((len(NOBLES), -1)),))
    if choice == 2 and state.nobles:
        noble = state.nobles[0]
        prestige = player.prestige + NOBLES[noble].points * rng.randrange(2)
        state = state._replace(nobles=state.nobles[1:])
        return _with_player(state, seat, player._replace(nobles=player.nobles + (noble,), prestige=prestige))
    spare = [noble for noble in range(len(NOBLES)) if noble not in state.nobles]
    return state._replace(nobles=state.nobles + tuple(spare[:1]))


CORRUPTIONS: tuple[Corruption, ...] = (
    _bank,
    _tokens,
    _move_token,
    _token_count,
    _bonuses,
    _bonus_overflow,
    _prestige,
    _card_to_player,
    _duplicate_card,
    _lose_card,
    _foreign_card,
    _empty_slot,
    _row_length,
    _deck_count,
    _blind_flags,
    _noble,
)


MODULES = (frozenset(), *(frozenset({name}) for name in ("trading_posts", "strongholds", "orient")))


def _states() -> list[GameState]:
    """States of random games of the base game and of each module (their extra holdings, decks and discards)."""
    return [
        state
        for modules in MODULES
        for players in (2, 3, 4)
        for state in random_states(players, seed=40 + players, every=4 if not modules else 12, modules=modules)
    ]


def test_real_states_pass_the_one_pass_test() -> None:
    states = _states()
    assert all(
        integrity._holdings_consistent(state, ruleset_for(state))
        for state in states
        if None not in sum(state.market, ())
    )


def test_corrupted_states_get_the_same_verdict_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2024)
    verdicts = {"accepted": 0, "refused": 0}
    for state in _states():
        for _ in range(12):
            corrupted = state
            for _ in range(rng.choice((1, 1, 2))):
                corrupted = rng.choice(CORRUPTIONS)(rng, corrupted)
            outcome = _outcome(corrupted)
            assert outcome == _itemised_outcome(corrupted, monkeypatch), corrupted
            verdicts["accepted" if outcome is None else "refused"] += 1
    assert verdicts["refused"] > 500 and verdicts["accepted"] > 10  # both sides really exercised
