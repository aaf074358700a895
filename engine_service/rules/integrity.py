"""Checks that a state could arise in a real game.

States arrive from clients, so nothing may be trusted: ``validate_state`` raises
``RuleViolation(INVALID_STATE)`` naming the first inconsistency and the field at
fault, instead of letting the engine crash later on an impossible position.
"""

from __future__ import annotations

from collections import Counter

from .catalog import CARDS, NOBLES, is_known_card, is_known_noble
from .colors import GEM_COLORS, TOKEN_KINDS
from .config import validate_config
from .decisions import DecisionKind
from .errors import Reason, RuleViolation
from .game_setup import GEMS_PER_COLOR, GOLD_TOKENS
from .gems import MAX_TOKENS_TAKEN
from .reserve import RESERVE_LIMIT
from .ruleset import Ruleset, known_modules, ruleset_for
from .state import GameState, PlayerState
from .turn import TOKEN_LIMIT, AwardOne, qualifying_nobles


def _fail(field: str, message: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_STATE, message, field=field)


def validate_state(state: GameState) -> None:
    """Raise ``RuleViolation(INVALID_STATE)`` unless ``state`` is a consistent game."""
    validate_config(state.config, known_modules())
    num_players = state.config.num_players
    if len(state.players) != num_players:
        raise _fail("players", f"{len(state.players)} players for a {num_players}-player game")
    for name, seat in (("first_seat", state.first_seat), ("seat", state.seat)):
        if not 0 <= seat < num_players:
            raise _fail(name, f"seat {seat} is out of range")
    if state.turn < 0 or not 0 <= state.passes_in_a_row <= num_players:
        raise _fail("turn", "turn and pass counters must be non-negative and passes at most one round")
    ruleset = ruleset_for(state)
    if not _holdings_consistent(state, ruleset):
        # Only to name the fault: these raise exactly where the one-pass test above failed.
        _check_tokens(state)
        _check_cards(state, ruleset)
        _check_nobles(state)
        for seat, player in enumerate(state.players):
            _check_player(state, ruleset, seat, player)
    _check_pending(state)
    _check_end(state)
    for module in ruleset.modules:
        if module.validate is not None:
            module.validate(state)


# What ``_holdings_consistent`` compares against, computed once.
_TOKEN_TOTALS = {players: (gems,) * len(GEM_COLORS) + (GOLD_TOKENS,) for players, gems in GEMS_PER_COLOR.items()}
_NOBLE_IDS = frozenset(range(len(NOBLES)))
# A card's bonus colour and points as one integer: one byte per colour (a count of cards,
# below 256), the points above them, so a sum over cards adds up every figure at once.
_POINTS_SHIFT = 8 * len(GEM_COLORS)
_CARD_FIGURES = tuple(
    (card.bonus_count << 8 * card.bonus if card.bonus is not None else 0) + (card.points << _POINTS_SHIFT)
    for card in CARDS
)
_NOBLE_FIGURES = tuple(noble.points << _POINTS_SHIFT for noble in NOBLES)


