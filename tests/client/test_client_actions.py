"""The action builders and colour helpers produce exactly the protocol's messages."""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, common_pb2
from splendor_client import actions
from splendor_client.colors import color, color_name, counts_dict, format_counts, token_counts, total


def test_take_gems_maps_names_to_colors_in_order() -> None:
    action = actions.take_gems("red", "blue", "green")
    expected = actions_pb2.Action(
        take_gems=actions_pb2.TakeGems(colors=[common_pb2.COLOR_RED, common_pb2.COLOR_BLUE, common_pb2.COLOR_GREEN])
    )
    assert action == expected
    assert action.WhichOneof("kind") == "take_gems"


def test_colour_names_are_forgiving_and_values_accepted() -> None:
    assert actions.take_gems("Red", " WHITE ", "color_black") == actions.take_gems(
        common_pb2.COLOR_RED, common_pb2.COLOR_WHITE, 5
    )
    assert [color(name) for name in ("white", "blue", "green", "red", "black", "gold")] == list(range(1, 7))


def test_fewer_colours_are_passed_through_for_the_engine_to_judge() -> None:
    assert list(actions.take_gems("black").take_gems.colors) == [common_pb2.COLOR_BLACK]
    assert list(actions.take_gems().take_gems.colors) == []


@pytest.mark.parametrize("bad", ["purple", "", "colour_red", 0, 7, -1])
def test_unknown_colours_are_refused(bad: str | int) -> None:
    with pytest.raises(ValueError, match="colour"):
        actions.take_gems(bad)


def test_take_two() -> None:
    assert actions.take_two("red") == actions_pb2.Action(
        take_two_gems=actions_pb2.TakeTwoGems(color=common_pb2.COLOR_RED)
    )


def test_reserve_face_up_card() -> None:
    assert actions.reserve(12) == actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=12))
    assert actions.reserve(0).reserve_card.card_id == 0
    assert actions.reserve(0).WhichOneof("kind") == "reserve_card"


def test_reserve_from_deck_takes_deck_ids_or_levels() -> None:
    assert actions.reserve_from_deck(0) == actions_pb2.Action(reserve_from_deck=actions_pb2.ReserveFromDeck(deck=0))
    assert actions.reserve_from_deck(0).WhichOneof("kind") == "reserve_from_deck"
    assert actions.reserve_from_deck(2).reserve_from_deck.deck == 2
    assert actions.reserve_from_deck(level=1) == actions.reserve_from_deck(0)
    assert actions.reserve_from_deck(level=3) == actions.reserve_from_deck(2)
    assert actions.reserve_from_deck(4).reserve_from_deck.deck == 4  # Orient level 2
    with pytest.raises(ValueError, match="level"):
        actions.reserve_from_deck(level=0)
    with pytest.raises(TypeError):
        actions.reserve_from_deck(1, level=2)
    with pytest.raises(TypeError):
        actions.reserve_from_deck()


def test_purchase_default_payment_leaves_payment_unset() -> None:
    action = actions.purchase(57)
    assert action == actions_pb2.Action(purchase_card=actions_pb2.PurchaseCard(card_id=57))
    assert not action.purchase_card.HasField("payment")


def test_purchase_with_explicit_payment() -> None:
    expected = actions_pb2.Action(
        purchase_card=actions_pb2.PurchaseCard(card_id=57, payment=common_pb2.TokenCounts(red=3, gold=1))
    )
    assert actions.purchase(57, payment={"red": 3, "gold": 1}) == expected
    assert actions.purchase(57, common_pb2.TokenCounts(red=3, gold=1)) == expected
    # An explicit empty payment (bonuses cover the card) is still sent as present.
    assert actions.purchase(57, {}).purchase_card.HasField("payment")


