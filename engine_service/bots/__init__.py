"""Bots over the rules core: determinization, named seeded policies (random, greedy, ISMCTS), whole games.

Pure like ``engine_service.rules``: no I/O, no gRPC or protobuf, no logging. Uses only
what ``engine_service.rules`` exports. The policies served by name are the table of
``registry.py``: everything that names a policy reads it.
"""

from .determinize import determinize
from .evaluation import rewards
from .greedy import greedy_action
from .ismcts import SearchSettings, search
from .policies import GreedyPolicy, IsmctsPolicy, Outcome, Policy, RandomPolicy, playout
from .registry import (
    PolicySpec,
    UnknownPolicy,
    is_search_policy,
    make_policy,
    policy_names,
    policy_spec,
    policy_specs,
    register_policy,
    registered_policy,
    unregister_policy,
)

__all__ = [
    "GreedyPolicy",
    "IsmctsPolicy",
    "Outcome",
    "Policy",
    "PolicySpec",
    "RandomPolicy",
    "SearchSettings",
    "UnknownPolicy",
    "determinize",
    "greedy_action",
    "is_search_policy",
    "make_policy",
    "playout",
    "policy_names",
    "policy_spec",
    "policy_specs",
    "register_policy",
    "registered_policy",
    "rewards",
    "search",
    "unregister_policy",
]
