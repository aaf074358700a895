"""Sealed games of one ruleset: sessions of calls that pass a game token and seat keys along.

The deal is public (``public_deal`` with the plain game's seed), so the views and events are this engine's
exact answers; what differs from call to call is normalised: the token, the game id, the seat keys, and
whatever a sealed playout, sample or bot move drew from the server's own randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from splendor.v1 import bots_pb2, engine_service_pb2

from .paths import GamePath
from .plain import acting_seat
from .recorder import CaseFile, Path_, Session, to_json

pb = engine_service_pb2
TOKEN: Final[Path_] = ("sealedState",)
GAME_ID: Final[Path_] = ("sealedStateBinding", "gameId")
SEAT_KEYS: Final[Path_] = ("seatKeys", "*")
SEALED: Final = (TOKEN, GAME_ID, SEAT_KEYS)
# What a move chosen by a sealed bot changes, depending on the move (the server mixes in its own entropy).
BOT_MOVE: Final = (
    *SEALED,
    ("sealedStateBinding", "turn"),
    ("sealedStateBinding", "actingSeat"),
    ("view",),
    ("events",),
    ("applied",),
    ("legalActions",),
    ("actingSeat",),
)
MOVES: Final = 6  # moves played in each sealed session


@dataclass(frozen=True)
class Position:
    """Where a sealed session stands: the step holding the game's latest token, the seat that must act and another
    seat, the acting seat's next action (JSON), and the number of seats."""

    latest: int
    seat: int
    other: int
    action: object
    seats: int


def token_from(step: int) -> dict[str, list[object]]:
    return {"$from": [step, "sealedState"]}


def key_from(step: int, seat: int) -> dict[str, list[object]]:
    return {"$from": [step, "seatKeys", seat]}


def sealed_cases(cases: CaseFile, ruleset: str, game: GamePath) -> None:
    """A sealed game played for a few moves with its seat keys, around it every refusal of seat keys and tokens,
    and the sealed forms of every RPC that takes a token."""
    session = cases.session(f"{ruleset}/sealed/{game.name}")
    session.answered("CreateGame", {**_create(game), "seat": 0}, SEALED)
    latest = 0  # the step whose token is the game's latest
    for index, move in enumerate(game.moves[:MOVES]):
        seat = acting_seat(move.before)
        if index < 2:
            legal = {"sealedState": token_from(latest), "seat": seat, "seatKey": key_from(0, seat)}
            session.answered("ListLegalActions", legal)
        apply = {
            "sealedState": token_from(latest),
            "action": to_json(move.applied.action),
            "seat": seat,
            "seatKey": key_from(0, seat),
            "includeLegalActions": index % 2 == 0,
        }
        session.answered("ApplyAction", apply, (TOKEN, GAME_ID))
        latest = len(session.steps) - 1
    seat = acting_seat(game.moves[MOVES].before)
    seats = game.config.num_players
    here = Position(latest, seat, (seat + 1) % seats, to_json(game.moves[MOVES].applied.action), seats)
    seat_refusals(session, here)
    sealed_calls(session, here)
    rewind = {
        "sealedState": token_from(0),
        "action": to_json(game.moves[0].applied.action),
        "seatKey": key_from(0, acting_seat(game.moves[0].before)),
    }
    session.answered("ApplyAction", rewind, (TOKEN, GAME_ID))  # an older token still opens: a platform stops rewinds
    replay_session(cases, ruleset, game)
    create_sessions(cases, ruleset, game)


def _create(game: GamePath) -> dict[str, object]:
    return {"config": to_json(game.config), "sealed": True, "publicDeal": True}


def seat_refusals(session: Session, here: Position) -> None:
    latest, seat, other, action = here.latest, here.seat, here.other, here.action
    token = token_from(latest)
    mine = {"sealedState": token, "action": action, "seat": seat, "seatKey": key_from(0, seat)}
    refused = [
        ("ApplyAction", {**mine, "expectedStep": str(MOVES - 1)}),  # a step the game has moved past
        ("ApplyAction", {**mine, "audiences": [{"seat": other}]}),  # an audience without its key
        ("ApplyAction", {**mine, "audiences": [{"seat": other, "seatKey": key_from(0, seat)}]}),
        ("ApplyAction", {**mine, "audiences": [{}, {}]}),  # a spectator twice
        ("ApplyAction", {"sealedState": token, "action": action, "seat": seat}),
        ("ApplyAction", {"sealedState": token, "action": action}),
        ("ApplyAction", {"sealedState": token, "action": action, "seat": seat, "seatKey": key_from(0, other)}),
        ("ApplyAction", {"sealedState": token, "action": action, "seatKey": "not-a-key"}),
        ("ApplyAction", {"sealedState": token, "action": action, "seat": other, "seatKey": key_from(0, other)}),
        ("ListLegalActions", {"sealedState": token, "seat": seat}),
        ("ListLegalActions", {"sealedState": token, "seat": 9, "seatKey": key_from(0, seat)}),
        ("GetPlayerView", {"sealedState": token, "seat": seat, "seatKey": key_from(0, other)}),
        ("Determinize", {"sealedState": token, "seat": seat, "count": 1}),
        ("Simulate", {"sealedState": token, "policies": [{"policy": "random"}], "playouts": 1}),
        # Altered: its last byte flipped. (Other malformed tokens answer reasons that depend on the token format.)
        ("ListLegalActions", {"sealedState": {"$from": [latest, "sealedState"], "$tamper": "flip-last-byte"}}),
        ("ApplyAction", {"sealedState": "", "action": action}),  # an empty token (the field set, its bytes empty)
    ]
    for method, request in refused:
        session.refused(method, request)


