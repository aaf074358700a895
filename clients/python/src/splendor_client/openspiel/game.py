"""Splendor as an OpenSpiel Python game over the engine in this process (``python_splendor``).

    import pyspiel  # type: ignore[import-not-found]  # a compiled module without types
    import splendor_client.openspiel  # registers the game
    game = pyspiel.load_game("python_splendor(players=3,module=orient)")

- **Chance** is one explicit chance node, the deal: outcome ``k`` deals the game of
  seed ``k`` (``DEALS`` equally likely deals). Every later draw is fixed by that deal's
  shuffled decks, as at a real table, so there is no other chance node.
- **Imperfect information**: a player sees its view (the engine's ``view_message``):
  deck sizes but not their order, other seats' blind reserves by deck only.
  ``resample_from_infostate`` deals the hidden cards again (the engine's ``determinize``).
- **The engine** is reached only through its public in-process API
  (``engine_service.in_process``, see ``splendor_client.local_engine``).
- **Tensors** (``observation_tensor``, ``information_state_tensor``) are the seat's
  observation vector (``Catalog.observation_layouts``); ``observation_string`` is the
  table as ``splendor-play`` shows it; ``information_state_string`` is that vector with
  the seat's number, a compact key for search (the view holds the turn and everything
  the seat knows that matters to the rules).
- **Actions** are the ruleset's actions (``ActionSpace.for_ruleset``: 370 for the base
  game), each a stable action id (``action_space(game).stable_ids``).
- **Returns** at the end: +1 to each seat sharing first place, -1 to the others.

Parameters: ``players`` (2-4, default 2) and ``module`` (``none``, ``cities``,
``trading_posts``, ``strongholds``, ``orient``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # a compiled module without types

from ..board import board_lines
from ..describe import Describer
from ..envs.action_space import ActionSpace
from ..local_engine import local_engine

if TYPE_CHECKING:
    from engine_service.in_process import Action, GameState

_engine = local_engine()  # this game runs on the engine: without it, importing the game says what to install

SHORT_NAME = "python_splendor"
NO_MODULE = "none"
MODULES = (NO_MODULE, "cities", "trading_posts", "strongholds", "orient")
DEALS = 4096  # the deal's chance outcomes: seeds 0..DEALS-1
# Far past any real game (random games end within a few hundred actions); OpenSpiel wants a bound.
MAX_GAME_LENGTH = 10_000
_SAMPLED_SEED_SCALE = 2**53  # a sampler's float in [0, 1) as an integer seed

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Splendor (Python, over the splendor-engine rules core)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "module": NO_MODULE},
)


@cache
def _describer() -> Describer:
    return Describer(_engine.catalog_message())


class Ruleset(NamedTuple):
    """What a game of ``python_splendor`` deals, and its actions and observation length."""

    players: int
    module: str | None
    modules: frozenset[str]
    actions: ActionSpace
    observation_length: int


@cache
def ruleset(players: int, module: str | None) -> Ruleset:
    """Computed once per ruleset; a state keeps only ``players`` and ``module`` (it is copied at every clone)."""
    modules = frozenset() if module is None else frozenset({module})
    actions = ActionSpace.for_ruleset(module, _engine.catalog_message())
    return Ruleset(players, module, modules, actions, _engine.observation_layout(modules, players).length)


def _module(params: dict[str, Any]) -> str | None:
    module = str(params.get("module", NO_MODULE))
    if module not in MODULES:
        raise ValueError(f"module is one of {', '.join(MODULES)}, not {module!r}")
    return None if module == NO_MODULE else module


class SplendorGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The ruleset of ``players`` and ``module``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        if not 2 <= players <= 4:
            raise ValueError(f"players is 2 to 4, not {players}")
        self.ruleset = ruleset(players, _module(params))
        self.actions = self.ruleset.actions
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=DEALS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"players": players, "module": self.ruleset.module or NO_MODULE})

    def new_initial_state(self) -> SplendorState:
        return SplendorState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> SplendorObserver:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SplendorObserver(self.ruleset.observation_length, key=perfect_recall)


class SplendorState(pyspiel.State):  # type: ignore[misc]
    """A game: before the deal (a chance node), then the engine's state."""

    def __init__(self, game: SplendorGame) -> None:
        super().__init__(game)
        self.players = game.ruleset.players
        self.module = game.ruleset.module
        self.core: GameState | None = None
        self._legal: dict[int, Action] = {}  # the acting seat's legal actions by index, once listed

    def current_player(self) -> int:
        core = self.core
        if core is None:
            return int(pyspiel.PlayerId.CHANCE)
        if core.end_reason is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return core.acting_seat

    def _legal_by_index(self) -> dict[int, Action]:
        if not self._legal and self.core is not None and self.core.end_reason is None:
            index_of = ruleset(self.players, self.module).actions.index_of
            by_index = {int(index_of[_engine.action_id(action)]): action for action in _engine.legal_actions(self.core)}
            self._legal = dict(sorted(by_index.items()))
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal_by_index()) if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(deal, 1.0 / DEALS) for deal in range(DEALS)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            self._set(_engine.deal(self.players, int(action), modules=ruleset(self.players, self.module).modules))
            return
        chosen = self._legal_by_index().get(int(action))
        if chosen is None:
            raise ValueError(f"action {action} is not legal here")
        self._set(_engine.play(self.core, chosen))

    def _set(self, core: GameState) -> None:
        self.core = core
        self._legal = {}

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        stable = ruleset(self.players, self.module).actions.stable_id(int(action))
        return f"{_engine.action_from_id(stable)}"

    def is_terminal(self) -> bool:
        return self.core is not None and self.core.end_reason is not None

    def returns(self) -> list[float]:
        core = self.core
        players = self.players
        if core is None or core.end_reason is None:
            return [0.0] * players
        winners = core.winners
        return [1.0 if seat in winners else -1.0 for seat in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SplendorState:
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt again."""
        if self.core is None:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * _SAMPLED_SEED_SCALE)
        sample: SplendorState = self.clone()
        sample._set(_engine.determinize(self.core, player_id, seed))
        return sample

    def __str__(self) -> str:
        # The whole truth (decks included): what OpenSpiel compares after serialization.
        return "before the deal" if self.core is None else repr(self.core)


class SplendorObserver:
    """The seat's observation vector; as a string, the table (or, for search, a key)."""

    def __init__(self, length: int, *, key: bool) -> None:
        self.tensor = np.zeros(length, np.float32)
        self.dict = {"observation": self.tensor}
        self.key = key

    def set_from(self, state: SplendorState, player: int) -> None:
        if state.core is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = _engine.encode_observation(state.core, player)

    def string_from(self, state: SplendorState, player: int) -> str:
        if state.core is None:
            return f"seat {player}: before the deal"
        if self.key:
            values = np.asarray(_engine.encode_observation(state.core, player), np.float32)
            return f"{player}:{values.tobytes().hex()}"
        return "\n".join(board_lines(_engine.view_message(state.core, player), _describer()))


def action_space(game: SplendorGame) -> ActionSpace:
    """The game's actions as stable action ids."""
    return game.actions


pyspiel.register_game(_GAME_TYPE, SplendorGame)