def _holdings_consistent(state: GameState, ruleset: Ruleset) -> bool:
    """True only if ``_check_tokens``, ``_check_cards``, ``_check_nobles`` and ``_check_player``
    would all pass. False may also mean an unusual valid state (an empty market slot), left
    to them.

    This is what every call runs: a few C-level set and tuple operations instead of
    the checks' per-item loops. The checks themselves run only when it fails, to raise
    the first fault in their own order.
    """
    decks = state.decks
    market = state.market
    deck_cards = ruleset.deck_cards
    if len(decks) != len(deck_cards) or len(market) != len(deck_cards):
        return False
    placed: list[int] = []
    for cards_of_deck, slots, pile, row in zip(deck_cards, ruleset.deck_slots, decks, market):
        cards = pile + row  # None (an empty slot) is in no deck
        if len(row) != slots or not cards_of_deck.issuperset(cards):
            if pile or None not in row:  # an empty slot beside a pile needs the refill rules
                return False
            cards = tuple([card for card in row if card is not None])
            if len(row) != slots or not cards_of_deck.issuperset(cards):
                return False
        placed += cards  # type: ignore[arg-type]  # no None left
    tokens = state.bank
    nobles = state.nobles
    players = state.players
    for player in players:
        held = player.tokens
        reserved = player.reserved
        if len(held) != TOKEN_KINDS or len(reserved) > RESERVE_LIMIT or len(player.reserved_blind) != len(reserved):
            return False
        tokens += held
        placed += reserved
        placed += player.purchased
        nobles += player.nobles
    out_of_play = [module.out_of_play for module in ruleset.modules if module.out_of_play is not None]
    for cards_out in out_of_play:
        placed += cards_out(state)
    # Every card exactly once (so every id indexes the catalog), every noble at most once.
    all_cards = ruleset.all_cards
    if len(placed) != len(all_cards) or set(placed) != all_cards:
        return False
    num_players = state.config.num_players
    if len(nobles) > num_players + 1 or len(set(nobles)) != len(nobles) or not _NOBLE_IDS.issuperset(nobles):
        return False
    # Six counts per pile (bank, then each seat), none negative, each colour adding up to the set.
    step = TOKEN_KINDS  # six kinds, spelled out: a comprehension costs more than the sums
    totals = (
        sum(tokens[0::step]),
        sum(tokens[1::step]),
        sum(tokens[2::step]),
        sum(tokens[3::step]),
        sum(tokens[4::step]),
        sum(tokens[5::step]),
    )
    if len(state.bank) != TOKEN_KINDS or min(tokens) < 0 or totals != _TOKEN_TOTALS.get(num_players):
        return False
    extras = [module.extra_holdings for module in ruleset.modules if module.extra_holdings is not None]
    for seat, player in enumerate(players):
        figures = sum(map(_CARD_FIGURES.__getitem__, player.purchased))
        if player.nobles:
            figures += sum(map(_NOBLE_FIGURES.__getitem__, player.nobles))
        for extra in extras:
            extra_bonuses, extra_prestige = extra(state, seat)
            if min(extra_bonuses) < 0 or extra_prestige < 0:
                return False
            figures += extra_prestige << _POINTS_SHIFT
            figures += sum(count << 8 * color for color, count in enumerate(extra_bonuses))
        bonuses = tuple(figures.to_bytes(8, "little")[: len(GEM_COLORS)])
        if figures >> _POINTS_SHIFT != player.prestige or bonuses != player.bonuses:
            return False
    return True


def _check_tokens(state: GameState) -> None:
    gems = GEMS_PER_COLOR[state.config.num_players]
    expected = (gems,) * 5 + (GOLD_TOKENS,)
    piles = [state.bank] + [player.tokens for player in state.players]
    for index, pile in enumerate(piles):
        if len(pile) != TOKEN_KINDS or min(pile) < 0:
            field = "bank" if index == 0 else f"players[{index - 1}].tokens"
            raise _fail(field, "token counts are six non-negative numbers")
    totals = tuple(map(sum, zip(*piles)))
    if totals != expected:
        raise _fail("bank", f"bank and players hold {totals} tokens in all; a game has {expected}")


def _check_cards(state: GameState, ruleset: Ruleset) -> None:
    deck_cards = ruleset.deck_cards
    if len(state.decks) != len(state.market):
        raise _fail("market", "one market row per deck")
    if len(state.decks) != len(deck_cards):  # the base game's three; module decks come with their module
        raise _fail("decks", f"{len(state.decks)} decks: this game has {len(deck_cards)}")
    placed: list[int] = []
    for deck, (pile, row) in enumerate(zip(state.decks, state.market)):
        slots = ruleset.deck_slots[deck]
        if len(row) != slots:
            raise _fail(f"market[{deck}]", f"market row {deck} has {slots} slots")
        cards = pile + tuple([card for card in row if card is not None])
        if not deck_cards[deck].issuperset(cards):
            bad = next(c for c in cards if not is_known_card(c) or CARDS[c].deck != deck)
            raise _fail(f"decks[{deck}]", f"card {bad} does not belong to deck {deck}")
        placed += cards
        if pile and None in row and not _refill_pending(state):
            raise _fail(f"market[{deck}]", "an empty market slot while its deck still has cards")
    all_cards = ruleset.all_cards
    for seat, player in enumerate(state.players):
        held = player.reserved + player.purchased
        if not all_cards.issuperset(held):
            bad = next(c for c in held if c not in all_cards)
            raise _fail(
                f"players[{seat}]", f"card {bad} is not in this game" if is_known_card(bad) else f"unknown card {bad}"
            )
        placed += held
    for module in ruleset.modules:
        if module.out_of_play is not None:
            cards_out = module.out_of_play(state)
            if not all_cards.issuperset(cards_out):
                raise _fail(module.name, "a card out of play is not in this game")
            placed += cards_out
    if len(placed) != len(all_cards) or len(set(placed)) != len(placed):
        seen = Counter(placed)
        duplicated = sorted(card_id for card_id, count in seen.items() if count > 1)
        if duplicated:
            raise _fail("decks", f"card {duplicated[0]} is in two places")
        missing = sorted(all_cards - set(seen))
        raise _fail("decks", f"card {missing[0]} is nowhere")