def sealed_calls(session: Session, here: Position) -> None:
    """Every RPC that takes a token, answered: views, legal actions (the seat's, another's, a spectator's), a
    check without applying, the move shown to every audience, samples, playouts, and a move chosen by a
    server-side bot."""
    seat, other, action = here.seat, here.other, here.action
    token = token_from(here.latest)
    session.answered("GetPlayerView", {"sealedState": token})
    session.answered("GetPlayerView", {"sealedState": token, "seat": other, "seatKey": key_from(0, other)})
    session.answered("ListLegalActions", {"sealedState": token})
    session.answered("ListLegalActions", {"sealedState": token, "seat": other, "seatKey": key_from(0, other)})
    check = {"sealedState": token, "action": action, "seat": seat, "seatKey": key_from(0, seat), "validateOnly": True}
    session.answered("ApplyAction", check, (TOKEN, GAME_ID))
    # The move at the step the sender holds, shown to a spectator and to every seat with its key.
    audiences = [{}, *({"seat": audience, "seatKey": key_from(0, audience)} for audience in range(here.seats))]
    shown = {**check, "validateOnly": False, "expectedStep": str(MOVES), "audiences": audiences}
    session.answered("ApplyAction", shown, (TOKEN, GAME_ID))
    samples = {"sealedState": token, "seat": seat, "seatKey": key_from(0, seat), "count": 3, "seed": "5"}
    session.answered("Determinize", samples, (("states", "*"),))
    playouts = {
        "sealedState": token,
        "seat": other,
        "seatKey": key_from(0, other),
        "policies": [to_json(bots_pb2.BotChoice(policy="random"))],
        "playouts": 2,
        "maxActions": 40,
    }
    session.answered("Simulate", playouts, (("outcomes", "*"), ("summary",)))
    bot = {"sealedState": token, "bot": {"policy": "random", "seed": "3"}, "seatKey": key_from(0, seat)}
    session.answered("ApplyAction", bot, BOT_MOVE)


def replay_session(cases: CaseFile, ruleset: str, game: GamePath) -> None:
    """A sealed replay (a new game id and its own seat keys), then a move with the new keys."""
    session = cases.session(f"{ruleset}/sealed/replay")
    actions = [to_json(move.applied.action) for move in game.moves[:MOVES]]
    replay = {"config": to_json(game.config), "actions": actions, "sealed": True, "seat": 1}
    session.answered("ReplayGame", replay, SEALED)
    move = game.moves[MOVES]
    seat = acting_seat(move.before)
    apply = {"sealedState": token_from(0), "action": to_json(move.applied.action), "seatKey": key_from(0, seat)}
    session.answered("ApplyAction", apply, (TOKEN, GAME_ID))
    session.refused("ApplyAction", {**apply, "seatKey": key_from(0, (seat + 1) % game.config.num_players)})


def create_sessions(cases: CaseFile, ruleset: str, game: GamePath) -> None:
    """Sealed deals: a spectator's view of a public deal; a deal from the server's own seed (its view is random;
    seat 0 plays first), then a first move by a server-side bot; and the key of one game refused in another."""
    cases.session(f"{ruleset}/sealed/create-spectator").answered("CreateGame", _create(game), SEALED)
    session = cases.session(f"{ruleset}/sealed/create-secret-deal")
    secret = {"config": {**to_json(game.config), "seed": "0", "firstSeat": 0}, "sealed": True, "seat": 1}
    session.answered("CreateGame", secret, (*SEALED, ("view",), ("events",)))
    bot = {"sealedState": token_from(0), "bot": {"policy": "greedy"}, "seatKey": key_from(0, 0)}
    session.answered("ApplyAction", bot, BOT_MOVE)
    expiring = cases.session(f"{ruleset}/sealed/expiring-game")
    # The expiry is the clock's at the deal plus a day: the binding (its expiresAt, a 64-bit integer) is normalised
    # whole; the view is still exact, and the game plays on.
    binding: Path_ = ("sealedStateBinding",)
    expiring.answered(
        "CreateGame", {**_create(game), "seat": 0, "expiresInSeconds": 86_400}, (TOKEN, binding, SEAT_KEYS)
    )
    first_seat = acting_seat(game.moves[0].before)
    first = to_json(game.moves[0].applied.action)
    expiring.answered(
        "ApplyAction",
        {"sealedState": token_from(0), "action": first, "seatKey": key_from(0, first_seat)},
        (TOKEN, binding),
    )
    other_game = cases.session(f"{ruleset}/sealed/key-of-another-game")
    other_game.answered("CreateGame", _create(game), SEALED)
    other_game.answered("CreateGame", _create(game), SEALED)
    other_game.refused(
        "ApplyAction", {"sealedState": token_from(1), "action": first, "seatKey": key_from(0, first_seat)}
    )
    other_game.answered(
        "ApplyAction",
        {"sealedState": token_from(1), "action": first, "seatKey": key_from(1, first_seat)},
        (TOKEN, GAME_ID),
    )
