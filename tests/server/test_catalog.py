"""GetCatalog: every card with its Orient kind, the trading posts, and an action-id layout that covers every id."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from splendor.v1 import actions_pb2, catalog_pb2, common_pb2, trading_posts_pb2

from engine_service.codec import action_to_proto, catalog, gems_from_proto
from engine_service.rules import ACTION_ID_COUNT, CARDS, NOBLES, CardKind, action_from_id
from engine_service.rules.modules.cities import CITIES
from engine_service.rules.modules.trading_posts import POSTS

ORIENT_IDS = range(90, 120)


def test_catalog_lists_every_card_by_id() -> None:
    cards = catalog().cards
    assert len(cards) == len(CARDS) == 120
    assert [card.id for card in cards] == list(range(120))
    for info, card in zip(cards, CARDS):
        assert (info.level, info.deck, info.points) == (card.level, card.deck, card.points)
        assert gems_from_proto(info.cost) == card.cost


def test_base_cards_are_standard_with_one_bonus() -> None:
    for info in catalog().cards[:90]:
        assert info.kind == catalog_pb2.CARD_KIND_STANDARD
        assert info.bonus != common_pb2.COLOR_UNSPECIFIED and info.bonus_count == 1
        assert info.deck in (0, 1, 2)
        assert info.sacrifice_color == common_pb2.COLOR_UNSPECIFIED and info.sacrifice_count == 0


def test_orient_cards_carry_their_kind_bonus_and_sacrifice() -> None:
    cards = catalog().cards
    kinds = Counter(catalog_pb2.CardKind.Name(cards[card_id].kind) for card_id in ORIENT_IDS)
    # The rulebook's counts: per level 10 cards (5 gold + 5 paired; 2 + 5 + 3; 5 + 5).
    assert kinds == {
        "CARD_KIND_GOLD_X2": 5,
        "CARD_KIND_PAIRED": 5,
        "CARD_KIND_PAIRED_TAKE_LEVEL1": 2,
        "CARD_KIND_DOUBLE_BONUS": 5,
        "CARD_KIND_RESERVE_NOBLE": 3,
        "CARD_KIND_TAKE_LEVEL2": 5,
        "CARD_KIND_SACRIFICE": 5,
    }
    for card_id in ORIENT_IDS:
        info, card = cards[card_id], CARDS[card_id]
        assert catalog_pb2.CardKind.Name(info.kind) == f"CARD_KIND_{card.kind.name}"
        assert info.deck == 3 + card.level - 1
        assert info.bonus_count == card.bonus_count
        if card.bonus is None:  # gold and paired cards: no printed bonus
            assert card.kind in (CardKind.GOLD_X2, CardKind.PAIRED, CardKind.PAIRED_TAKE_LEVEL1)
            assert info.bonus == common_pb2.COLOR_UNSPECIFIED and info.bonus_count == 0
        else:
            assert info.bonus == card.bonus + 1
        if card.kind is CardKind.SACRIFICE:
            assert card.sacrifice_color is not None
            assert info.sacrifice_color == card.sacrifice_color + 1 != info.bonus
            assert info.sacrifice_count == card.sacrifice_count == 2
        else:
            assert info.sacrifice_color == common_pb2.COLOR_UNSPECIFIED and info.sacrifice_count == 0
        if card.kind is CardKind.DOUBLE_BONUS:
            assert info.bonus_count == 2


def test_every_card_kind_of_the_core_is_published() -> None:
    published = {value.name for value in catalog_pb2.CardKind.DESCRIPTOR.values} - {"CARD_KIND_UNSPECIFIED"}
    assert published == {f"CARD_KIND_{kind.name}" for kind in CardKind}


def test_catalog_lists_the_five_trading_posts() -> None:
    posts = catalog().trading_posts
    assert [post.id for post in posts] == [0, 1, 2, 3, 4]
    assert [trading_posts_pb2.TradingPostPower.Name(post.power) for post in posts] == [
        "TRADING_POST_POWER_GEM_AFTER_PURCHASE",
        "TRADING_POST_POWER_EXTRA_GEM_WITH_TWO",
        "TRADING_POST_POWER_GOLD_WORTH_TWO",
        "TRADING_POST_POWER_FIVE_PRESTIGE",
        "TRADING_POST_POWER_PRESTIGE_PER_SHIELD",
    ]
    assert [gems_from_proto(post.requirement) for post in posts] == [post.requirement for post in POSTS]
    # The printed board: 1 white + 3 red; 2 white; 3 blue + 1 black; 5 green and a noble; 3 black.
    assert gems_from_proto(posts[0].requirement) == (1, 0, 0, 3, 0)
    assert [post.nobles_required for post in posts] == [0, 0, 0, 1, 0]


def test_catalog_keeps_nobles_and_cities() -> None:
    assert len(catalog().nobles) == len(NOBLES) == 10
    assert len(catalog().cities) == len(CITIES) == 14


def test_action_id_ranges_tile_every_id_in_order() -> None:
    ranges = catalog().action_id_ranges
    assert catalog().action_id_count == ACTION_ID_COUNT == 8920
    assert ranges[0].offset == 0
    for before, after in pairwise(ranges):
        assert before.offset + before.count == after.offset
    assert ranges[-1].offset + ranges[-1].count == ACTION_ID_COUNT
    assert all(rule.index_rule for rule in ranges)


def test_module_action_id_ranges() -> None:
    layout = [(r.kind, r.offset, r.count) for r in catalog().action_id_ranges]
    assert layout[9:] == [
        ("take_gem", 384, 5),
        ("decline", 389, 1),
        ("place_stronghold", 390, 90),
        ("remove_stronghold", 480, 90),
        ("pair_card", 570, 120),
        ("take_free_card", 690, 120),
        ("reserve_noble", 810, 10),
        ("place_stronghold", 820, 8100),
    ]


def test_every_id_of_a_range_is_an_action_of_its_kind() -> None:
    kinds = {field.name for field in actions_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields} - {"action_id"}
    ranges = catalog().action_id_ranges
    assert {r.kind for r in ranges} == kinds  # every action kind has ids
    for r in ranges:
        for value in range(r.offset, r.offset + r.count):
            assert action_to_proto(action_from_id(value)).WhichOneof("kind") == r.kind


def test_moved_stronghold_ids_follow_their_index_rule() -> None:
    moved = next(r for r in catalog().action_id_ranges if r.kind == "place_stronghold" and r.offset == 820)
    assert "90 * from_card_id + card_id" in moved.index_rule
    message = action_to_proto(action_from_id(moved.offset + 90 * 7 + 12)).place_stronghold
    assert (message.from_card_id, message.card_id) == (7, 12)
    assert not action_to_proto(action_from_id(390 + 12)).place_stronghold.HasField("from_card_id")