def _refill_pending(state: GameState) -> bool:
    """True while a decision asked before the market refill is pending (module steps only)."""
    if state.pending is None:
        return False
    ruleset = ruleset_for(state)
    step = ruleset.decision_steps.get(state.pending.kind)
    return step is not None and step < ruleset.refill_step


def _check_nobles(state: GameState) -> None:
    held = [noble for player in state.players for noble in player.nobles]
    everywhere = list(state.nobles) + held
    if any(not is_known_noble(noble) for noble in everywhere):
        raise _fail("nobles", "unknown noble id")
    if len(set(everywhere)) != len(everywhere):
        raise _fail("nobles", "a noble is in two places")
    if len(everywhere) > state.config.num_players + 1:
        raise _fail("nobles", "more nobles than the game deals")


def _check_player(state: GameState, ruleset: Ruleset, seat: int, player: PlayerState) -> None:
    field = f"players[{seat}]"
    if len(player.reserved) > RESERVE_LIMIT or len(player.reserved_blind) != len(player.reserved):
        raise _fail(f"{field}.reserved", f"at most {RESERVE_LIMIT} reserved cards, each marked blind or not")
    bonuses = [0] * 5
    prestige = 0
    for card_id in player.purchased:
        card = CARDS[card_id]
        if card.bonus is not None:
            bonuses[card.bonus] += card.bonus_count
        prestige += card.points
    prestige += sum(NOBLES[noble].points for noble in player.nobles)
    for module in ruleset.modules:
        if module.extra_holdings is not None:
            extra_bonuses, extra_prestige = module.extra_holdings(state, seat)
            bonuses = [have + extra for have, extra in zip(bonuses, extra_bonuses)]
            prestige += extra_prestige
    if tuple(bonuses) != tuple(player.bonuses):
        raise _fail(f"{field}.bonuses", "bonuses do not match the purchased cards")
    if prestige != player.prestige:
        raise _fail(f"{field}.prestige", "prestige does not match the purchased cards, nobles and module powers")


def _check_pending(state: GameState) -> None:
    pending = state.pending
    over_limit = [seat for seat, p in enumerate(state.players) if sum(p.tokens) > TOKEN_LIMIT]
    if pending is None:
        if over_limit:
            raise _fail(f"players[{over_limit[0]}].tokens", f"more than {TOKEN_LIMIT} tokens between turns")
        return
    if state.end_reason is not None:
        raise _fail("pending", "a finished game has no pending decision")
    if pending.seat != state.seat:
        raise _fail("pending.seat", "only the seat whose turn it is can have a pending decision")
    if pending.kind == DecisionKind.RETURN_TOKENS:
        excess = sum(state.players[pending.seat].tokens) - TOKEN_LIMIT
        if pending.amount != excess or not 0 < excess <= MAX_TOKENS_TAKEN or over_limit != [pending.seat]:
            raise _fail("pending.amount", "the tokens to return must be the excess over ten")
    elif over_limit and over_limit != [pending.seat]:
        raise _fail(
            f"players[{over_limit[0]}].tokens", f"more than {TOKEN_LIMIT} tokens outside the acting seat's turn"
        )
    elif pending.kind == DecisionKind.CHOOSE_NOBLE:
        noble_visit = ruleset_for(state).noble_visit
        qualifying = noble_visit.qualifying if isinstance(noble_visit, AwardOne) else qualifying_nobles
        if len(pending.options) < 2 or set(pending.options) != set(qualifying(state, pending.seat)):
            raise _fail("pending.options", "the noble options must be the two or more qualifying nobles")
    elif pending.kind not in ruleset_for(state).decision_steps:
        raise _fail("pending.kind", f"no decision {pending.kind.name} in this game")


def _check_end(state: GameState) -> None:
    if state.end_reason is None:
        if state.ranking:
            raise _fail("ranking", "a game in progress has no ranking")
        return
    expected = ruleset_for(state).rank(state)
    if tuple(state.ranking) != expected:
        raise _fail("ranking", "the ranking does not follow from the final scores")
