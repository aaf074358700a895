"""Reinforcement-learning adapters (the client's ``rl`` extra: gymnasium, pettingzoo, numpy).

Importing this package registers the Gymnasium id ``splendor/Splendor-v0`` (``SplendorEnv``; its vector
entry point, ``gymnasium.make_vec``'s default for it, is ``SplendorVectorEnv``: many games stepped
together, one batched call per round through a server); ``SplendorAECEnv`` is the PettingZoo AEC
environment. They run in-process on the engine (reached only through its public in-process API,
``splendor_client.local_engine``, which says what to install when it is missing) or, given
``address``, through a server.
"""

import gymnasium

from .action_space import ActionSpace
from .aec_env import SplendorAECEnv
from .games import LocalGame, RemoteGame, Ruleset
from .gym_env import SplendorEnv
from .vector_env import SplendorVectorEnv

ENV_ID = "splendor/Splendor-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        ENV_ID,
        entry_point="splendor_client.envs.gym_env:SplendorEnv",
        vector_entry_point="splendor_client.envs.vector_env:SplendorVectorEnv",
    )

__all__ = [
    "ENV_ID",
    "ActionSpace",
    "LocalGame",
    "RemoteGame",
    "Ruleset",
    "SplendorAECEnv",
    "SplendorEnv",
    "SplendorVectorEnv",
]
