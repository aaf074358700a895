"""The cases of one ruleset in plain mode: every RPC answered along the ruleset's games.

The positions are the games' own: a few consecutive moves at the start, the middle and the end of each
game (its last move ends it), and every kind of pending decision the games went through (the move that
opened it and the answer). Around them: the legal actions, the views of every seat and of a spectator,
replays, and the engine's seeded bots, playouts and samples (engine-specific cases).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from splendor.v1 import actions_pb2, bots_pb2, engine_service_pb2, state_pb2

from .engine import Engine
from .paths import GamePath, Modules, Move, config, decision_kinds, play
from .recorder import CaseFile

pb = engine_service_pb2
DECISIONS_PER_KIND: Final = 2  # moves answered per kind of decision, in each game
WINDOW: Final = 2  # consecutive moves at each place of a game
# The rulesets whose observations are checked: the smallest layout and the largest. An observation's JSON is
# long (a flag for each of the 8,920 action ids), so it is written three times in all.
OBSERVED: Final = ("base", "orient")
# Games searched for decision kinds the ruleset's main games did not go through.
SEARCHED_GAMES: Final = 40
# A game that ends with every player passing for a whole round, by ruleset: players, seed, the random bot's seed.
# Rare (about one random game in 150 of the Strongholds, where occupied cards can leave a seat nothing to do;
# none in 150 of the others): found once by searching, and checked to still end so whenever the vectors are made.
PASSING_GAME: Final = {"strongholds": (3, 5004, 4)}


def acting_seat(state: state_pb2.GameState) -> int:
    """The seat that must act: the deciding seat while a decision is pending."""
    if state.pending_decision.kind != state_pb2.DECISION_KIND_UNSPECIFIED:
        return state.pending_decision.seat
    return state.seat


@dataclass(frozen=True)
class RulesetGames:
    """A ruleset's games: the main ones, made into cases from start to end and written as whole games, and those
    found by searching for the decisions (and the ending) the main ones lack, made into cases at their decisions."""

    main: tuple[GamePath, ...]
    searched: tuple[GamePath, ...]

    @property
    def all(self) -> tuple[GamePath, ...]:
        return self.main + self.searched


def ruleset_games(engine: Engine, name: str, modules: Modules, seed: int) -> RulesetGames:
    """2, 3 and 4 players by the greedy and the random bot, one with a turn limit and a first seat; then, from
    ``SEARCHED_GAMES`` more, those going through kinds of decision the others did not; and the ruleset's game
    of ``PASSING_GAME``, if it has one."""
    main = [
        play(engine, f"{name}-2p-greedy", config(2, seed + 1, modules), "greedy", seed + 1),
        play(engine, f"{name}-3p-random", config(3, seed + 2, modules), "random", seed + 2),
        play(engine, f"{name}-4p-greedy", config(4, seed + 3, modules), "greedy", seed + 3),
        play(engine, f"{name}-2p-turn-limit", config(2, seed + 4, modules, turn_limit=30, first_seat=1), "random", 4),
    ]
    searched = []
    seen = set().union(*map(decision_kinds, main))
    for index in range(SEARCHED_GAMES):
        policy = ("greedy", "random")[index % 2]
        game = _numbered_game(engine, name, modules, seed + 100 + index, policy)
        if decision_kinds(game) - seen:
            searched.append(game)
            seen |= decision_kinds(game)
    if name in PASSING_GAME:  # a main game, ending with every player passing
        players, game_seed, policy_seed = PASSING_GAME[name]
        game = play(engine, f"{name}-{players}p-all-pass", config(players, game_seed, modules), "random", policy_seed)
        if game.final.end_reason != state_pb2.END_REASON_ALL_PLAYERS_PASSED:
            raise AssertionError(f"{game.name} no longer ends with every player passing: search for another deal")
        main.append(game)
    return RulesetGames(tuple(main), tuple(searched))


def _numbered_game(engine: Engine, name: str, modules: Modules, seed: int, policy: str) -> GamePath:
    players = 2 + seed % 3
    return play(engine, f"{name}-{players}p-{policy}-{seed}", config(players, seed, modules), policy, seed)


def chosen_moves(game: GamePath, whole: bool) -> list[int]:
    """The indices of the moves made into cases: windows at the start, thirds and end (of a ``whole`` game), and
    the decisions (the move that opened one, and its answer)."""
    length = len(game.moves)
    chosen: set[int] = set()
    for start in (0, length // 3, 2 * length // 3, length - WINDOW) if whole else ():
        chosen.update(range(max(0, start), min(length, start + WINDOW)))
    answered: dict[int, int] = {}
    for index, move in enumerate(game.moves):
        kind = move.before.pending_decision.kind
        if kind != state_pb2.DECISION_KIND_UNSPECIFIED and answered.get(kind, 0) < DECISIONS_PER_KIND:
            answered[kind] = answered.get(kind, 0) + 1
            chosen.update({index - 1, index} if index else {index})
    return sorted(chosen)


def plain_cases(cases: CaseFile, name: str, games: RulesetGames) -> None:
    """Every RPC but GetCatalog in plain mode, along the ruleset's games."""
    create_cases(cases, name, games.all)
    for game in games.all:
        whole = game in games.main
        moves = chosen_moves(game, whole)
        apply_cases(cases, game, moves)
        legal_cases(cases, game, moves, whole)
        view_cases(cases, game, moves, whole)
    if name in OBSERVED:
        observation_cases(cases, games.main[0], with_apply=name == OBSERVED[0])
    audience_cases(cases, games.main)
    batch_cases(cases, games.main)
    replay_cases(cases, games.main)
    bot_cases(cases, games.main)


