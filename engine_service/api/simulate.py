"""Simulate: playouts from a position with named, seeded policies, on the server.

Bounded: ``MAX_PLAYOUTS`` playouts of at most ``MAX_ACTIONS_PER_PLAYOUT`` actions, and at
most ``MAX_SIMULATED_ACTIONS`` in all (about 10 s of random play on one core); the caller's
deadline is checked every ``CHECK_EVERY`` actions. From a seat's knowledge (``seat``), every
playout starts from a fresh determinization, so the outcomes carry nothing that seat may
not see; sealed states must name a seat.
"""

from __future__ import annotations

import random
from typing import Final

from splendor.v1 import engine_service_pb2

from engine_service.bots import Policy, determinize
from engine_service.codec import end_reason_to_proto, fill_standings
from engine_service.rules import GameState, apply

from .bot_choice import policy_for
from .call import Call
from .entropy import sampling_seed
from .errors import BUDGET_EXCEEDED, INVALID_BOT_CHOICE, INVALID_SEAT, abandoned, refusal
from .seat_access import require_seat_key
from .source import check_seat, game_of
from .tracing import BUILD_RESPONSE, CONVERT_REQUEST, RULES, span

MAX_PLAYOUTS: Final = 1000
DEFAULT_MAX_ACTIONS: Final = 1000
MAX_ACTIONS_PER_PLAYOUT: Final = 5000
MAX_SIMULATED_ACTIONS: Final = 200_000
CHECK_EVERY: Final = 512
_SEED_BITS: Final = 64


def _budget(request: engine_service_pb2.SimulateRequest) -> int:
    """The per-playout action limit, once the request's budget is checked."""
    playouts = request.playouts
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise refusal(BUDGET_EXCEEDED, f"playouts must be 1 to {MAX_PLAYOUTS}, not {playouts}", field="playouts")
    max_actions = request.max_actions or DEFAULT_MAX_ACTIONS
    if max_actions > MAX_ACTIONS_PER_PLAYOUT:
        message = f"max_actions must be at most {MAX_ACTIONS_PER_PLAYOUT}, not {max_actions}"
        raise refusal(BUDGET_EXCEEDED, message, field="max_actions")
    if playouts * max_actions > MAX_SIMULATED_ACTIONS:
        message = f"playouts x max_actions = {playouts * max_actions}, above the bound of {MAX_SIMULATED_ACTIONS}"
        raise refusal(BUDGET_EXCEEDED, message, field="max_actions")
    return max_actions


def _policies(request: engine_service_pb2.SimulateRequest, seats: int, call: Call, sealed: bool) -> list[Policy]:
    choices = list(request.policies)
    if len(choices) not in (1, seats):
        message = f"send one policy for every seat or one per seat ({seats}), not {len(choices)}"
        raise refusal(BUDGET_EXCEEDED if not choices else INVALID_BOT_CHOICE, message, field="policies")
    if len(choices) == 1:
        choices *= seats
    return [
        policy_for(choice, f"policies[{min(i, len(request.policies) - 1)}]", call, search_allowed=False, sealed=sealed)
        for i, choice in enumerate(choices)
    ]


def simulate(request: engine_service_pb2.SimulateRequest, call: Call) -> engine_service_pb2.SimulateResponse:
    with span(CONVERT_REQUEST):
        game = game_of(request, call)
        state = game.state
        seats = len(state.players)
        seat = request.seat if request.HasField("seat") else None
        check_seat(seat, seats)
        if game.sealed and seat is None:
            message = "a sealed game is simulated from one seat's knowledge: set seat"
            raise refusal(INVALID_SEAT, message, field="seat", metadata={"num_players": str(seats)})
        require_seat_key(game, seat, request.seat_key, call)
        max_actions = _budget(request)
        policies = _policies(request, seats, call, game.sealed)
        seeds = [choice.seed for choice in request.policies] * (seats if len(request.policies) == 1 else 1)
    call.actions = request.playouts
    response = engine_service_pb2.SimulateResponse()
    rng = random.Random(sampling_seed(request.seed, game.sealed))
    wins = [0] * seats
    total = unfinished = 0
    with span(RULES):
        for _ in range(request.playouts):
            for policy, seed in zip(policies, seeds):
                policy.reseed(rng.getrandbits(_SEED_BITS) ^ seed)
            start = state if seat is None else determinize(state, seat, rng.getrandbits(_SEED_BITS))
            final, length = _play(start, policies, max_actions, total, call)
            total += length
            outcome = response.outcomes.add(length=length)
            if final.end_reason is None:
                unfinished += 1
                continue
            outcome.end_reason = end_reason_to_proto(final.end_reason)
            winners = final.winners
            outcome.winners.extend(winners)
            fill_standings(outcome.ranking, final.ranking)
            for winner in winners:
                wins[winner] += 1
    with span(BUILD_RESPONSE):
        summary = response.summary
        summary.playouts = request.playouts
        summary.wins.extend(wins)
        summary.mean_length = total / request.playouts
        summary.unfinished = unfinished
        summary.total_actions = total
    return response


def _play(state: GameState, policies: list[Policy], max_actions: int, done: int, call: Call) -> tuple[GameState, int]:
    """Play until the game ends or ``max_actions``; ``done``: actions of earlier playouts (for deadline checks)."""
    length = 0
    while state.end_reason is None and length < max_actions:
        if (done + length) % CHECK_EVERY == 0 and not call.is_active():
            raise abandoned(call.deadline_passed())
        state = apply(state, policies[state.acting_seat].choose(state))[0]
        length += 1
    return state, length
