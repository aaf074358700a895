"""Bots over the rules core: determinization, named seeded policies (random, greedy, ISMCTS), whole games.

Pure like ``engine_service.rules``: no I/O, no gRPC or protobuf, no logging. Uses only
what ``engine_service.rules`` exports; the policies' names are ``engine_service.policy_names``
(which conversion reads too, without importing the bots).
"""

from engine_service.policy_names import POLICY_NAMES

from .determinize import determinize
from .evaluation import rewards
from .greedy import greedy_action
from .ismcts import SearchSettings, search
from .policies import GreedyPolicy, IsmctsPolicy, Outcome, Policy, RandomPolicy, make_policy, playout

__all__ = [
    "POLICY_NAMES",
    "GreedyPolicy",
    "IsmctsPolicy",
    "Outcome",
    "Policy",
    "RandomPolicy",
    "SearchSettings",
    "determinize",
    "greedy_action",
    "make_policy",
    "playout",
    "rewards",
    "search",
]
