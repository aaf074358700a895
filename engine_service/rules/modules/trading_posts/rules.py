"""Cities of Splendor, module "The Trading Posts": shields on the Route to the Orient unlock powers.

* Setup: the base game's (nobles as usual); no shield on the board.
* End of turn, right after the noble visit (rules README decision 8): the player puts a
  shield on every post whose requirements they now meet and where they have none yet,
  several in one turn if need be (decision 7), in post order. No choice is involved.
* The powers, post ids being the row order of ``data/trading_posts.csv``:

  - post 0, after each purchase: one gem of one of the five colours (never gold, decision 7)
    from the bank, before the market is refilled; a colour just spent may be taken back.
    Not on the turn the shield is placed (shields come after the main action anyway);
  - post 1, with two gems of one colour (the pile still needs four): one gem of another colour;
  - post 2, when purchasing: each gold token stands for up to two gems of one colour
    (it still counts as one token against the limit of ten);
  - post 3: 5 prestige, once (it needs a noble besides the bonuses);
  - post 4: 1 prestige per own shield on the board, itself included, so 1 more for
    every shield placed later.

  Posts 3 and 4 can trigger the final round like any prestige.
* Ending and ranking: the base game's.

The gem of posts 0 and 1 is a TAKE_GEM decision when several colours are possible,
taken automatically when only one is, and nothing when none is. The decision names
no post: post 0 offers every colour in the bank, post 1 every colour but the one
just taken two of (its pile holds two or more afterwards), so the options tell which
power pays out.
"""

from __future__ import annotations

from typing import Final

from ...actions import Action, MainAction, PurchaseCard, TakeTwoGems
from ...catalog import CARDS
from ...colors import COLOR_NAMES, GEM_COLORS, GOLD, NO_BONUSES, format_tokens
from ...decisions import DecisionKind
from ...errors import Reason, RuleViolation
from ...events import Event
from ...payment import amount_due, cannot_afford, check_payment, check_payment_tokens, default_payment, shortfall
from ...plugin import Price
from ...state import GameState, PendingDecision, PlayerState, add_tokens, sub_tokens, with_player
from ...turn import ask, wrong_answer
from .actions import TakeGem
from .components import (
    EXTRA_GEM_WITH_TWO,
    FIVE_PRESTIGE,
    FIVE_PRESTIGE_POINTS,
    GEM_AFTER_PURCHASE,
    GOLD_WORTH_TWO,
    POSTS,
    PRESTIGE_PER_SHIELD,
)
from .decisions import TAKE_GEM
from .events import PowerGemTaken, ShieldPlaced
from .state import STATE, TradingPostsState

NAME: Final = "trading_posts"

# Per post, only the colours it asks for (most posts ask for one or two): the cheapest check.
_NEEDS: Final = tuple(tuple((color, need) for color, need in enumerate(post.requirement) if need) for post in POSTS)
_NOBLES_NEEDED: Final = tuple(post.nobles for post in POSTS)
POST_IDS: Final = tuple(post.id for post in POSTS)
_CHECKS: Final = tuple(zip(POST_IDS, _NEEDS, _NOBLES_NEEDED))
_COSTS: Final = tuple(card.cost for card in CARDS)
_TAKE_GEM: Final = tuple(TakeGem(color) for color in GEM_COLORS)  # actions are immutable: built once


def fail(field: str, message: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_STATE, message, field=field)


def _shields(state: GameState, seat: int) -> tuple[int, ...]:
    posts = STATE.of(state)
    if not 0 <= seat < len(posts.shields):
        raise fail("trading_posts.shields", "one list of shields per seat")
    return posts.shields[seat]


def meets(player: PlayerState, post: int) -> bool:
    """Whether the player meets the post's requirements (bonuses, and nobles for post 3)."""
    bonuses = player.bonuses
    for color, need in _NEEDS[post]:
        if bonuses[color] < need:
            return False
    return len(player.nobles) >= _NOBLES_NEEDED[post]


def post_prestige(shields: tuple[int, ...]) -> int:
    """Prestige the shields give: 5 for post 3, and one per shield if post 4 holds one."""
    prestige = FIVE_PRESTIGE_POINTS if FIVE_PRESTIGE in shields else 0
    if PRESTIGE_PER_SHIELD in shields:
        prestige += len(shields)
    return prestige


def setup(state: GameState) -> GameState:
    """The base setup; no shield on the board yet."""
    return STATE.put(state, TradingPostsState(((),) * state.config.num_players))


# --- posts 0 and 1: a gem from the bank ------------------------------------------


