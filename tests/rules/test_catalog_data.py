"""The printed components, checked on the project's own data (engine_service/rules/data)."""

from __future__ import annotations

from collections import Counter, defaultdict

from engine_service.rules import BASE_CARDS as CARDS
from engine_service.rules import NOBLES

COLORS = range(5)


def test_catalog_90_cards_40_30_20_per_level() -> None:
    assert len(CARDS) == 90
    assert Counter(card.level for card in CARDS) == {1: 40, 2: 30, 3: 20}


def test_catalog_card_ids_are_row_order_by_level_then_colour() -> None:
    assert [card.id for card in CARDS] == list(range(90))
    assert all(card.deck == card.level - 1 for card in CARDS)
    keys = [(card.level, card.bonus) for card in CARDS]
    assert keys == sorted(keys)
    assert {card.level for card in CARDS[:40]} == {1}
    assert {card.level for card in CARDS[40:70]} == {2}
    assert {card.level for card in CARDS[70:]} == {3}


def test_catalog_8_6_4_cards_of_each_bonus_colour_per_level() -> None:
    counts = Counter((card.level, card.bonus) for card in CARDS)
    for level, expected in ((1, 8), (2, 6), (3, 4)):
        for color in COLORS:
            assert counts[(level, color)] == expected, (level, color)


def test_catalog_no_duplicate_cards_and_every_card_has_a_cost() -> None:
    printed = [(card.level, card.bonus, card.points, card.cost) for card in CARDS]
    assert len(set(printed)) == 90
    for card in CARDS:
        assert len(card.cost) == 5 and all(count >= 0 for count in card.cost)
        assert sum(card.cost) > 0


def test_catalog_every_colour_has_the_same_points_and_cost_shapes_per_level() -> None:
    shapes = defaultdict(list)
    for card in CARDS:
        shape = tuple(sorted((count for count in card.cost if count), reverse=True))
        shapes[(card.level, card.bonus)].append((card.points, shape))
    for level in (1, 2, 3):
        reference = sorted(shapes[(level, 0)])
        for color in COLORS:
            assert sorted(shapes[(level, color)]) == reference, (level, color)


def test_catalog_points_distribution_per_colour() -> None:
    points = defaultdict(Counter)
    for card in CARDS:
        points[(card.level, card.bonus)][card.points] += 1
    for color in COLORS:
        assert points[(1, color)] == {0: 7, 1: 1}
        assert points[(2, color)] == {1: 2, 2: 3, 3: 1}
        assert points[(3, color)] == {3: 1, 4: 2, 5: 1}


def test_catalog_known_transcription_errors_are_absent() -> None:
    printed = {(card.level, card.bonus, card.cost) for card in CARDS}
    # white level 1 costs 2 blue + 2 black, not 2 blue + 2 green (a common transcription error)
    assert (1, 0, (0, 2, 0, 0, 2)) in printed
    assert (1, 0, (0, 2, 2, 0, 0)) not in printed
    # green level 2 costs 3 white + 2 blue + 3 red, not 3 white + 2 blue + 2 red
    assert (2, 2, (3, 0, 2, 3, 0)) in printed
    assert (2, 2, (3, 0, 2, 2, 0)) not in printed


def test_catalog_10_nobles_of_3_points_five_4_4_and_five_3_3_3() -> None:
    assert len(NOBLES) == 10
    assert [noble.id for noble in NOBLES] == list(range(10))
    assert all(noble.points == 3 for noble in NOBLES)
    kinds = Counter(tuple(sorted(count for count in noble.requirement if count)) for noble in NOBLES)
    assert kinds == {(4, 4): 5, (3, 3, 3): 5}
    assert len({noble.requirement for noble in NOBLES}) == 10


def test_catalog_each_colour_in_two_4_4_nobles_and_three_3_3_3_nobles() -> None:
    for color in COLORS:
        assert sum(1 for noble in NOBLES if noble.requirement[color] == 4) == 2
        assert sum(1 for noble in NOBLES if noble.requirement[color] == 3) == 3
