"""Determinize: full states one seat cannot tell apart from the game, sampled on the server.

The samples come back in the clear: they are not the truth. Each deck's hidden cards (the
deck itself and the other seats' blind reserves from it) are dealt again uniformly at
random from a canonical order (``engine_service.bots.determinize``), and each sample gets a
fresh seed. In sealed mode the request's seed is mixed with entropy the caller never sees
(``entropy.py``), and the request must carry the key of the seat it samples for.
"""

from __future__ import annotations

import random
from typing import Final

from splendor.v1 import engine_service_pb2

from engine_service.bots import determinize as sample
from engine_service.codec import fill_state

from .call import Call
from .entropy import sampling_seed
from .errors import BUDGET_EXCEEDED, refusal
from .seat_access import require_seat_key
from .source import check_seat, game_of
from .tracing import BUILD_RESPONSE, CONVERT_REQUEST, RULES, span

MAX_SAMPLES: Final = 64
_SEED_BITS: Final = 64


def determinize(request: engine_service_pb2.DeterminizeRequest, call: Call) -> engine_service_pb2.DeterminizeResponse:
    with span(CONVERT_REQUEST):
        game = game_of(request, call)
        state = game.state
        check_seat(request.seat, len(state.players))
        require_seat_key(game, request.seat, request.seat_key, call)
        if not 1 <= request.count <= MAX_SAMPLES:
            raise refusal(BUDGET_EXCEEDED, f"count must be 1 to {MAX_SAMPLES}, not {request.count}", field="count")
    call.viewer = request.seat
    rng = random.Random(sampling_seed(request.seed, game.sealed))
    with span(RULES):
        samples = [sample(state, request.seat, rng.getrandbits(_SEED_BITS)) for _ in range(request.count)]
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.DeterminizeResponse()
        for each in samples:
            fill_state(response.states.add(), each)
    return response
