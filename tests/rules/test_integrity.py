"""validate_state: states from clients are checked before the engine trusts them."""

from __future__ import annotations

import pytest

from engine_service.rules import GameConfig, GameState, Reason, RuleViolation, TakeGems, apply, new_game, validate_state
from tests.rules.helpers import position, tokens


def _base() -> GameState:
    return position(3, seed=31, held={0: tokens(white=2, gold=1)}, purchased={1: [0, 8]}, reserved={2: [40]})


def _invalid(state: GameState, field: str | None = None) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        validate_state(state)
    assert caught.value.reason is Reason.INVALID_STATE
    if field is not None:
        assert caught.value.details.get("field", "").startswith(field), caught.value.details
    return caught.value


def _with_player(state: GameState, seat: int, **changes) -> GameState:
    players = list(state.players)
    players[seat] = players[seat]._replace(**changes)
    return state._replace(players=tuple(players))


def test_validate_state_accepts_a_consistent_position() -> None:
    validate_state(_base())


@pytest.mark.parametrize("card", [90, 120, -1])
def test_validate_state_rejects_an_unknown_card_id_held_by_a_player(card: int) -> None:
    state = _base()
    _invalid(_with_player(state, 2, reserved=(40, card), reserved_blind=(False, False)), "players[2]")


def test_validate_state_rejects_an_unknown_card_id_in_the_market() -> None:
    state = _base()
    row = (95,) + state.market[0][1:]
    _invalid(state._replace(market=(row,) + state.market[1:]), "decks[0]")


def test_validate_state_rejects_a_card_of_another_level_in_a_deck() -> None:
    state = _base()
    decks = state.decks
    moved = (decks[0] + (decks[2][0],), decks[1], decks[2][1:])
    _invalid(state._replace(decks=moved), "decks[0]")


def test_validate_state_rejects_a_card_in_two_places() -> None:
    state = _base()
    card = state.market[0][0]
    _invalid(_with_player(state, 0, reserved=(card,), reserved_blind=(False,)), "decks")


def test_validate_state_rejects_a_card_missing() -> None:
    state = _base()
    _invalid(state._replace(decks=(state.decks[0][1:],) + state.decks[1:]), "decks")


def test_validate_state_rejects_negative_tokens() -> None:
    state = _base()
    # conserved in total, but a pile goes below zero
    bad = _with_player(state, 0, tokens=tokens(white=-1, gold=1))
    _invalid(bad._replace(bank=(state.bank[0] + 3,) + state.bank[1:]), "players[0].tokens")
    _invalid(state._replace(bank=(-1,) + state.bank[1:]), "bank")


def test_validate_state_rejects_too_many_tokens() -> None:
    state = _base()
    _invalid(_with_player(state, 1, tokens=tokens(red=1)), "bank")  # one red too many in the game
    _invalid(state._replace(bank=state.bank[:5] + (state.bank[5] + 1,)), "bank")  # a sixth gold


def test_validate_state_rejects_a_token_tuple_of_the_wrong_length() -> None:
    state = _base()
    _invalid(_with_player(state, 0, tokens=(2, 0, 0, 0, 0, 1, 0)), "players[0].tokens")


def test_validate_state_rejects_more_than_ten_tokens_between_turns() -> None:
    state = position(4, held={1: tokens(white=3, blue=3, green=3, red=1)})
    validate_state(state)
    over = _with_player(state, 1, tokens=tokens(white=3, blue=3, green=3, red=2))
    _invalid(over._replace(bank=over.bank[:3] + (over.bank[3] - 1,) + over.bank[4:]), "players[1].tokens")


@pytest.mark.parametrize(("field", "value"), [("seat", 3), ("seat", -1), ("first_seat", 3), ("first_seat", -1)])
def test_validate_state_rejects_a_seat_out_of_range(field: str, value: int) -> None:
    _invalid(_base()._replace(**{field: value}), field)


def test_validate_state_rejects_a_player_count_mismatch() -> None:
    state = _base()
    _invalid(state._replace(players=state.players[:2]), "players")


def test_validate_state_rejects_wrong_bonuses() -> None:
    state = _base()
    _invalid(_with_player(state, 1, bonuses=(1, 0, 0, 0, 0)), "players[1].bonuses")
    _invalid(_with_player(state, 0, bonuses=(1, 0, 0, 0, 0)), "players[0].bonuses")


def test_validate_state_rejects_wrong_prestige() -> None:
    _invalid(_with_player(_base(), 1, prestige=3), "players[1].prestige")


def test_validate_state_rejects_more_than_three_reserved_cards() -> None:
    state = _base()
    hand = (40,) + state.decks[1][:3]
    decks = (state.decks[0], state.decks[1][3:], state.decks[2])
    _invalid(_with_player(state, 2, reserved=hand, reserved_blind=(False,) * 4)._replace(decks=decks), "players[2]")


def test_validate_state_rejects_a_noble_in_two_places() -> None:
    state = _base()
    _invalid(_with_player(state, 0, nobles=(state.nobles[0],), prestige=3), "nobles")


def test_validate_state_rejects_a_ranking_before_the_end() -> None:
    state = position(2, seed=31)
    ended = position(2, seed=31, seat=1, turn=1, final_round=True)
    over, _ = apply(ended, TakeGems((0, 1, 2)))
    assert over.ranking
    _invalid(state._replace(ranking=over.ranking), "ranking")


def test_validate_rejects_an_extra_empty_deck_instead_of_crashing() -> None:
    """Regression: an extra empty deck with an empty market row used to escape as StopIteration."""
    state, _ = new_game(GameConfig(2, 1))
    crafted = state._replace(decks=(*state.decks, ()), market=(*state.market, (None, None, None, None)))
    with pytest.raises(RuleViolation) as refused:
        validate_state(crafted)
    assert refused.value.reason is Reason.INVALID_STATE
    assert refused.value.details["field"] == "decks"
