"""Whole plain games played by the engine's seeded server-side bots: where the cases' positions come from.

The rulesets are the base game and each module of the contract's ``Module`` enum (checked against the rules'
own list). A game is played through the API itself (``ApplyAction`` with ``bot``), so the positions are
reached as a client reaches them, and the same seeds give the same games on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2, state_pb2

from engine_service.rules import known_modules

from .engine import Engine

pb = engine_service_pb2

# The rulesets, each a name and the modules of its config: the base game, then every module of the contract.
Modules = tuple[config_pb2.Module.ValueType, ...]
MODULES: Final = tuple(value for value in config_pb2.Module.values() if value != config_pb2.MODULE_UNSPECIFIED)
RULESETS: Final[tuple[tuple[str, Modules], ...]] = (
    ("base", ()),
    *((config_pb2.Module.Name(value).removeprefix("MODULE_").lower(), (value,)) for value in MODULES),
)
if {name for name, modules in RULESETS if modules} != set(known_modules()):
    raise AssertionError("the contract's Module enum and the rules' modules differ")

# A game the bots play longer than this is cut (never reached: games end within a few hundred actions).
MAX_MOVES: Final = 2_000


@dataclass(frozen=True)
class Move:
    """One action of a game: the state it was chosen in, the action (with its id), and the plain response."""

    before: state_pb2.GameState
    applied: actions_pb2.LegalAction
    response: engine_service_pb2.ApplyActionResponse

    @property
    def after(self) -> state_pb2.GameState:
        return self.response.state


@dataclass(frozen=True)
class GamePath:
    """A game from its deal to its end."""

    name: str
    config: config_pb2.GameConfig
    created: engine_service_pb2.CreateGameResponse
    moves: tuple[Move, ...]

    @property
    def final(self) -> state_pb2.GameState:
        return self.moves[-1].after if self.moves else self.created.state

    def states(self) -> list[state_pb2.GameState]:
        """The state before every move, then the final one."""
        return [move.before for move in self.moves] + [self.final]


def config(num_players: int, seed: int, modules: Modules, **extra: int) -> config_pb2.GameConfig:
    return config_pb2.GameConfig(num_players=num_players, seed=seed, modules=modules, **extra)


def play(engine: Engine, name: str, game: config_pb2.GameConfig, policy: str, seed: int) -> GamePath:
    """The game ``game`` deals, every seat played by ``policy`` (seeded per move from ``seed``) to its end."""
    created = engine.answer("CreateGame", pb.CreateGameRequest(config=game))
    state = created.state
    moves: list[Move] = []
    while state.end_reason == state_pb2.END_REASON_UNSPECIFIED:
        if len(moves) >= MAX_MOVES:
            raise AssertionError(f"{name}: no end after {MAX_MOVES} moves")
        choice = bots_pb2.BotChoice(policy=policy, seed=seed * 10_000 + len(moves))
        chosen = engine.answer("ApplyAction", pb.ApplyActionRequest(state=state, bot=choice))
        moves.append(Move(state, chosen.applied, chosen))
        state = chosen.state
    return GamePath(name, game, created, tuple(moves))


def decision_kinds(path: GamePath) -> set[int]:
    """The kinds of pending decision the game went through."""
    return {int(move.before.pending_decision.kind) for move in path.moves} - {state_pb2.DECISION_KIND_UNSPECIFIED}