def create_cases(cases: CaseFile, name: str, games: tuple[GamePath, ...]) -> None:
    for game in games:
        cases.answered(f"{game.name}/create", "CreateGame", pb.CreateGameRequest(config=game.config))
    modules = tuple(games[0].config.modules)
    for players in (2, 3, 4):
        for seed in (0, 7, 2**64 - 1):
            request = pb.CreateGameRequest(config=config(players, seed, modules))
            cases.answered(f"{name}/create/{players}p-seed-{seed}", "CreateGame", request)
        request = pb.CreateGameRequest(config=config(players, 11, modules, first_seat=players - 1, turn_limit=12))
        cases.answered(f"{name}/create/{players}p-first-seat-turn-limit", "CreateGame", request)
    # Ignored without sealed: the plain state comes back.
    request = pb.CreateGameRequest(config=config(2, 5, modules), seat=1, public_deal=True)
    cases.answered(f"{name}/create/seat-and-public-deal-ignored-unsealed", "CreateGame", request)


def apply_request(move: Move, variant: int) -> pb.ApplyActionRequest:
    """The request of ``move``, in one of three forms: the action itself; its id from the acting seat; the action
    with the expected turn and the next legal actions asked for."""
    request = pb.ApplyActionRequest(state=move.before)
    if variant % 3 == 1:
        request.action.action_id = move.applied.action_id
        request.seat = acting_seat(move.before)
    else:
        request.action.CopyFrom(move.applied.action)
    if variant % 3 == 2:
        request.expected_turn = move.before.turn
        request.include_legal_actions = True
    return request


def apply_cases(cases: CaseFile, game: GamePath, moves: list[int]) -> None:
    for index in moves:
        move = game.moves[index]
        request = apply_request(move, index)
        response = cases.answered(f"{game.name}/apply/{index}", "ApplyAction", request)
        if response.state != move.after:
            raise AssertionError(f"{game.name}: move {index} as an action and as the bot's choice differ")
        if index % 4 == 0:  # the same move only checked: the state unchanged, no events
            request.validate_only = True
            cases.answered(f"{game.name}/apply/{index}/validate-only", "ApplyAction", request)


def audience_cases(cases: CaseFile, games: tuple[GamePath, ...]) -> None:
    """A move shown to every audience in the same call (a spectator and each seat, the next one with its legal
    actions): at the first pending decision of each game, else its middle move."""
    for game in games:
        index = next(
            (at for at, move in enumerate(game.moves) if move.before.pending_decision.kind), len(game.moves) // 2
        )
        move = game.moves[index]
        request = pb.ApplyActionRequest(state=move.before, action=move.applied.action)
        request.audiences.add()
        for seat in range(game.config.num_players):
            request.audiences.add(seat=seat)
        cases.answered(f"{game.name}/apply/{index}/audiences", "ApplyAction", request)


