"""Server-side bots: a request's ``BotChoice`` checked against the server's bounds and made into a policy.

Policies come from ``engine_service.bots``' registry by name: an unknown name is refused, never replaced. A
search (a policy registered as searching, ``ismcts``) is bounded twice:
its iterations by the server's ``max_bot_iterations`` (``ApiConfig``; a request asking for more is refused, so a caller
learns the bound instead of getting a weaker move silently), and its time by half of what
is left of the call's deadline (it then answers with the best move found so far).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from splendor.v1 import bots_pb2, engine_service_pb2

from engine_service.bots import Policy, SearchSettings, UnknownPolicy, policy_spec, policy_specs
from engine_service.rules import Action, Reason, RuleViolation

from .call import Call
from .entropy import sampling_seed
from .errors import INVALID_BOT_CHOICE, ApiError, refusal, rejection
from .source import Game

# A policy that does not search gets the default settings (it reads none).
_NO_SEARCH: Final = SearchSettings()
# Share of the call's remaining deadline a search may spend: the rest is for the move and the response.
SEARCH_SHARE_OF_DEADLINE: Final = 0.5


def _invalid(message: str, field: str) -> ApiError:
    return refusal(INVALID_BOT_CHOICE, message, field=field)


def policy_for(
    choice: bots_pb2.BotChoice, field: str, call: Call, *, search_allowed: bool = True, sealed: bool = False
) -> Policy:
    """The seeded policy ``choice`` names (``field``: its request path, for errors); ``sealed``: its seed mixed
    with entropy the caller does not see (``entropy.py``)."""
    return policy_maker(choice, field, call, search_allowed=search_allowed)(sampling_seed(choice.seed, sealed))


def policy_maker(
    choice: bots_pb2.BotChoice, field: str, call: Call, *, search_allowed: bool = True
) -> Callable[[int], Policy]:
    """What makes the policy ``choice`` names from a seed, checked (``field``: its request path, for errors): a
    caller that seeds it itself (a reply's seed) makes it with that seed, not seeded twice."""
    name = choice.policy
    try:
        spec = policy_spec(name)
    except UnknownPolicy:
        registered = ", ".join(other.name for other in policy_specs())
        raise _invalid(f"unknown bot policy {name!r}: use one of {registered}", f"{field}.policy") from None
    if spec.searches and not search_allowed:
        others = " or ".join(other.name for other in policy_specs() if not other.searches)
        raise _invalid(f"{name} searches at every move: use {others} here", f"{field}.policy")
    if not spec.searches:
        if choice.iterations:
            raise _invalid(f"{name} does not search: iterations must be 0", f"{field}.iterations")
        return _with_settings(spec.make, _NO_SEARCH)
    most = call.settings.max_bot_iterations
    if choice.iterations > most:
        message = f"at most {most} iterations a move, not {choice.iterations}"
        raise _invalid(message, f"{field}.iterations")
    settings = SearchSettings(keep_going=call.is_active)  # a caller that hung up stops the search
    if choice.iterations:
        settings = settings._replace(iterations=choice.iterations)
    remaining = call.time_remaining()
    if remaining is not None:
        settings = settings._replace(time_budget=max(0.0, remaining * SEARCH_SHARE_OF_DEADLINE))
    return _with_settings(spec.make, settings)


def _with_settings(make: Callable[[int, SearchSettings], Policy], settings: SearchSettings) -> Callable[[int], Policy]:
    def made(seed: int) -> Policy:
        return make(seed, settings)

    return made


def bot_action(request: engine_service_pb2.ApplyActionRequest, game: Game, call: Call) -> Action:
    """The action the request's server-side bot chooses for the acting seat (from what that seat may see)."""
    if request.HasField("action"):
        raise refusal(INVALID_BOT_CHOICE, "send action or bot, not both", field="bot")
    state = game.state
    policy = policy_for(request.bot, "bot", call, sealed=game.sealed)
    if state.end_reason is not None:
        raise rejection(RuleViolation(Reason.GAME_OVER, "the game is over: there is no action to choose"), state=state)
    return policy.choose(state)
