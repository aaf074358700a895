"""Rules of the Orient module (Cities of Splendor): setup, each card kind, nobles, ranking, ids and validation.

Card ids used below (see ``data/orient_cards.csv``): gold cards 90-94, paired cards
95-99, paired + free level-1 cards 100-101, double bonuses 102-106 (white, blue,
green, red, black), reserve-a-noble cards 107-109, free level-2 cards 110-114,
sacrifice cards 115-119 (115 white needs 2 black, 116 blue needs 2 white, 117 green
needs 2 blue, 118 red needs 2 green, 119 black needs 2 red). Base level-1 cards
are 0-39 and level-2 cards 40-69, eight and six per colour in the order white,
blue, green, red, black.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from engine_service.rules import (
    CARDS,
    NOBLES,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ChooseNoble,
    DecisionKind,
    DecisionRequired,
    GameConfig,
    GameState,
    GemsReturned,
    NobleVisited,
    PendingDecision,
    PlayerState,
    PurchaseCard,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    TakeGems,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
    validate_state,
    view_for,
)
from engine_service.rules.catalog import CARDS_BY_DECK
from engine_service.rules.ending import rank_by_prestige
from engine_service.rules.errors import RuleViolation
from engine_service.rules.modules.orient import STATE as ORIENT_STATE
from engine_service.rules.modules.orient import (
    CardPaired,
    CardsDiscarded,
    FreeCardTaken,
    NobleReserved,
    OrientState,
    PairCard,
    ReserveNoble,
    TakeFreeCard,
)
from engine_service.rules.modules.orient import rank as orient_rank
from tests.rules.helpers import full_bank, legal, of_type, play, refused, tokens

ORIENT = frozenset({"orient"})
WHITE, BLUE, GREEN, RED, BLACK, GOLD = range(6)
SLOTS = (4, 4, 4, 2, 2, 2)

GOLD_WHITE, GOLD_BLUE = 90, 91  # gold cards costing 3 white, 3 blue
PAIRED_A, PAIRED_B = 95, 96
PAIRED_TAKE_1 = 100
DOUBLE = {WHITE: 102, BLUE: 103, GREEN: 104, RED: 105, BLACK: 106}
RESERVE_NOBLE_CARD = 107  # white bonus, 1 point
TAKE_2 = 110  # white bonus
SACRIFICE = {BLACK: 115, WHITE: 116, BLUE: 117, GREEN: 118, RED: 119}  # by the colour discarded


def level1(color: int, index: int = 0) -> int:
    """A base level-1 card of a colour (index 0-6 have no points)."""
    return 8 * color + index


def level2(color: int, index: int = 0) -> int:
    return 40 + 6 * color + index


def level3(color: int, index: int = 0) -> int:
    return 70 + 4 * color + index


def orient_position(
    num_players: int = 2,
    seed: int = 1,
    *,
    seat: int = 0,
    held: Mapping[int, Sequence[int]] | None = None,
    purchased: Mapping[int, Iterable[int]] | None = None,
    pairs: Mapping[int, Iterable[tuple[int, int]]] | None = None,
    reserved: Mapping[int, Iterable[int]] | None = None,
    market: Mapping[int, Sequence[int | None]] | None = None,
    deck_tops: Mapping[int, Sequence[int]] | None = None,
    empty_decks: Iterable[int] = (),
    discarded: Mapping[int, Iterable[int]] | None = None,
    table_nobles: Sequence[int] | None = None,
    reserved_nobles: Mapping[int, Iterable[int]] | None = None,
    player_nobles: Mapping[int, Iterable[int]] | None = None,
) -> GameState:
    """A consistent Orient position made from a dealt Orient game.

    Cards given to seats, laid in the market or put on top of a deck come out of
    the decks, which otherwise hold their cards in id order. A market slot left
    None gets its deck's next card, unless the deck is in ``empty_decks``: then
    the slot stays empty and the rest of the deck goes to the box (the last
    seat's ``discarded``). Bonuses count printed bonuses (a double bonus twice)
    and one per pair; prestige counts cards and visited nobles.
    """
    state, _ = new_game(GameConfig(num_players, seed, first_seat=0, modules=ORIENT))
    held = held or {}
    purchased = {s: list(ids) for s, ids in (purchased or {}).items()}
    pairs = {s: list(p) for s, p in (pairs or {}).items()}
    reserved = {s: list(ids) for s, ids in (reserved or {}).items()}
    market = dict(market or {})
    deck_tops = {d: list(ids) for d, ids in (deck_tops or {}).items()}
    discarded = {s: list(ids) for s, ids in (discarded or {}).items()}
    player_nobles = {s: list(ids) for s, ids in (player_nobles or {}).items()}
    reserved_nobles = {s: list(ids) for s, ids in (reserved_nobles or {}).items()}

    placed = [c for ids in purchased.values() for c in ids] + [c for ids in reserved.values() for c in ids]
    placed += [c for row in market.values() for c in row if c is not None]
    placed += [c for ids in deck_tops.values() for c in ids] + [c for ids in discarded.values() for c in ids]
    assert len(placed) == len(set(placed)), "a card placed twice"
    empty = set(empty_decks)
    rows, piles = [], []
    for deck, slots in enumerate(SLOTS):
        pool = [c for c in CARDS_BY_DECK[deck] if c not in placed]
        given = list(market.get(deck, ()))
        assert all(card is None or CARDS[card].deck == deck for card in given), f"a card not of deck {deck}"
        row = given + [None] * (slots - len(given))
        if deck not in empty:  # an unnamed slot gets the deck's next card
            row = [card if card is not None else (pool.pop(0) if pool else None) for card in row]
        rows.append(tuple(row))
        piles.append(deck_tops.get(deck, []) + pool)
    box = num_players - 1
    for deck in empty_decks:
        discarded.setdefault(box, []).extend(piles[deck])
        piles[deck] = []

    players = []
    bank = list(full_bank(num_players))
    for s in range(num_players):
        own = tuple(held.get(s, (0,) * 6))
        bank = [b - t for b, t in zip(bank, own)]
        bought = tuple(purchased.get(s, ()))
        bonuses = [0] * 5
        for card in bought:
            if CARDS[card].bonus is not None:
                bonuses[CARDS[card].bonus] += CARDS[card].bonus_count
        for _, partner in pairs.get(s, ()):
            bonuses[CARDS[partner].bonus] += 1
        nobles = tuple(player_nobles.get(s, ()))
        hand = tuple(reserved.get(s, ()))
        players.append(
            PlayerState(
                tokens=own,
                bonuses=tuple(bonuses),
                prestige=sum(CARDS[c].points for c in bought) + sum(NOBLES[n].points for n in nobles),
                purchased=bought,
                reserved=hand,
                reserved_blind=(False,) * len(hand),
                nobles=nobles,
            )
        )
    assert min(bank) >= 0
    away = {n for ids in player_nobles.values() for n in ids} | {n for ids in reserved_nobles.values() for n in ids}
    nobles = tuple(table_nobles) if table_nobles is not None else tuple(n for n in state.nobles if n not in away)
    per_seat = range(num_players)
    orient = OrientState(
        pairs=tuple(tuple(pairs.get(s, ())) for s in per_seat),
        reserved_nobles=tuple(tuple(reserved_nobles.get(s, ())) for s in per_seat),
        discarded=tuple(tuple(discarded.get(s, ())) for s in per_seat),
    )
    state = ORIENT_STATE.put(
        state._replace(
            bank=tuple(bank),
            decks=tuple(tuple(p) for p in piles),
            market=tuple(rows),
            nobles=nobles,
            players=tuple(players),
            seat=seat,
        ),
        orient,
    )
    validate_state(state)
    return state


def orient_of(state: GameState) -> OrientState:
    assert ORIENT_STATE.find(state) is not None
    return ORIENT_STATE.find(state)


def asked(events: Iterable[object]) -> list[DecisionKind]:
    return [event.kind for event in events if isinstance(event, DecisionRequired)]


# --- setup -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_lays_two_face_up_orient_cards_per_level_beside_four_base_cards_and_decks_of_eight(players: int) -> None:
    for seed in range(10):
        state, _ = new_game(GameConfig(players, seed, modules=ORIENT))
        assert [len(row) for row in state.market] == [4, 4, 4, 2, 2, 2]
        for deck in (3, 4, 5):
            assert len(state.decks[deck]) == 8
            assert sorted(state.decks[deck] + state.market[deck]) == sorted(CARDS_BY_DECK[deck])
        assert orient_of(state) == OrientState(((),) * players, ((),) * players, ((),) * players)
        assert len(state.nobles) == players + 1


def test_setup_orient_decks_follow_the_seed_and_leave_the_base_deal_unchanged() -> None:
    deals = {new_game(GameConfig(2, seed, modules=ORIENT))[0].market[3:] for seed in range(20)}
    assert len(deals) > 15
    again = new_game(GameConfig(2, 7, modules=ORIENT))[0]
    assert again == new_game(GameConfig(2, 7, modules=ORIENT))[0]
    base = new_game(GameConfig(2, 7))[0]
    assert again.market[:3] == base.market and again.decks[:3] == base.decks and again.nobles == base.nobles


def test_new_game_reveals_the_orient_rows() -> None:
    state, events = new_game(GameConfig(3, 4, modules=ORIENT))
    revealed = {(e.deck, e.slot, e.card_id) for e in of_type(events, CardRevealed)}
    for deck in (3, 4, 5):
        for slot, card in enumerate(state.market[deck]):
            assert (deck, slot, card) in revealed


# --- reserving from the Orient rows and decks ----------------------------------------------


def test_blind_reserve_from_an_orient_deck_takes_its_top_card_and_a_gold() -> None:
    state = orient_position(deck_tops={4: [DOUBLE[RED]]})
    assert all(legal(state, ReserveFromDeck(deck)) for deck in range(6))
    after, events = apply(state, ReserveFromDeck(4))
    assert CardReserved(0, DOUBLE[RED], 4, True, None) in events
    assert after.players[0].reserved == (DOUBLE[RED],) and after.players[0].reserved_blind == (True,)
    assert after.players[0].tokens[GOLD] == 1 and len(after.decks[4]) == 7
    assert view_for(after, 1).players[0].reserved[0].card_id is None  # hidden from the other seat
    assert view_for(after, 0).players[0].reserved[0].card_id == DOUBLE[RED]


def test_a_reserved_orient_card_is_replaced_from_its_own_deck() -> None:
    state = orient_position(market={5: [TAKE_2, None]}, deck_tops={5: [SACRIFICE[RED]]})
    after, events = apply(state, ReserveCard(TAKE_2))
    assert CardRevealed(5, 0, SACRIFICE[RED]) in events
    assert after.market[5][0] == SACRIFICE[RED]


def test_a_reserved_orient_card_can_be_bought_later() -> None:
    state = orient_position(reserved={0: [DOUBLE[BLUE]]}, held={0: tokens(white=3, black=4)})
    after, _ = apply(state, PurchaseCard(DOUBLE[BLUE]))
    assert after.players[0].purchased == (DOUBLE[BLUE],) and after.players[0].bonuses[BLUE] == 2


# --- gold cards ------------------------------------------------------------------------


def test_buying_a_gold_card_gives_no_bonus_and_no_gold_token() -> None:
    state = orient_position(market={3: [GOLD_WHITE, None]}, held={0: tokens(white=3)})
    after, _ = apply(state, PurchaseCard(GOLD_WHITE))
    player = after.players[0]
    assert player.purchased == (GOLD_WHITE,)
    assert player.bonuses == (0, 0, 0, 0, 0) and player.tokens == (0,) * 6 and player.prestige == 0


def test_a_gold_card_is_worth_two_gold_for_one_purchase_then_discarded() -> None:
    # Card 24 costs 2 blue and 1 green: the seat has the green, the gold card covers the two blue.
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(green=1)}, market={0: [24]})
    assert legal(state, PurchaseCard(24))
    after, events = apply(state, PurchaseCard(24))
    player = after.players[0]
    assert player.purchased == (24,)
    assert player.tokens == (0,) * 6 and after.bank == full_bank(2)
    assert of_type(events, CardPurchased)[0].payment == tokens(green=1)
    assert CardsDiscarded(0, (GOLD_WHITE,)) in events
    assert orient_of(after).discarded == ((GOLD_WHITE,), ())


def test_the_unused_half_of_a_gold_card_is_lost() -> None:
    # Card 0 costs 2 red and 1 black: 2 red tokens and the gold card (worth 2) for the black.
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(red=2)}, market={0: [0]})
    after, events = apply(state, PurchaseCard(0))
    assert CardsDiscarded(0, (GOLD_WHITE,)) in events
    # Nothing of it is left for a later purchase: no card, no token back.
    assert after.players[0].purchased == (0,) and after.players[0].tokens == (0,) * 6


def test_gold_tokens_are_spent_before_gold_cards_by_default() -> None:
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(green=1, gold=2)}, market={0: [24]})
    after, events = apply(state, PurchaseCard(24))
    assert not of_type(events, CardsDiscarded)
    assert after.players[0].purchased == (GOLD_WHITE, 24) and after.players[0].tokens == (0,) * 6


def test_as_few_gold_cards_as_needed_lowest_id_first() -> None:
    # Card 7 costs 4 green: one gold token, then two gold cards for the other three.
    state = orient_position(purchased={0: [GOLD_BLUE, 92, GOLD_WHITE]}, held={0: tokens(gold=1)}, market={0: [7]})
    after, events = apply(state, PurchaseCard(7))
    assert CardsDiscarded(0, (GOLD_WHITE, GOLD_BLUE)) in events
    assert after.players[0].purchased == (92, 7)
    assert after.players[0].tokens == (0,) * 6


def test_a_gold_card_can_replace_coloured_tokens_the_seat_holds_when_listed_with_a_payment() -> None:
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(blue=2, green=1)}, market={0: [24]})
    after, events = apply(state, PurchaseCard(24, tokens(green=1), (GOLD_WHITE,)))
    assert CardsDiscarded(0, (GOLD_WHITE,)) in events
    assert after.players[0].tokens == tokens(blue=2)


def test_gold_cards_listed_without_a_payment_pay_what_coloured_tokens_leave() -> None:
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(green=1, gold=3)}, market={0: [24]})
    after, events = apply(state, PurchaseCard(24, None, (GOLD_WHITE,)))
    assert CardsDiscarded(0, (GOLD_WHITE,)) in events
    assert after.players[0].tokens == tokens(gold=3)


def test_a_gold_card_does_not_count_against_the_ten_token_limit() -> None:
    state = orient_position(purchased={0: [GOLD_WHITE, GOLD_BLUE]}, held={0: tokens(white=2, blue=2, green=2, red=2)})
    after, events = apply(state, TakeGems((0, 1, 2)))  # 11 tokens, and two gold cards
    assert after.pending == PendingDecision(DecisionKind.RETURN_TOKENS, 0, amount=1)
    assert not of_type(events, GemsReturned)


def test_explicit_gold_cards_must_be_owned_distinct_gold_and_needed() -> None:
    # Card 24 costs 2 blue and 1 green; the seat holds the green.
    state = orient_position(
        purchased={0: [GOLD_WHITE, GOLD_BLUE, level1(RED, 1)], 1: [92]}, held={0: tokens(green=1)}, market={0: [24]}
    )
    refused(state, PurchaseCard(24, None, (92,)), Reason.CARDS_SPENT_INVALID)  # another seat's
    refused(state, PurchaseCard(24, None, (GOLD_WHITE, GOLD_WHITE)), Reason.CARDS_SPENT_INVALID)
    refused(state, PurchaseCard(24, None, (level1(RED, 1),)), Reason.CARDS_SPENT_INVALID)  # not a gold card
    refused(state, PurchaseCard(24, None, (GOLD_WHITE, GOLD_BLUE)), Reason.CARDS_SPENT_INVALID)  # one is enough
    after, events = apply(state, PurchaseCard(24, None, (GOLD_BLUE,)))
    assert CardsDiscarded(0, (GOLD_BLUE,)) in events
    # An explicit payment the listed cards do not complete; an empty list lets the engine add the cards.
    refused(state, PurchaseCard(24, tokens(), (GOLD_WHITE,)), Reason.PAYMENT_INVALID)
    refused(state, PurchaseCard(24, tokens(green=1, gold=1), ()), Reason.PAYMENT_INVALID)  # holds no gold token
    after, events = apply(state, PurchaseCard(24, tokens(green=1), ()))
    assert CardsDiscarded(0, (GOLD_WHITE,)) in events and after.players[0].purchased == (GOLD_BLUE, level1(RED, 1), 24)


def test_a_card_beyond_tokens_and_gold_cards_cannot_be_afforded() -> None:
    # Card 7 costs 4 green: one gold card (2) and one gold token leave one missing.
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(gold=1)}, market={0: [7]})
    assert not legal(state, PurchaseCard(7))
    error = refused(state, PurchaseCard(7), Reason.CANNOT_AFFORD)
    assert error.details == {"card_id": "7", "missing": "1"}


def test_a_gold_card_cannot_be_a_pairing_partner() -> None:
    state = orient_position(purchased={0: [GOLD_WHITE]}, held={0: tokens(white=3, red=2)}, market={3: [PAIRED_A]})
    assert not legal(state, PurchaseCard(PAIRED_A))
    refused(state, PurchaseCard(PAIRED_A), Reason.PAIRING_NOT_POSSIBLE)
    both = orient_position(
        purchased={0: [GOLD_WHITE, level1(RED), GOLD_BLUE, level1(BLUE)]},
        held={0: tokens(white=3, red=2)},
        market={3: [PAIRED_A]},
    )
    after, _ = apply(both, PurchaseCard(PAIRED_A))
    assert after.pending is not None and after.pending.options == (level1(RED), level1(BLUE))


# --- paired cards ---------------------------------------------------------------------


def test_a_paired_card_is_refused_without_an_owned_card_with_a_bonus() -> None:
    state = orient_position(held={0: tokens(white=3, red=2)}, market={3: [PAIRED_A]}, reserved={0: [level1(RED)]})
    assert not legal(state, PurchaseCard(PAIRED_A))
    error = refused(state, PurchaseCard(PAIRED_A), Reason.PAIRING_NOT_POSSIBLE)
    assert error.details == {"card_id": str(PAIRED_A)}


def test_a_paired_card_out_of_reach_is_not_available_rather_than_unpairable() -> None:
    state = orient_position(held={0: tokens(white=3, red=2)}, market={3: [PAIRED_B]}, deck_tops={3: [PAIRED_A]})
    refused(state, PurchaseCard(PAIRED_A), Reason.CARD_NOT_AVAILABLE)


def test_a_paired_card_with_one_possible_partner_is_paired_at_once() -> None:
    state = orient_position(purchased={0: [level1(GREEN)]}, held={0: tokens(white=3, red=2)}, market={3: [PAIRED_A]})
    after, events = apply(state, PurchaseCard(PAIRED_A))
    assert CardPaired(0, PAIRED_A, level1(GREEN), GREEN) in events
    assert not asked(events)
    assert after.players[0].bonuses == (0, 0, 2, 0, 0)
    assert orient_of(after).pairs == (((PAIRED_A, level1(GREEN)),), ())


def test_pairing_asks_which_owned_card_and_gives_one_bonus_of_its_colour() -> None:
    owned = [level1(GREEN), GOLD_WHITE, level1(BLACK)]
    state = orient_position(purchased={0: owned}, held={0: tokens(white=3, red=2)}, market={3: [PAIRED_A]})
    pending, events = apply(state, PurchaseCard(PAIRED_A))
    assert pending.pending == PendingDecision(DecisionKind.PAIR_CARD, 0, options=(level1(GREEN), level1(BLACK)))
    assert asked(events) == [DecisionKind.PAIR_CARD]
    assert set(legal_actions(pending)) == {PairCard(level1(GREEN)), PairCard(level1(BLACK))}
    validate_state(pending)
    error = refused(pending, PairCard(GOLD_WHITE), Reason.PAIRING_NOT_POSSIBLE)
    assert error.details == {"card_id": str(GOLD_WHITE)}
    refused(pending, PairCard(level1(RED)), Reason.PAIRING_NOT_POSSIBLE)
    refused(pending, TakeFreeCard(level1(BLACK)), Reason.DECISION_PENDING)
    after, events = apply(pending, PairCard(level1(BLACK)))
    assert CardPaired(0, PAIRED_A, level1(BLACK), BLACK) in events
    assert after.players[0].bonuses == (0, 0, 1, 0, 2)
    assert after.pending is None and after.seat == 1


def test_pairing_comes_before_the_market_refill() -> None:
    owned = [level1(GREEN), level1(BLACK)]
    state = orient_position(
        purchased={0: owned}, held={0: tokens(white=3, red=2)}, market={3: [PAIRED_A, None]}, deck_tops={3: [PAIRED_B]}
    )
    pending, events = apply(state, PurchaseCard(PAIRED_A))
    assert pending.market[3][0] is None  # the slot waits for the pairing
    assert not of_type(events, CardRevealed)
    after, events = apply(pending, PairCard(level1(GREEN)))
    kinds = [type(event) for event in events]
    assert kinds.index(CardPaired) < kinds.index(CardRevealed)
    assert after.market[3][0] == PAIRED_B


def test_a_card_paired_onto_a_double_bonus_gives_one_bonus() -> None:
    state = orient_position(purchased={0: [DOUBLE[BLUE]]}, held={0: tokens(white=3, red=2)}, market={3: [PAIRED_A]})
    after, events = apply(state, PurchaseCard(PAIRED_A))
    assert CardPaired(0, PAIRED_A, DOUBLE[BLUE], BLUE) in events
    assert after.players[0].bonuses == (0, 3, 0, 0, 0)


def test_a_paired_card_is_not_a_partner_and_a_card_may_carry_several_pairs() -> None:
    state = orient_position(
        purchased={0: [level1(RED), PAIRED_B]},
        pairs={0: [(PAIRED_B, level1(RED))]},
        held={0: tokens(white=3, red=2)},
        market={3: [PAIRED_A]},
    )
    after, events = apply(state, PurchaseCard(PAIRED_A))  # the only partner is the red card, again
    assert CardPaired(0, PAIRED_A, level1(RED), RED) in events
    assert after.players[0].bonuses[RED] == 3


def test_a_paired_card_bought_from_the_reserve_is_paired_too() -> None:
    state = orient_position(purchased={0: [level2(WHITE)]}, reserved={0: [PAIRED_A]}, held={0: tokens(white=2, red=2)})
    after, events = apply(state, PurchaseCard(PAIRED_A))
    assert CardPaired(0, PAIRED_A, level2(WHITE), WHITE) in events
    assert after.players[0].reserved == () and after.players[0].bonuses == (2, 0, 0, 0, 0)


# --- double bonuses ----------------------------------------------------------------------


def test_a_double_bonus_counts_two_for_purchases() -> None:
    state = orient_position(purchased={0: [DOUBLE[RED]]}, held={0: tokens(white=2)}, market={0: [27]})
    assert state.players[0].bonuses == (0, 0, 0, 2, 0)
    after, events = apply(state, PurchaseCard(27))  # 2 white and 2 red: the red is covered
    assert of_type(events, CardPurchased)[0].payment == tokens(white=2)
    assert after.players[0].bonuses == (0, 0, 0, 3, 0)


def test_a_double_bonus_counts_two_for_nobles() -> None:
    # Noble 4 wants 4 red and 4 black: a double bonus and two red cards, three black cards and one bought now.
    owned = [DOUBLE[RED], level1(RED), level1(RED, 1), level1(BLACK), level1(BLACK, 1), level1(BLACK, 3)]
    state = orient_position(purchased={0: owned}, held={0: tokens(green=3)}, market={0: [34]}, table_nobles=(4,))
    assert state.players[0].bonuses == (0, 0, 0, 4, 3)
    after, events = apply(state, PurchaseCard(34))  # a black card for 3 green
    assert NobleVisited(0, 4) in events
    assert after.players[0].nobles == (4,)


# --- reserving a noble ------------------------------------------------------------------


def noble_card_position(table: Sequence[int], **kwargs: object) -> GameState:
    return orient_position(
        held={0: tokens(blue=2, green=2, red=2, black=2)},
        market={4: [RESERVE_NOBLE_CARD, None]},
        table_nobles=table,
        **kwargs,  # type: ignore[arg-type]
    )


def test_reserving_a_noble_takes_it_off_the_table_without_a_gold_token() -> None:
    state = noble_card_position((0, 1, 2))
    pending, events = apply(state, PurchaseCard(RESERVE_NOBLE_CARD))
    assert pending.pending == PendingDecision(DecisionKind.RESERVE_NOBLE, 0, options=(0, 1, 2))
    assert set(legal_actions(pending)) == {ReserveNoble(0), ReserveNoble(1), ReserveNoble(2)}
    error = refused(pending, ReserveNoble(5), Reason.NOBLE_NOT_AVAILABLE)
    assert error.details == {"noble_id": "5"}
    refused(pending, ChooseNoble(1), Reason.DECISION_PENDING)
    after, events = apply(pending, ReserveNoble(1))
    assert NobleReserved(0, 1) in events
    assert after.nobles == (0, 2) and orient_of(after).reserved_nobles == ((1,), ())
    assert after.players[0].tokens[GOLD] == 0 and after.bank[GOLD] == 5
    assert after.players[0].prestige == 1  # the card's point; the noble has not visited


def test_reserving_the_last_noble_on_the_table_needs_no_choice_and_none_left_skips_it() -> None:
    after, events = apply(noble_card_position((3,)), PurchaseCard(RESERVE_NOBLE_CARD))
    assert NobleReserved(0, 3) in events and not asked(events)
    assert after.nobles == () and after.seat == 1
    after, events = apply(noble_card_position((), reserved_nobles={1: [3]}), PurchaseCard(RESERVE_NOBLE_CARD))
    assert not of_type(events, NobleReserved) and after.pending is None and after.seat == 1


def test_there_is_no_limit_to_reserved_nobles() -> None:
    state = noble_card_position((0, 1), reserved_nobles={0: [2, 3]}, num_players=3)
    after, _ = play(state, PurchaseCard(RESERVE_NOBLE_CARD), ReserveNoble(0))
    assert orient_of(after).reserved_nobles[0] == (2, 3, 0)


def test_a_reserved_noble_visits_only_its_holder() -> None:
    # Noble 3 wants 4 green and 4 red. Seat 1 meets it but it is seat 0's.
    greens_reds = [level1(GREEN, i) for i in range(4)] + [level1(RED, i) for i in range(4)]
    state = orient_position(seat=1, purchased={1: greens_reds}, reserved_nobles={0: [3]}, table_nobles=(0, 1))
    after, events = apply(state, TakeGems((0, 1, 2)))
    assert not of_type(events, NobleVisited) and orient_of(after).reserved_nobles == ((3,), ())
    holder = orient_position(purchased={0: greens_reds}, reserved_nobles={0: [3]}, table_nobles=(0, 1))
    after, events = apply(holder, TakeGems((0, 1, 2)))
    assert NobleVisited(0, 3) in events
    assert after.players[0].nobles == (3,) and after.players[0].prestige == 3
    assert orient_of(after).reserved_nobles == ((), ()) and after.nobles == (0, 1)


def test_still_one_noble_per_turn_with_reserved_ones() -> None:
    # Seat 0 meets noble 3 (reserved) and noble 8 (on the table: 3 blue, 3 green, 3 red).
    cards = [level1(GREEN, i) for i in range(4)] + [level1(RED, i) for i in range(4)]
    cards += [level1(BLUE, i) for i in range(3)]
    state = orient_position(purchased={0: cards}, reserved_nobles={0: [3]}, table_nobles=(8, 0))
    pending, _ = apply(state, TakeGems((0, 1, 2)))
    assert pending.pending == PendingDecision(DecisionKind.CHOOSE_NOBLE, 0, options=(8, 3))
    validate_state(pending)
    after, events = apply(pending, ChooseNoble(3))
    assert of_type(events, NobleVisited) == [NobleVisited(0, 3)]
    assert after.nobles == (8, 0) and orient_of(after).reserved_nobles == ((), ())
    after, _ = apply(pending, ChooseNoble(8))
    assert orient_of(after).reserved_nobles == ((3,), ()) and after.players[0].nobles == (8,)


# --- free cards ---------------------------------------------------------------------------


def take_level1_position(**kwargs: object) -> GameState:
    """Seat 0 can buy card 100 (4 white, 3 blue, 1 black) owning one red card: pairing is automatic."""
    settings: dict[str, object] = {
        "purchased": {0: [level1(RED)]},
        "held": {0: tokens(white=4, blue=3, black=1)},
        "market": {4: [PAIRED_TAKE_1, None], 0: [level1(WHITE), level1(BLUE), level1(GREEN), level1(BLACK)]},
    }
    settings.update(kwargs)
    return orient_position(**settings)  # type: ignore[arg-type]


def test_paired_take_level1_pairs_then_offers_the_face_up_level_1_cards_base_and_orient() -> None:
    state = take_level1_position()
    pending, events = apply(state, PurchaseCard(PAIRED_TAKE_1))
    assert CardPaired(0, PAIRED_TAKE_1, level1(RED), RED) in events
    assert pending.pending is not None and pending.pending.kind is DecisionKind.TAKE_FREE_CARD
    assert pending.pending.options == state.market[0] + state.market[3]
    validate_state(pending)
    refused(pending, TakeFreeCard(level2(WHITE)), Reason.CARD_NOT_AVAILABLE)
    refused(pending, PairCard(level1(RED)), Reason.DECISION_PENDING)
    assert pending.market[4][0] is None  # the bought card's slot waits for the end of the chain


def test_a_free_level_1_card_from_the_base_row_joins_the_seat_with_its_bonus() -> None:
    pending, _ = apply(take_level1_position(), PurchaseCard(PAIRED_TAKE_1))
    after, events = apply(pending, TakeFreeCard(level1(BLUE)))
    assert FreeCardTaken(0, level1(BLUE), 0, 1) in events
    kinds = [type(event) for event in events]
    assert kinds.index(FreeCardTaken) < kinds.index(CardRevealed)
    player = after.players[0]
    assert player.purchased == (level1(RED), PAIRED_TAKE_1, level1(BLUE))
    assert player.bonuses == (0, 1, 0, 2, 0)
    assert after.market[0][1] is not None and after.market[4][0] is not None  # both slots refilled
    assert level1(BLUE) not in after.market[0]


def test_a_free_level_1_card_from_the_orient_row_resolves_its_own_pairing() -> None:
    state = take_level1_position(
        purchased={0: [level1(RED), level1(GREEN)]}, market={4: [PAIRED_TAKE_1, None], 3: [PAIRED_A, GOLD_WHITE]}
    )
    pending, _ = apply(state, PurchaseCard(PAIRED_TAKE_1))
    assert pending.pending is not None and pending.pending.kind is DecisionKind.PAIR_CARD
    pending, _ = apply(pending, PairCard(level1(GREEN)))
    assert pending.pending is not None and pending.pending.kind is DecisionKind.TAKE_FREE_CARD
    pending, events = apply(pending, TakeFreeCard(PAIRED_A))
    assert FreeCardTaken(0, PAIRED_A, 3, 0) in events
    assert pending.pending == PendingDecision(DecisionKind.PAIR_CARD, 0, options=(level1(RED), level1(GREEN)))
    assert not of_type(events, CardRevealed)
    validate_state(pending)
    after, events = apply(pending, PairCard(level1(RED)))
    assert CardPaired(0, PAIRED_A, level1(RED), RED) in events
    assert orient_of(after).pairs[0] == ((PAIRED_TAKE_1, level1(GREEN)), (PAIRED_A, level1(RED)))
    assert after.players[0].bonuses == (0, 0, 2, 2, 0)


def test_a_free_gold_card_is_kept_for_a_later_purchase() -> None:
    state = take_level1_position(market={4: [PAIRED_TAKE_1, None], 3: [GOLD_WHITE, None]}, empty_decks=(0,))
    assert state.market[0] == (None,) * 4 and state.market[3][1] is not None
    pending, _ = apply(state, PurchaseCard(PAIRED_TAKE_1))
    after, _ = apply(pending, TakeFreeCard(GOLD_WHITE))
    assert after.players[0].purchased[-1] == GOLD_WHITE and after.pending is None


def test_a_single_face_up_level_1_card_is_taken_without_a_choice_and_none_skips() -> None:
    state = take_level1_position(market={4: [PAIRED_TAKE_1, None]}, empty_decks=(0, 3))
    assert state.market[0] == (None,) * 4 and state.market[3] == (None, None)
    after, events = apply(state, PurchaseCard(PAIRED_TAKE_1))
    assert not of_type(events, FreeCardTaken) and after.pending is None
    one = take_level1_position(market={4: [PAIRED_TAKE_1, None], 3: [GOLD_BLUE]}, empty_decks=(0, 3))
    assert one.market[3] == (GOLD_BLUE, None) and one.market[0] == (None,) * 4
    after, events = apply(one, PurchaseCard(PAIRED_TAKE_1))
    assert FreeCardTaken(0, GOLD_BLUE, 3, 0) in events and not asked(events)
    assert after.players[0].purchased[-1] == GOLD_BLUE


def take_level2_position(level2_rows: Mapping[int, Sequence[int | None]], **kwargs: object) -> GameState:
    """Seat 0 can buy card 110 (1 white, 6 blue, 3 green) owning one black card."""
    settings: dict[str, object] = {
        "purchased": {0: [level1(BLACK)]},
        "held": {0: tokens(white=1, blue=4, green=3, gold=2)},
        "market": {5: [TAKE_2, None], **level2_rows},
    }
    settings.update(kwargs)
    return orient_position(**settings)  # type: ignore[arg-type]


def test_take_level2_offers_the_face_up_level_2_cards_base_and_orient() -> None:
    state = take_level2_position(
        {1: [level2(RED), level2(BLUE), level2(GREEN), level2(BLACK)], 4: [DOUBLE[GREEN], DOUBLE[RED]]}
    )
    pending, events = apply(state, PurchaseCard(TAKE_2))
    assert pending.pending == PendingDecision(DecisionKind.TAKE_FREE_CARD, 0, options=state.market[1] + state.market[4])
    after, events = apply(pending, TakeFreeCard(DOUBLE[RED]))
    assert FreeCardTaken(0, DOUBLE[RED], 4, 1) in events
    assert after.players[0].bonuses == (1, 0, 0, 2, 1)
    assert after.players[0].prestige == 0


def test_a_free_level_2_card_that_reserves_a_noble_resolves_its_ability() -> None:
    state = take_level2_position({4: [RESERVE_NOBLE_CARD, DOUBLE[RED]]}, table_nobles=(0, 5))
    pending, _ = play(state, PurchaseCard(TAKE_2), TakeFreeCard(RESERVE_NOBLE_CARD))
    assert pending.pending == PendingDecision(DecisionKind.RESERVE_NOBLE, 0, options=(0, 5))
    validate_state(pending)
    after, events = apply(pending, ReserveNoble(5))
    assert NobleReserved(0, 5) in events and after.players[0].prestige == 1
    assert after.market[4][0] is not None and after.market[5][0] is not None


def test_a_free_level_2_paired_card_pairs_and_takes_a_level_1_card_in_turn() -> None:
    state = take_level2_position({4: [PAIRED_TAKE_1, DOUBLE[RED]], 3: [PAIRED_A, GOLD_WHITE]})
    state, events = play(state, PurchaseCard(TAKE_2))
    state, events = play(state, TakeFreeCard(PAIRED_TAKE_1))
    assert state.pending is not None and state.pending.kind is DecisionKind.PAIR_CARD  # white or black partner
    state, events = play(state, PairCard(TAKE_2))
    assert state.pending is not None and state.pending.kind is DecisionKind.TAKE_FREE_CARD
    state, events = play(state, TakeFreeCard(PAIRED_A))
    assert state.pending is not None and state.pending.kind is DecisionKind.PAIR_CARD
    state, events = play(state, PairCard(level1(BLACK)))
    assert state.pending is None and state.seat == 1
    assert orient_of(state).pairs[0] == ((PAIRED_TAKE_1, TAKE_2), (PAIRED_A, level1(BLACK)))
    assert state.players[0].bonuses == (2, 0, 0, 0, 2)
    assert {(e.deck, e.slot) for e in of_type(events, CardRevealed)} == {(3, 0), (4, 0), (5, 0)}  # refilled at the end


# --- sacrifice cards --------------------------------------------------------------------


def test_a_sacrifice_card_is_refused_without_two_bonuses_of_its_colour() -> None:
    state = orient_position(purchased={0: [level1(RED)]}, market={5: [SACRIFICE[RED], None]})
    assert not legal(state, PurchaseCard(SACRIFICE[RED]))
    error = refused(state, PurchaseCard(SACRIFICE[RED]), Reason.SACRIFICE_NOT_POSSIBLE)
    assert error.details == {"card_id": str(SACRIFICE[RED]), "color": "red", "needed": "2"}


def test_reserved_cards_cannot_be_discarded_for_a_sacrifice() -> None:
    state = orient_position(
        purchased={0: [level1(RED)]}, reserved={0: [level1(RED, 1)]}, market={5: [SACRIFICE[RED], None]}
    )
    refused(state, PurchaseCard(SACRIFICE[RED]), Reason.SACRIFICE_NOT_POSSIBLE)
    refused(state, PurchaseCard(SACRIFICE[RED], None, (level1(RED), level1(RED, 1))), Reason.SACRIFICE_NOT_POSSIBLE)


def test_a_sacrifice_costs_no_tokens_and_discards_two_bonus_cards_losing_their_prestige() -> None:
    owned = [level2(RED), level3(RED), level1(WHITE)]  # 1, 3 and 0 points
    state = orient_position(purchased={0: owned}, held={0: tokens(red=2)}, market={5: [SACRIFICE[RED], None]})
    assert legal(state, PurchaseCard(SACRIFICE[RED]))
    after, events = apply(state, PurchaseCard(SACRIFICE[RED]))
    assert CardsDiscarded(0, (level2(RED), level3(RED))) in events
    assert of_type(events, CardPurchased)[0].payment == (0,) * 6
    player = after.players[0]
    assert player.purchased == (level1(WHITE), SACRIFICE[RED])
    assert player.bonuses == (1, 0, 0, 0, 1) and player.prestige == 3 and player.tokens == tokens(red=2)
    assert orient_of(after).discarded[0] == (level2(RED), level3(RED))
    refused(state, PurchaseCard(SACRIFICE[RED], tokens(red=1)), Reason.PAYMENT_INVALID)
    apply(state, PurchaseCard(SACRIFICE[RED], (0,) * 6))


def test_a_sacrifice_discards_paired_cards_of_the_colour_first() -> None:
    owned = [level1(RED), level1(RED, 1), PAIRED_A, PAIRED_B, level1(GREEN)]
    pairs = [(PAIRED_A, level1(RED)), (PAIRED_B, level1(RED, 1))]
    state = orient_position(purchased={0: owned}, pairs={0: pairs}, market={5: [SACRIFICE[RED], None]})
    after, events = apply(state, PurchaseCard(SACRIFICE[RED]))
    assert CardsDiscarded(0, (PAIRED_A, PAIRED_B)) in events
    assert orient_of(after).pairs[0] == ()
    assert after.players[0].bonuses == (0, 0, 1, 2, 1)
    error = refused(
        state, PurchaseCard(SACRIFICE[RED], None, (level1(RED), level1(RED, 1))), Reason.SACRIFICE_NOT_POSSIBLE
    )
    assert error.details == {"card_id": str(PAIRED_A)}
    refused(state, PurchaseCard(SACRIFICE[RED], None, (PAIRED_A, level1(RED))), Reason.SACRIFICE_NOT_POSSIBLE)
    refused(state, PurchaseCard(SACRIFICE[RED], None, (PAIRED_A, PAIRED_B, level1(RED))), Reason.CARDS_SPENT_INVALID)


def test_a_sacrifice_with_more_paired_cards_than_needed_takes_any_of_them() -> None:
    owned = [level1(RED), PAIRED_A, PAIRED_B, 97]
    pairs = [(PAIRED_A, level1(RED)), (PAIRED_B, level1(RED)), (97, level1(RED))]
    state = orient_position(purchased={0: owned}, pairs={0: pairs}, market={5: [SACRIFICE[RED], None]})
    after, events = apply(state, PurchaseCard(SACRIFICE[RED], None, (97, PAIRED_A)))
    assert CardsDiscarded(0, (97, PAIRED_A)) in events
    assert orient_of(after).pairs[0] == ((PAIRED_B, level1(RED)),)
    assert after.players[0].bonuses[RED] == 2
    refused(state, PurchaseCard(SACRIFICE[RED], None, (97, PAIRED_A, PAIRED_B)), Reason.CARDS_SPENT_INVALID)
    refused(state, PurchaseCard(SACRIFICE[RED], None, (97,)), Reason.SACRIFICE_NOT_POSSIBLE)


def test_a_sacrifice_with_one_paired_card_adds_a_card_of_the_colour() -> None:
    owned = [DOUBLE[RED], PAIRED_A, level3(RED), level1(RED)]
    state = orient_position(
        purchased={0: owned}, pairs={0: [(PAIRED_A, DOUBLE[RED])]}, market={5: [SACRIFICE[RED], None]}
    )
    after, events = apply(state, PurchaseCard(SACRIFICE[RED]))
    assert CardsDiscarded(0, (PAIRED_A, level1(RED))) in events  # the cheapest in prestige
    # The paired card must go; the double bonus may complete it, but then nothing else.
    after, events = apply(state, PurchaseCard(SACRIFICE[RED], None, (PAIRED_A, DOUBLE[RED])))
    assert after.players[0].bonuses[RED] == 2 and orient_of(after).pairs[0] == ()
    refused(state, PurchaseCard(SACRIFICE[RED], None, (PAIRED_A, DOUBLE[RED], level1(RED))), Reason.CARDS_SPENT_INVALID)


def test_a_double_bonus_counts_two_for_a_sacrifice() -> None:
    state = orient_position(purchased={0: [DOUBLE[RED], level1(RED)]}, market={5: [SACRIFICE[RED], None]})
    after, events = apply(state, PurchaseCard(SACRIFICE[RED], None, (DOUBLE[RED],)))
    assert CardsDiscarded(0, (DOUBLE[RED],)) in events and after.players[0].bonuses[RED] == 1
    refused(state, PurchaseCard(SACRIFICE[RED], None, (DOUBLE[RED], level1(RED))), Reason.CARDS_SPENT_INVALID)
    alone = orient_position(purchased={0: [DOUBLE[RED]]}, market={5: [SACRIFICE[RED], None]})
    after, events = apply(alone, PurchaseCard(SACRIFICE[RED]))
    assert CardsDiscarded(0, (DOUBLE[RED],)) in events


def test_explicit_sacrifice_cards_must_be_owned_distinct_and_of_the_colour() -> None:
    state = orient_position(
        purchased={0: [level1(RED), level1(RED, 1), GOLD_WHITE, level1(GREEN)], 1: [level1(RED, 2)]},
        market={5: [SACRIFICE[RED], None]},
    )
    for spent in [(level1(RED), level1(RED, 2)), (level1(RED), level1(RED)), (level1(RED), GOLD_WHITE)]:
        refused(state, PurchaseCard(SACRIFICE[RED], None, spent), Reason.CARDS_SPENT_INVALID)
    refused(state, PurchaseCard(SACRIFICE[RED], None, (level1(RED), level1(GREEN))), Reason.CARDS_SPENT_INVALID)
    refused(state, PurchaseCard(SACRIFICE[RED], None, (level1(RED),)), Reason.SACRIFICE_NOT_POSSIBLE)
    after, _ = apply(state, PurchaseCard(SACRIFICE[RED], None, (level1(RED, 1), level1(RED))))
    assert orient_of(after).discarded[0] == (level1(RED, 1), level1(RED))


def test_a_sacrifice_by_default_loses_the_least_prestige() -> None:
    owned = [level3(RED), level2(RED), level1(RED, 7), level1(RED)]  # 3, 1, 1 and 0 points
    state = orient_position(purchased={0: owned}, market={5: [SACRIFICE[RED], None]})
    _, events = apply(state, PurchaseCard(SACRIFICE[RED]))
    assert CardsDiscarded(0, (level1(RED), level1(RED, 7))) in events


# --- ranking ------------------------------------------------------------------------------


def test_tie_break_counts_spent_gold_cards_and_sacrificed_cards_as_purchased() -> None:
    # Both seats have 2 prestige and 2 cards in front of them; seat 0 also spent a gold card.
    state = orient_position(
        purchased={0: [level2(WHITE, 3), level1(BLUE, 1)], 1: [level2(RED, 2), level1(BLUE, 2)]},
        discarded={0: [GOLD_WHITE]},
    )
    assert state.players[0].prestige == state.players[1].prestige == 2
    ranking = orient_rank(state)
    assert [(s.seat, s.place, s.purchased_cards) for s in ranking] == [(1, 1, 2), (0, 2, 3)]
    assert rank_by_prestige(state)[0].place == rank_by_prestige(state)[1].place  # without the discards: a tie


def test_a_game_ending_with_discards_ranks_by_them() -> None:
    # 10 prestige each in the final round; seat 0 has two cards and a spent gold card, seat 1 two cards.
    state = orient_position(
        purchased={0: [level3(WHITE, 3), level3(BLUE, 3)], 1: [level3(GREEN, 3), level3(RED, 3)]},
        discarded={0: [GOLD_WHITE]},
        seat=1,
    )._replace(final_round=True)
    after, _ = apply(state, TakeGems((0, 1, 2)))
    assert after.is_over and after.winners == (1,)
    validate_state(after)
    assert [(s.seat, s.place, s.prestige, s.purchased_cards) for s in after.ranking] == [(1, 1, 10, 2), (0, 2, 10, 3)]


# --- action ids ------------------------------------------------------------------------


def test_the_orient_answers_round_trip_through_action_ids() -> None:
    answers = [PairCard(card.id) for card in CARDS] + [TakeFreeCard(card.id) for card in CARDS]
    answers += [ReserveNoble(noble.id) for noble in NOBLES] + [ReserveFromDeck(deck) for deck in range(6)]
    ids = [action_id(answer) for answer in answers]
    assert len(set(ids)) == len(ids)
    for answer, value in zip(answers, ids):
        back = action_from_id(value)
        assert type(back) is type(answer) and back == answer


# --- validating a client's state -----------------------------------------------------------


def invalid(state: GameState, field_prefix: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        validate_state(state)
    assert caught.value.reason is Reason.INVALID_STATE
    assert caught.value.details["field"].startswith(field_prefix), caught.value.details


def test_validate_refuses_an_orient_game_without_its_state_or_with_wrong_sizes() -> None:
    state = orient_position()
    invalid(ORIENT_STATE.put(state, None), "orient")
    invalid(ORIENT_STATE.put(state, orient_of(state)._replace(discarded=((),))), "orient")


def test_validate_refuses_bad_pairs() -> None:
    owned = [level1(RED), PAIRED_A, GOLD_WHITE]
    state = orient_position(purchased={0: owned}, pairs={0: [(PAIRED_A, level1(RED))]})
    orient = orient_of(state)
    invalid(ORIENT_STATE.put(state, orient._replace(pairs=((), ()))), "players[0].bonuses")  # bonus without a pair
    player = state.players[0]
    unpaired = ORIENT_STATE.put(
        state._replace(players=(player._replace(bonuses=(0, 0, 0, 1, 0)),) + state.players[1:]),
        orient._replace(pairs=((), ())),
    )
    invalid(unpaired, "orient.pairs")  # a paired card not paired
    invalid(ORIENT_STATE.put(state, orient._replace(pairs=(((PAIRED_A, GOLD_WHITE),), ()))), "orient.pairs")
    red_three = player._replace(bonuses=(0, 0, 0, 3, 0))
    twice = ORIENT_STATE.put(
        state._replace(players=(red_three,) + state.players[1:]),
        orient._replace(pairs=(((PAIRED_A, level1(RED)), (PAIRED_A, level1(RED))), ())),
    )
    invalid(twice, "orient.pairs")


def test_validate_refuses_a_noble_in_two_places() -> None:
    state = orient_position(reserved_nobles={0: [2]}, table_nobles=(0, 1))
    orient = orient_of(state)
    invalid(state._replace(nobles=(0, 1, 2)), "orient.reserved_nobles")
    invalid(ORIENT_STATE.put(state, orient._replace(reserved_nobles=((2,), (2,)))), "orient.reserved_nobles")
    invalid(ORIENT_STATE.put(state, orient._replace(reserved_nobles=((2, 3), ()))), "orient.reserved_nobles")
    invalid(ORIENT_STATE.put(state, orient._replace(reserved_nobles=((12,), ()))), "orient.reserved_nobles")


def test_validate_checks_the_options_of_a_pending_orient_decision() -> None:
    state = noble_card_position((0, 1, 2))
    pending, _ = apply(state, PurchaseCard(RESERVE_NOBLE_CARD))
    validate_state(pending)
    invalid(pending._replace(pending=pending.pending._replace(options=(0, 1))), "pending.options")  # type: ignore[union-attr]
    invalid(pending._replace(pending=pending.pending._replace(kind=DecisionKind.PAIR_CARD)), "pending.kind")  # type: ignore[union-attr]
    invalid(pending._replace(pending=pending.pending._replace(kind=DecisionKind.TAKE_FREE_CARD)), "pending.kind")  # type: ignore[union-attr]
