"""What ApplyAction plays besides the request's own move, in plain mode: a deal first, server-side bots' replies after.

A ``deal`` item starts its game in the call (a plain CreateGame's deal: the same config, the same
checks); its move, if any, is played on the new game, and its events begin with the deal's.
``reply_bots`` answer the move: while a listed seat must act, its bot plays, each reply seeded with
the next of ``reply_seeds`` and chosen exactly as ApplyAction with that bot and seed chooses. Both are
plain mode only: a deal gives a plain state, and a sealed request moves for its own seat only (its
key opens no other seat's moves). Replies are bounded (``MAX_REPLIES`` seeds) and never search, so an
item stays a few moves' worth of work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from splendor.v1 import engine_service_pb2

from engine_service.bots import Policy
from engine_service.codec import config_from_proto, state_to_proto
from engine_service.rules import Action, Event, GameState, RuleViolation, apply, new_game

from .bot_choice import policy_maker
from .call import Call
from .errors import INVALID_BOT_CHOICE, refusal, rejection
from .handlers import module_label
from .sealed import acting_seat_of
from .source import Game, check_seat

# The most replies one request asks for: a whole round of a 4-player game with decisions is far fewer.
MAX_REPLIES: Final = 64


def dealt_game(request: engine_service_pb2.ApplyActionRequest, call: Call) -> tuple[Game, tuple[Event, ...]]:
    """The game ``request.deal`` deals (as a plain CreateGame would: ``INVALID_ARGUMENT`` for a bad config) and the
    deal's events."""
    config = request.deal
    call.players = config.num_players
    call.module = module_label(config.modules)
    try:
        state, events = new_game(config_from_proto(config, field="deal"))
    except RuleViolation as violation:
        raise rejection(violation) from None
    call.game_created = True
    call.turn = state.turn
    return Game(state_to_proto(state), state, None), events


def reply_policies(
    request: engine_service_pb2.ApplyActionRequest, game: Game, call: Call
) -> dict[int, Callable[[int], Policy]]:
    """What makes the policy of each seat ``reply_bots`` lists (none: an empty dict), checked: plain mode, seats of
    the game, ``random`` or ``greedy``, at most ``MAX_REPLIES`` seeds. Each reply's policy is seeded with its reply's
    seed (``play_replies``), the choice's own seed unused."""
    bots = request.reply_bots
    if not bots:
        return {}
    if game.sealed:
        message = "reply_bots is for plain states: a sealed request moves for its own seat only"
        raise refusal(INVALID_BOT_CHOICE, message, field="reply_bots")
    seeds = len(request.reply_seeds)
    if seeds > MAX_REPLIES:
        message = f"{seeds} reply seeds: at most {MAX_REPLIES} replies a request"
        raise refusal(INVALID_BOT_CHOICE, message, field="reply_seeds")
    num_players = game.state.config.num_players
    policies = {}
    for seat in sorted(bots):
        field = f"reply_bots[{seat}]"
        check_seat(seat, num_players, field=field)
        policies[seat] = policy_maker(bots[seat], field, call, search_allowed=False)
    return policies


def play_replies(
    state: GameState, events: tuple[Event, ...], makers: dict[int, Callable[[int], Policy]], seeds: list[int]
) -> tuple[GameState, tuple[Event, ...], list[Action]]:
    """The replies played on ``state`` (after ``events``): the state after the last, every event, the actions. A seat's
    policy is made at its first reply, seeded with that reply's seed, and reseeded before each next one (a policy
    seeded once at its making and again before its first reply would spend a seeding, ~4 µs, on nothing)."""
    played: list[Action] = []
    policies: dict[int, Policy] = {}
    for seed in seeds:
        seat = acting_seat_of(state)
        make = makers.get(seat) if seat is not None else None
        if make is None:
            break
        assert seat is not None
        policy = policies.get(seat)
        if policy is None:
            policy = policies[seat] = make(seed)
        else:
            policy.reseed(seed)
        action = policy.choose(state)
        state, more = apply(state, action)
        events += more
        played.append(action)
    return state, events, played
