"""A bot policy of the tests, ``lowest_id``: the legal action with the lowest action id. Registered for the length of
a ``with registered_policy(LOWEST_ID):`` block, it shows what adding a policy to the engine's registry changes
(docs/architecture.md, "Adding a bot policy"); its choice is easy to tell apart from every built-in policy's."""

from __future__ import annotations

from engine_service.bots import Policy, PolicySpec, SearchSettings
from engine_service.rules import Action, GameState, action_id, legal_actions

NAME = "lowest_id"


class LowestIdPolicy:
    """The legal action with the lowest action id: no generator, no search."""

    name = NAME

    def choose(self, state: GameState) -> Action:
        return min(legal_actions(state), key=action_id)

    def reseed(self, seed: int) -> None:
        del seed  # nothing random to reseed


def _make(seed: int, settings: SearchSettings) -> Policy:
    return LowestIdPolicy()


LOWEST_ID = PolicySpec(NAME, "the legal action with the lowest action id", _make)