@pytest.mark.parametrize("payment", [{"purple": 1}, {"red": -1}])
def test_purchase_refuses_bad_payment(payment: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        actions.purchase(57, payment)


def test_pass_turn() -> None:
    action = actions.pass_turn()
    assert action.WhichOneof("kind") == "pass"
    assert action.HasField("pass")
    assert actions_pb2.Action.FromString(action.SerializeToString()) == action


def test_return_tokens_by_keyword_or_mapping() -> None:
    expected = actions_pb2.Action(return_tokens=actions_pb2.ReturnTokens(tokens=common_pb2.TokenCounts(red=1, gold=1)))
    assert actions.return_tokens(red=1, gold=1) == expected
    assert actions.return_tokens({"red": 1, "gold": 1}) == expected
    assert actions.return_tokens({"red": 1}, gold=1) == expected
    with pytest.raises(ValueError):
        actions.return_tokens(silver=1)


def test_choose_noble() -> None:
    assert actions.choose_noble(3) == actions_pb2.Action(choose_noble=actions_pb2.ChooseNoble(noble_id=3))
    assert actions.choose_noble(0).WhichOneof("kind") == "choose_noble"


def test_ids_must_be_non_negative_integers() -> None:
    with pytest.raises(ValueError):
        actions.reserve(-1)
    with pytest.raises(ValueError):
        actions.choose_noble(True)
    with pytest.raises(ValueError):
        actions.by_id(-3)


def test_as_action_accepts_actions_legal_actions_and_ids() -> None:
    take = actions.take_two("red")
    assert actions.as_action(take) is take
    assert actions.as_action(actions_pb2.LegalAction(action_id=28, action=take)) == take
    assert actions.as_action(actions_pb2.LegalAction(action_id=28)) == actions_pb2.Action(action_id=28)
    assert actions.as_action(276) == actions_pb2.Action(action_id=276)
    assert actions.as_action(0).WhichOneof("kind") == "action_id"
    for bad in (True, "take_gems", 1.5, None):
        with pytest.raises(TypeError):
            actions.as_action(bad)  # type: ignore[arg-type]


def test_kind() -> None:
    assert actions.kind(actions.pass_turn()) == "pass"
    assert actions.kind(7) == "action_id"
    assert actions.kind(actions_pb2.Action()) == ""


def test_token_helpers() -> None:
    counts = token_counts({"red": 2}, gold=1, red=1)
    assert counts == common_pb2.TokenCounts(red=3, gold=1)
    assert counts_dict(counts) == {"white": 0, "blue": 0, "green": 0, "red": 3, "black": 0, "gold": 1}
    assert counts_dict(common_pb2.GemCounts(blue=2)) == {"white": 0, "blue": 2, "green": 0, "red": 0, "black": 0}
    assert format_counts(counts) == "3 red, 1 gold"
    assert format_counts({"blue": 1, "white": 2}) == "2 white, 1 blue"
    assert format_counts(common_pb2.TokenCounts()) == "nothing"
    assert total(counts) == 4
    assert color_name(common_pb2.COLOR_GOLD) == "gold"
    assert color_name(0) == "colour 0"


def test_purchase_cards_spent_presence() -> None:
    """The Orient: absent lets the engine choose; a list (even empty) is sent as present."""
    assert not actions.purchase(57).purchase_card.HasField("cards_spent")
    spent = actions.purchase(57, cards_spent=[90, 91]).purchase_card
    assert spent.HasField("cards_spent") and list(spent.cards_spent.card_ids) == [90, 91]
    empty = actions.purchase(57, cards_spent=()).purchase_card
    assert empty.HasField("cards_spent") and not empty.cards_spent.card_ids
    wire = actions_pb2.Action.FromString(actions.purchase(57, cards_spent=[]).SerializeToString())
    assert wire.purchase_card.HasField("cards_spent")
    with pytest.raises(ValueError):
        actions.purchase(57, cards_spent=[-1])


def test_module_decision_answers() -> None:
    assert actions.take_gem("red") == actions_pb2.Action(take_gem=actions_pb2.TakeGem(color=common_pb2.COLOR_RED))
    assert actions.place_stronghold(12) == actions_pb2.Action(place_stronghold=actions_pb2.PlaceStronghold(card_id=12))
    assert not actions.place_stronghold(12).place_stronghold.HasField("from_card_id")
    moved = actions.place_stronghold(12, from_card_id=0).place_stronghold
    assert moved.HasField("from_card_id") and moved.from_card_id == 0  # card 0 still sent as present
    assert actions.remove_stronghold(44) == actions_pb2.Action(
        remove_stronghold=actions_pb2.RemoveStronghold(card_id=44)
    )
    assert actions.decline().HasField("decline")
    assert actions.pair_card(13) == actions_pb2.Action(pair_card=actions_pb2.PairCard(card_id=13))
    assert actions.take_free_card(95) == actions_pb2.Action(take_free_card=actions_pb2.TakeFreeCard(card_id=95))
    assert actions.reserve_noble(4) == actions_pb2.Action(reserve_noble=actions_pb2.ReserveNoble(noble_id=4))
    assert actions.choose_city(11) == actions_pb2.Action(choose_city=actions_pb2.ChooseCity(city_id=11))
    assert [actions.kind(move) for move in (actions.decline(), actions.take_gem(1))] == ["decline", "take_gem"]


@pytest.mark.parametrize(
    "build",
    [
        lambda: actions.take_gem("silver"),
        lambda: actions.take_gem(0),
        lambda: actions.place_stronghold(-1),
        lambda: actions.place_stronghold(3, from_card_id=-2),
        lambda: actions.remove_stronghold(-1),
        lambda: actions.pair_card(1.5),
        lambda: actions.take_free_card(-1),
        lambda: actions.reserve_noble(True),
        lambda: actions.choose_city(-1),
    ],
)
def test_module_builders_refuse_bad_values(build: object) -> None:
    with pytest.raises(ValueError):
        build()  # type: ignore[operator]