def _take_gem(state: GameState, seat: int, color: int, post: int, events: list[Event]) -> GameState:
    gem = [0, 0, 0, 0, 0, 0]
    gem[color] = 1
    taken = tuple(gem)
    player = state.players[seat]
    events.append(PowerGemTaken(seat, color, post))
    return state._replace(
        bank=sub_tokens(state.bank, taken),
        players=with_player(state.players, seat, player._replace(tokens=add_tokens(player.tokens, taken))),
    )


def colors_in_bank(bank: tuple[int, ...], excluded: int | None = None) -> tuple[int, ...]:
    return tuple(color for color in GEM_COLORS if bank[color] and color != excluded)


def _pending_post(state: GameState, pending: PendingDecision) -> int:
    """Which power a pending TAKE_GEM serves: post 0 offers every colour in the bank, post 1 all but one."""
    return GEM_AFTER_PURCHASE if pending.options == colors_in_bank(state.bank) else EXTRA_GEM_WITH_TWO


class GemPowers:
    """Posts 0 and 1, told the main action before the market is refilled."""

    decisions: tuple[DecisionKind, ...] = (TAKE_GEM,)

    def follow(self, state: GameState, action: MainAction, events: list[Event]) -> GameState:
        if isinstance(action, PurchaseCard):
            post, excluded = GEM_AFTER_PURCHASE, None
        elif isinstance(action, TakeTwoGems):
            post, excluded = EXTRA_GEM_WITH_TWO, action.color
        else:
            return state
        seat = state.seat
        if post not in _shields(state, seat):
            return state
        options = colors_in_bank(state.bank, excluded)
        if not options:
            return state
        if len(options) == 1:
            return _take_gem(state, seat, options[0], post, events)
        return ask(state, PendingDecision(TAKE_GEM, seat, options=options), events)

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        return state  # all the work happens in ``follow``, told the main action

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        pending = state.pending
        assert pending is not None
        if not isinstance(action, TakeGem):
            raise wrong_answer(pending)
        color = action.color
        if color not in pending.options:
            name = COLOR_NAMES[color] if isinstance(color, int) and 0 <= color <= GOLD else str(color)
            offered = ", ".join(COLOR_NAMES[option] for option in pending.options)
            raise RuleViolation(
                Reason.GEM_NOT_AVAILABLE, f"{name} is not one of the colours offered ({offered})", color=name
            )
        post = _pending_post(state, pending)
        return _take_gem(state._replace(pending=None), pending.seat, color, post, events)

    def choices(self, state: GameState) -> list[Action]:
        assert state.pending is not None
        return [_TAKE_GEM[color] for color in state.pending.options]


# --- shields, after the noble visit ------------------------------------------------


class PlaceShields:
    """A shield on every post whose requirements the player now meets; no choice involved."""

    decisions: tuple[DecisionKind, ...] = ()

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        seat = state.seat
        before = _shields(state, seat)
        player = state.players[seat]
        bonuses = player.bonuses
        nobles = len(player.nobles)
        shields = before
        # Runs every turn: the requirements are read inline from the precomputed table.
        for post, needs, nobles_needed in _CHECKS:
            if post in shields or nobles < nobles_needed:
                continue
            for color, need in needs:
                if bonuses[color] < need:
                    break
            else:
                gained = post_prestige(shields + (post,)) - post_prestige(shields)
                shields += (post,)
                events.append(ShieldPlaced(seat, post, gained))
        if shields is before:
            return state
        all_shields = STATE.of(state).shields
        player = player._replace(prestige=player.prestige + post_prestige(shields) - post_prestige(before))
        state = state._replace(players=with_player(state.players, seat, player))
        return STATE.put(state, TradingPostsState(all_shields[:seat] + (shields,) + all_shields[seat + 1 :]))

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        raise AssertionError("placing shields asks no decision")

    def choices(self, state: GameState) -> list[Action]:
        return []


# --- post 2: gold worth two gems ------------------------------------------------


