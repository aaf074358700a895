"""Cities of Splendor, module "The Orient": three extra decks of cards with abilities.

* Setup: per level, the ten Orient cards are shuffled; two lie face up beside the
  four base cards and eight form the deck (decks 3-5 and market rows 3-5). Every
  taken card is replaced from its own deck; blind reserves may be drawn from an
  Orient deck (rules README decision 6).
* Buying: a paired card needs an owned card with a printed bonus to attach to; a
  sacrifice card needs enough bonuses of its colour on purchased cards
  (``refusals.py``). Gold cards and sacrifices change how purchases are paid
  (``payment.py``; the legal-action list's affordable cards: ``affordable.py``).
* After a purchase, before the market refill: the bought card's ability, then the
  abilities of the free cards it brings (``abilities.py``).
* Nobles: a reserved noble can visit only its holder; still one noble per turn.
* Holdings: a paired card gives one bonus of its partner's colour, even on a
  double bonus (the rulebook notes recommend it). The rules do not limit how many
  paired cards one card carries, so a card already carrying one stays a partner.
  Spent gold cards and sacrificed cards leave the game (``discarded``).
* Ranking: the base one, counting each seat's discarded cards among its
  purchased cards for the tie-break: a spent gold card still counts (decision 6),
  and so does a sacrificed card, since it was purchased too.
"""

from __future__ import annotations

from typing import Final

from ...actions import ChooseNoble, MainAction, PurchaseCard
from ...catalog import CARDS, CARDS_BY_DECK, NOBLES, ORIENT_DECKS
from ...decisions import DecisionKind
from ...ending import rank_by_prestige
from ...errors import Reason, RuleViolation
from ...events import Event
from ...plugin import ForbiddenCards
from ...rng import Stream, shuffled, stream
from ...state import GameState, Standing, with_table
from ...turn import AwardOne, qualifying_nobles, visit
from .cards import BONUS, IS_PAIRED, SACRIFICE, orient_of
from .payment import sacrifice_not_possible
from .refusals import REFUSALS, RESTRICTED, refusal_index
from .state import STATE, OrientState, new_orient_state, with_orient

NAME: Final = "orient"
ORIENT_SLOTS: Final = 2  # face-up Orient cards per level
_STREAMS: Final = (Stream.ORIENT_LEVEL_1, Stream.ORIENT_LEVEL_2, Stream.ORIENT_LEVEL_3)
_REQUIREMENTS: Final = tuple(noble.requirement for noble in NOBLES)
_SLOT: Final = STATE.index


def setup(state: GameState) -> GameState:
    """Deal the three Orient decks, two cards of each face up."""
    seed = state.config.seed
    decks = list(state.decks)
    market = list(state.market)
    for deck, purpose in zip(ORIENT_DECKS, _STREAMS):
        pile = shuffled(CARDS_BY_DECK[deck], stream(seed, purpose))
        market.append(pile[:ORIENT_SLOTS])
        decks.append(pile[ORIENT_SLOTS:])
    players = state.config.num_players
    orient = OrientState(pairs=((),) * players, reserved_nobles=((),) * players, discarded=((),) * players)
    state = with_table(state, state.bank, tuple(market), tuple(decks), state.players)
    return with_orient(state, state.players, orient, state.pending)


def check_main_action(state: GameState, action: MainAction) -> None:
    """A paired card needs a card with a printed bonus to attach to; a sacrifice card needs the bonuses it discards."""
    if type(action) is not PurchaseCard or action.card_id not in RESTRICTED:
        return
    card_id = action.card_id
    sacrifice = SACRIFICE[card_id]
    player = state.players[state.seat]
    if IS_PAIRED[card_id]:
        # A seat has bonuses only from cards with a printed bonus, or from pairs attached to one.
        if any(player.bonuses) or not _available(state, card_id):
            return
        raise RuleViolation(
            Reason.PAIRING_NOT_POSSIBLE,
            f"card {card_id} must be paired with an owned card with a gem bonus, and the seat has none",
            card_id=str(card_id),
        )
    assert sacrifice is not None
    color, count = sacrifice
    if player.bonuses[color] >= count or not _available(state, card_id):
        return
    raise sacrifice_not_possible(card_id, color, count, player.bonuses[color])


