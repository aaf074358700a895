"""Checks of the Trading Posts module's part of a state sent by a client."""

from __future__ import annotations

from typing import Final

from ...decisions import DecisionKind
from ...state import GameState, PendingDecision
from .components import EXTRA_GEM_WITH_TWO, GEM_AFTER_PURCHASE
from .decisions import TAKE_GEM
from .rules import POST_IDS, colors_in_bank, fail, meets
from .state import STATE

# Decisions asked before the shields step: the acting seat may meet a post it has no shield on yet.
_BEFORE_SHIELDS: Final = frozenset({TAKE_GEM, DecisionKind.CHOOSE_NOBLE})


def validate(state: GameState) -> None:
    """A client's Trading Posts state: known, distinct posts per seat, earned and all placed."""
    posts = STATE.of(state)
    if len(posts.shields) != state.config.num_players:
        raise fail("trading_posts.shields", "one list of shields per seat")
    pending = state.pending
    waiting = pending.seat if pending is not None and pending.kind in _BEFORE_SHIELDS else None
    for seat, (shields, player) in enumerate(zip(posts.shields, state.players)):
        field = f"trading_posts.shields[{seat}]"
        if any(post not in POST_IDS for post in shields) or len(set(shields)) != len(shields):
            raise fail(field, f"shields stand on distinct posts {POST_IDS[0]}-{POST_IDS[-1]}")
        for post in POST_IDS:
            if post in shields:
                if not meets(player, post):
                    raise fail(field, f"a shield on post {post} whose requirements the seat does not meet")
            elif seat != waiting and meets(player, post):
                raise fail(field, f"the seat meets post {post}'s requirements but has no shield there")
    if pending is not None and pending.kind is TAKE_GEM:
        _validate_take_gem(state, pending, posts.shields[pending.seat])


def _validate_take_gem(state: GameState, pending: PendingDecision, shields: tuple[int, ...]) -> None:
    field = "pending_decision.options"
    available = colors_in_bank(state.bank)
    options = pending.options
    if len(options) < 2 or list(options) != sorted(set(options)) or not set(options) <= set(available):
        raise fail(field, "the gem options must be two or more distinct colours in the bank, in order")
    if options == available:
        if GEM_AFTER_PURCHASE not in shields:
            raise fail(field, f"a gem after a purchase needs a shield on post {GEM_AFTER_PURCHASE}")
        return
    left_out = [color for color in available if color not in options]
    if len(left_out) != 1 or state.bank[left_out[0]] < 2 or EXTRA_GEM_WITH_TWO not in shields:
        raise fail(
            field,
            f"the gem options must be every colour in the bank (post {GEM_AFTER_PURCHASE}), or all but the "
            f"colour just taken two of (post {EXTRA_GEM_WITH_TWO})",
        )