def batch_cases(cases: CaseFile, games: tuple[GamePath, ...]) -> None:
    """Moves of several games in one BatchApplyActions call, each answered as its ApplyAction is, and a malformed
    item among them (a move without a game) refused alone: its google.rpc.Status in the answer, whose ErrorInfo has
    no metadata (a map: its entries serialize in no fixed order, so a runner comparing messages could not match
    an Any holding one)."""
    items = []
    for game in games:
        for index in (0, len(game.moves) // 3, len(game.moves) - 1):
            items.append(apply_request(game.moves[index], index))
    refused = pb.ApplyActionRequest()
    refused.action.action_id = games[0].moves[0].applied.action_id
    items.insert(1, refused)
    request = pb.BatchApplyActionsRequest(requests=items)
    answered = cases.answered(f"{games[0].name}/batch/{len(items)}", "BatchApplyActions", request)
    if [result.WhichOneof("outcome") for result in answered.results].count("error") != 1:
        raise AssertionError(f"{games[0].name}: the batch's legal moves must be answered, the malformed one refused")


def legal_cases(cases: CaseFile, game: GamePath, moves: list[int], whole: bool) -> None:
    for index in moves[::2] + ([len(game.moves)] if whole else []):
        state = game.states()[index]
        request = pb.ListLegalActionsRequest(state=state)
        if index % 3 == 0:
            request.seat = (acting_seat(state) + 1) % game.config.num_players  # ignored for a plain state
        cases.answered(f"{game.name}/legal/{index}", "ListLegalActions", request)


def viewers(num_players: int) -> Iterator[int | None]:
    """A spectator, then every seat, round and round."""
    while True:
        yield None
        yield from range(num_players)


def view_cases(cases: CaseFile, game: GamePath, moves: list[int], whole: bool) -> None:
    viewer = viewers(game.config.num_players)
    for index in moves[1::2]:
        move = game.moves[index]
        seat = next(viewer)
        request = pb.GetPlayerViewRequest(state=move.after, events=move.response.events)
        if seat is not None:
            request.seat = seat
        label = "spectator" if seat is None else f"seat-{seat}"
        cases.answered(f"{game.name}/view/{index}/{label}", "GetPlayerView", request)
    for seat in [None, game.config.num_players - 1] if whole else []:  # the end: ranking, winners
        request = pb.GetPlayerViewRequest(state=game.final)
        if seat is not None:
            request.seat = seat
        label = "spectator" if seat is None else f"seat-{seat}"
        cases.answered(f"{game.name}/view/final/{label}", "GetPlayerView", request)


def observation_cases(cases: CaseFile, game: GamePath, with_apply: bool) -> None:
    """The observation vector and legal-action mask through GetPlayerView, and (``with_apply``) ApplyAction."""
    middle = len(game.moves) // 2
    move = game.moves[middle]
    request = pb.GetPlayerViewRequest(state=move.before, seat=acting_seat(move.before), include_observation=True)
    cases.answered(f"{game.name}/view/{middle}/observation", "GetPlayerView", request)
    if not with_apply:
        return
    apply = pb.ApplyActionRequest(state=move.before, action=move.applied.action, include_observation=True)
    cases.answered(f"{game.name}/apply/{middle}/observation", "ApplyAction", apply)


def replay_cases(cases: CaseFile, games: tuple[GamePath, ...]) -> None:
    """Replays of the start of each game (events and digests), of a whole game without events, and without both."""
    for game in games:
        actions = [move.applied.action for move in game.moves[:12]]
        cases.answered(
            f"{game.name}/replay/12", "ReplayGame", pb.ReplayGameRequest(config=game.config, actions=actions)
        )
    whole = [actions_pb2.Action(action_id=move.applied.action_id) for move in games[0].moves]
    # The ids stand for the default payment: the same game when every purchase paid it.
    request = pb.ReplayGameRequest(config=games[0].config, actions=whole, skip_events=True)
    if cases.answered(f"{games[0].name}/replay/whole-by-id", "ReplayGame", request).state != games[0].final:
        raise AssertionError(f"{games[0].name}: the replay by action ids ends elsewhere")
    request = pb.ReplayGameRequest(config=games[1].config, skip_events=True, skip_state_digests=True)
    request.actions.extend(move.applied.action for move in games[1].moves)
    cases.answered(f"{games[1].name}/replay/whole-skip-both", "ReplayGame", request)


def bot_cases(cases: CaseFile, games: tuple[GamePath, ...]) -> None:
    """Server-side bot moves, playouts and samples in plain mode: seeded, so this engine answers them the same way
    every time, but another engine's bots and samplers may choose otherwise (engine-specific)."""
    for game in games[:2]:
        for index in (0, len(game.moves) // 2):
            state = game.moves[index].before
            for policy in ("random", "greedy"):
                request = pb.ApplyActionRequest(state=state, bot=bots_pb2.BotChoice(policy=policy, seed=index))
                name = f"{game.name}/bot/{index}/{policy}"
                cases.answered(name, "ApplyAction", request, engine_specific=True)
            request = pb.ApplyActionRequest(
                state=state, bot=bots_pb2.BotChoice(policy="ismcts", seed=3, iterations=20), validate_only=True
            )
            cases.answered(
                f"{game.name}/bot/{index}/ismcts-validate-only", "ApplyAction", request, engine_specific=True
            )
            seat = acting_seat(state)
            simulate = pb.SimulateRequest(
                state=state, policies=[bots_pb2.BotChoice(policy="greedy")], playouts=3, max_actions=60, seed=index
            )
            cases.answered(f"{game.name}/simulate/{index}", "Simulate", simulate, engine_specific=True)
            per_seat = [
                bots_pb2.BotChoice(policy=("random", "greedy")[seat % 2]) for seat in range(game.config.num_players)
            ]
            simulate = pb.SimulateRequest(
                state=state, policies=per_seat, playouts=2, max_actions=300, seed=9, seat=seat
            )
            cases.answered(f"{game.name}/simulate/{index}/determinized", "Simulate", simulate, engine_specific=True)
            determinize = pb.DeterminizeRequest(state=state, seat=seat, count=2, seed=index + 1)
            cases.answered(f"{game.name}/determinize/{index}", "Determinize", determinize, engine_specific=True)