def _gold_needed(due: tuple[int, ...], paid: tuple[int, ...]) -> int:
    """Gold tokens covering what coloured tokens leave unpaid, each worth up to two gems of one colour."""
    return sum((owed - given + 1) // 2 for owed, given in zip(due, paid) if owed > given)


def can_afford(state: GameState, seat: int, card_id: int) -> bool:
    """Whether the seat can pay for the card (gold counts double for a post-2 shield holder)."""
    return bool(affordable(state, seat, [card_id]))


def affordable(state: GameState, seat: int, card_ids: list[int]) -> list[int]:
    """The cards the seat can pay for, in order (once per legal-action list: unrolled, no intermediate tuples)."""
    player = state.players[seat]
    tokens = player.tokens
    bonuses = player.bonuses
    h0 = bonuses[0] + tokens[0]
    h1 = bonuses[1] + tokens[1]
    h2 = bonuses[2] + tokens[2]
    h3 = bonuses[3] + tokens[3]
    h4 = bonuses[4] + tokens[4]
    gold = tokens[GOLD]
    gold_worth_two: bool | None = None  # whether the seat holds the post-2 shield, read when first needed
    kept: list[int] = []
    for card_id in card_ids:
        c0, c1, c2, c3, c4 = _COSTS[card_id]
        m0 = c0 - h0
        m1 = c1 - h1
        m2 = c2 - h2
        m3 = c3 - h3
        m4 = c4 - h4
        missing = (m0 if m0 > 0 else 0) + (m1 if m1 > 0 else 0) + (m2 if m2 > 0 else 0)
        missing += (m3 if m3 > 0 else 0) + (m4 if m4 > 0 else 0)
        if missing <= gold:
            kept.append(card_id)
            continue
        # Short of gold: a post-2 shield holder's gold covers up to two missing gems of its colour,
        # so with more than twice the gold missing nothing helps (the usual case, decided without the shields).
        if missing > 2 * gold:
            continue
        if gold_worth_two is None:
            gold_worth_two = GOLD_WORTH_TWO in STATE.of(state).shields[seat]
        if not gold_worth_two:
            continue
        halves = ((m0 + 1) // 2 if m0 > 0 else 0) + ((m1 + 1) // 2 if m1 > 0 else 0)
        halves += ((m2 + 1) // 2 if m2 > 0 else 0) + ((m3 + 1) // 2 if m3 > 0 else 0) + ((m4 + 1) // 2 if m4 > 0 else 0)
        if halves <= gold:
            kept.append(card_id)
    return kept


def _check_double_gold_payment(player: PlayerState, due: tuple[int, ...], payment: tuple[int, ...]) -> None:
    """Raise PAYMENT_INVALID unless ``payment`` pays ``due`` exactly, each gold worth up to two gems."""
    check_payment_tokens(player, due, payment)
    gold_needed = _gold_needed(due, payment[:GOLD])
    if payment[GOLD] != gold_needed:
        raise RuleViolation(
            Reason.PAYMENT_INVALID,
            f"the payment needs exactly {gold_needed} gold, each worth two gems of one colour, "
            f"to cover {format_tokens(due)}, not {payment[GOLD]}",
        )


def price(state: GameState, seat: int, action: PurchaseCard) -> Price:
    """The tokens the purchase costs: the base rules, or gold worth two gems for a post-2 shield holder."""
    if action.cards_spent:
        raise RuleViolation(Reason.CARDS_SPENT_INVALID, "only Orient games spend cards on a purchase")
    card_id = action.card_id
    player = state.players[seat]
    tokens = player.tokens
    cost = _COSTS[card_id]
    if GOLD_WORTH_TWO not in _shields(state, seat):
        if action.payment is None:  # the usual purchase: the base game's default, which says what gold it needs
            paid = default_payment(player, cost)
            if paid[GOLD] > tokens[GOLD]:
                raise cannot_afford(card_id, paid[GOLD] - tokens[GOLD])
            return Price(paid)
        missing = shortfall(amount_due(cost, player.bonuses), tokens) - tokens[GOLD]
        if missing > 0:
            raise cannot_afford(card_id, missing)
        check_payment(player, cost, action.payment)
        return Price(tuple(action.payment))
    due = amount_due(cost, player.bonuses)
    paid = tuple(owed if owed < held else held for owed, held in zip(due, tokens))
    gold = _gold_needed(due, paid)
    if gold > tokens[GOLD]:
        raise cannot_afford(card_id, gold - tokens[GOLD])
    if action.payment is None:
        return Price(paid + (gold,))
    payment = tuple(action.payment)
    _check_double_gold_payment(player, due, payment)
    return Price(payment)


def give_up(state: GameState, seat: int, price: Price, events: list[Event]) -> GameState:
    return state  # no card is ever spent in this module


# --- holdings and client states -------------------------------------------------


def extra_holdings(state: GameState, seat: int) -> tuple[tuple[int, ...], int]:
    """The posts' prestige; they give no bonus."""
    return NO_BONUSES, post_prestige(_shields(state, seat))
