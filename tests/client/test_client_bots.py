"""The bots pick one of the listed actions, the greedy one sensibly."""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, common_pb2, state_pb2, view_pb2
from splendor_client import actions
from splendor_client.bots import GreedyBot, RandomBot, acting_seat, make_bot

from tests.client.client_fakes import sample_catalog


def legal(*moves: actions_pb2.Action) -> list[actions_pb2.LegalAction]:
    return [actions_pb2.LegalAction(action_id=index, action=move) for index, move in enumerate(moves)]


def view(
    market: list[int],
    tokens: common_pb2.TokenCounts | None = None,
    bonuses: common_pb2.GemCounts | None = None,
    seat: int = 0,
) -> view_pb2.GameView:
    player = state_pb2.PlayerState(tokens=tokens, bonuses=bonuses)
    return view_pb2.GameView(
        seat=seat,
        viewer_seat=seat,
        players=[player if index == seat else state_pb2.PlayerState() for index in range(2)],
        market=[state_pb2.MarketRow(slots=[state_pb2.MarketSlot(card_id=card) for card in market])],
    )


TAKES = legal(
    actions.take_gems("white", "blue", "green"),
    actions.take_gems("red", "black", "white"),
    actions.take_gems("blue", "green", "red"),
    actions.take_two("green"),
    actions.reserve(80),
)


def test_random_bot_is_seeded_and_picks_a_listed_action() -> None:
    picks = [RandomBot(seed=3).choose(view([12]), TAKES) for _ in range(3)]
    assert picks[0] in TAKES
    assert picks[0] == picks[1] == picks[2]
    bot = RandomBot(seed=3)
    assert {bot.choose(view([12]), TAKES).action_id for _ in range(200)} == {0, 1, 2, 3, 4}
    with pytest.raises(ValueError):
        bot.choose(view([12]), [])


def test_greedy_buys_the_card_with_most_points() -> None:
    options = legal(actions.take_two("red"), actions.purchase(12), actions.purchase(57), actions.purchase(13))
    choice = GreedyBot(sample_catalog(), seed=1).choose(view([12, 57, 13]), options)
    assert choice.action == actions.purchase(57)


def test_greedy_takes_gems_toward_the_nearest_card() -> None:
    # Card 14 costs 1 white + 1 blue: the cheapest; card 13 needs 4 green.
    choice = GreedyBot(sample_catalog(), seed=1).choose(view([13, 14, 80]), TAKES)
    assert choice.action == actions.take_gems("white", "blue", "green")


def test_greedy_takes_two_when_one_colour_is_missing() -> None:
    # Card 13 needs 4 green; the player holds 2 green already: two more green is best.
    seen = view([13], tokens=common_pb2.TokenCounts(green=2))
    choice = GreedyBot(sample_catalog(), seed=1).choose(seen, TAKES)
    assert choice.action == actions.take_two("green")


def test_greedy_reserves_when_no_gem_helps() -> None:
    options = legal(actions.take_gems("white", "blue", "red"), actions.reserve(45), actions.reserve(80))
    # Card 13 needs green only, and no take offers green.
    choice = GreedyBot(sample_catalog(), seed=1).choose(view([13]), options)
    assert choice.action == actions.reserve(80)


def test_greedy_returns_what_it_holds_most_and_keeps_gold() -> None:
    seen = view([12], tokens=common_pb2.TokenCounts(white=4, red=1, blue=3, gold=3))
    seen.pending_decision.kind = state_pb2.DECISION_KIND_RETURN_TOKENS
    seen.pending_decision.amount = 1
    options = legal(actions.return_tokens(red=1), actions.return_tokens(white=1), actions.return_tokens(gold=1))
    choice = GreedyBot(sample_catalog(), seed=1).choose(seen, options)
    assert choice.action == actions.return_tokens(white=1)


def test_greedy_chooses_a_noble() -> None:
    options = legal(actions.choose_noble(3), actions.choose_noble(5))
    assert GreedyBot(sample_catalog(), seed=1).choose(view([12]), options) in options


def test_greedy_falls_back_to_any_legal_action() -> None:
    options = legal(actions.pass_turn())
    assert GreedyBot(sample_catalog()).choose(state_pb2.GameState(), options) == options[0]
    only_ids = [actions_pb2.LegalAction(action_id=7)]
    assert GreedyBot(sample_catalog()).choose(view([12]), only_ids) == only_ids[0]


def test_acting_seat_follows_the_pending_decision() -> None:
    state = state_pb2.GameState(seat=1)
    assert acting_seat(state) == 1
    state.pending_decision.kind = state_pb2.DECISION_KIND_CHOOSE_NOBLE
    state.pending_decision.seat = 0
    assert acting_seat(state) == 0


def test_make_bot() -> None:
    assert isinstance(make_bot("random", sample_catalog(), 1), RandomBot)
    assert isinstance(make_bot("greedy", sample_catalog(), 1), GreedyBot)
    with pytest.raises(ValueError, match="random"):
        make_bot("smart", sample_catalog())


def test_greedy_answers_module_decisions_sensibly() -> None:
    bot = GreedyBot(sample_catalog(), seed=1)
    free = legal(actions.take_free_card(12), actions.take_free_card(57), actions.take_free_card(13))
    assert bot.choose(view([12, 57, 13]), free).action == actions.take_free_card(57)
    nobles = legal(actions.reserve_noble(3), actions.reserve_noble(5))
    assert bot.choose(view([12]), nobles) in nobles
    conquest = legal(actions.decline(), actions.purchase(80))
    assert bot.choose(view([80]), conquest).action == actions.purchase(80)
    # Card 13 needs 4 green: green is the gem the target lacks most.
    gems = legal(actions.take_gem("red"), actions.take_gem("green"), actions.take_gem("white"))
    assert bot.choose(view([13]), gems).action == actions.take_gem("green")


@pytest.mark.parametrize(
    "options",
    [
        legal(
            actions.place_stronghold(12), actions.place_stronghold(57, from_card_id=12), actions.remove_stronghold(13)
        ),
        legal(actions.pair_card(12), actions.pair_card(13)),
        legal(actions.choose_city(2), actions.choose_city(11)),
    ],
)
def test_bots_answer_any_module_decision_from_the_list(options: list[actions_pb2.LegalAction]) -> None:
    for bot in (GreedyBot(sample_catalog(), seed=2), RandomBot(seed=2)):
        picks = {bot.choose(view([12]), options).action_id for _ in range(40)}
        assert picks <= {option.action_id for option in options} and picks