def forbidden_cards(state: GameState) -> ForbiddenCards:
    """What ``check_main_action`` refuses, for the legal-action list: the purchases the seat's bonuses forbid."""
    return REFUSALS[refusal_index(state.players[state.seat].bonuses)]  # once per legal-action list: no extra call


def _available(state: GameState, card_id: int) -> bool:
    """Face up or reserved by the seat: otherwise the purchase is refused as CARD_NOT_AVAILABLE."""
    deck = CARDS[card_id].deck
    return card_id in state.players[state.seat].reserved or (deck < len(state.market) and card_id in state.market[deck])


def _qualifying(state: GameState, seat: int) -> tuple[int, ...]:
    """The table's nobles the seat meets, then its own reserved ones."""
    table = qualifying_nobles(state, seat)
    states = state.module_states  # orient_of, inlined: this runs on every turn
    orient = states[_SLOT] if len(states) > _SLOT else None
    reserved = (orient if type(orient) is OrientState else orient_of(state)).reserved_nobles[seat]
    if not reserved:
        return table
    b0, b1, b2, b3, b4 = state.players[seat].bonuses
    met = []
    for noble_id in reserved:
        r0, r1, r2, r3, r4 = _REQUIREMENTS[noble_id]
        if b0 >= r0 and b1 >= r1 and b2 >= r2 and b3 >= r3 and b4 >= r4:
            met.append(noble_id)
    return table + tuple(met)


def _visit(state: GameState, seat: int, noble_id: int, events: list[Event]) -> GameState:
    orient = orient_of(state)
    held = orient.reserved_nobles
    if noble_id in held[seat]:
        left = tuple([noble for noble in held[seat] if noble != noble_id])
        nobles = held[:seat] + (left,) + held[seat + 1 :]
        orient = new_orient_state(pairs=orient.pairs, reserved_nobles=nobles, discarded=orient.discarded)
        state = with_orient(state, state.players, orient, state.pending)
    return visit(state, seat, noble_id, events)


# The base visit, with the seat's reserved nobles among the candidates. Still one noble per turn.
VISIT_NOBLE: Final = AwardOne(
    DecisionKind.CHOOSE_NOBLE,
    answer=ChooseNoble,
    qualifying=_qualifying,
    award=_visit,
    refused=Reason.NOBLE_NOT_AVAILABLE,
    noun="noble",
)


def extra_holdings(state: GameState, seat: int) -> tuple[tuple[int, ...], int]:
    """The paired cards' bonuses: one of the partner's colour per pair; no prestige."""
    pairs = orient_of(state).pairs
    if len(pairs) != state.config.num_players:
        raise fail("orient.pairs", "one entry per seat")
    bonuses = [0, 0, 0, 0, 0]
    for _, partner in pairs[seat]:
        color = BONUS[partner] if 0 <= partner < len(BONUS) else None
        if color is None:
            raise fail("orient.pairs", f"card {partner} has no bonus to pair with")
        bonuses[color] += 1
    return tuple(bonuses), 0


def out_of_play(state: GameState) -> tuple[int, ...]:
    return tuple([card for cards in orient_of(state).discarded for card in cards])


def rank(state: GameState) -> tuple[Standing, ...]:
    """Base ranking; discarded cards still count as purchased ones for the tie-break."""
    discarded = orient_of(state).discarded
    counts = tuple(len(player.purchased) + len(discarded[seat]) for seat, player in enumerate(state.players))
    return rank_by_prestige(state, purchased_counts=counts)


def fail(field: str, message: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_STATE, message, field=field)
