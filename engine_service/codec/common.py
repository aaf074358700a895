"""Shared conventions of the contract: colours, token counts, enums by name, the config, field errors.

* colours: proto ``Color`` value = core colour index + 1 (``COLOR_UNSPECIFIED`` is never valid);
* modules: proto ``MODULE_TRADING_POSTS`` <-> core name ``"trading_posts"``;
* enums shared by name (``DecisionKind``, ``EndReason``, ``CardSource``), never by number.

Incoming messages are untrusted: anything the core cannot represent raises a
``RuleViolation`` naming the field at fault; nothing here raises anything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from splendor.v1 import common_pb2, config_pb2, state_pb2

from engine_service.rules import GOLD, DecisionKind, EndReason, GameConfig, Reason, RuleViolation, registry

# Proto Color value -> core colour index; anything else (0, or unknown numbers) is invalid.
CORE_COLOR: Final[dict[int, int]] = {value: value - 1 for value in range(1, 7)}

MODULE_NAMES: Final[dict[int, str]] = {
    value.number: value.name.removeprefix("MODULE_").lower()
    for value in config_pb2.Module.DESCRIPTOR.values
    if value.number != config_pb2.MODULE_UNSPECIFIED
}
MODULE_VALUES: Final[dict[str, int]] = {name: number for number, name in MODULE_NAMES.items()}

END_REASONS: Final[dict[int, EndReason]] = {
    state_pb2.EndReason.Value(f"END_REASON_{reason.name}"): reason for reason in EndReason
}
END_VALUES: Final[dict[EndReason, state_pb2.EndReason.ValueType]] = {
    reason: state_pb2.EndReason.ValueType(value) for value, reason in END_REASONS.items()
}


class _DecisionKinds:
    """Proto ``DecisionKind`` values <-> the registered kinds, by name; rebuilt when modules change."""

    def __init__(self) -> None:
        self.by_value: dict[int, DecisionKind] = {}
        self.values: dict[DecisionKind, state_pb2.DecisionKind.ValueType] = {}
        self.rebuild()
        registry.on_change(self.rebuild)

    def rebuild(self) -> None:
        names = {value.name: value.number for value in state_pb2.DecisionKind.DESCRIPTOR.values}
        by_value = {}
        for kind in DecisionKind:
            number = names.get(f"DECISION_KIND_{kind.name}")
            if number is not None:  # a kind the contract does not name (a test's module) has no wire form
                by_value[number] = kind
        self.by_value = by_value
        self.values = {kind: state_pb2.DecisionKind.ValueType(value) for value, kind in by_value.items()}


DECISION_KINDS: Final = _DecisionKinds()


def decision_value(kind: DecisionKind) -> state_pb2.DecisionKind.ValueType:
    """The contract's value of a decision kind; a kind the contract does not name fails loudly."""
    value = DECISION_KINDS.values.get(kind)
    if value is None:
        raise TypeError(f"the contract has no DecisionKind value for {kind.name}")
    return value


def invalid_state(field: str, message: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_STATE, message, field=field)


def tokens_from_proto(counts: common_pb2.TokenCounts) -> tuple[int, ...]:
    return (counts.white, counts.blue, counts.green, counts.red, counts.black, counts.gold)


def gems_from_proto(counts: common_pb2.GemCounts) -> tuple[int, ...]:
    return (counts.white, counts.blue, counts.green, counts.red, counts.black)


def fill_tokens(out: common_pb2.TokenCounts, counts: Sequence[int]) -> None:
    """Fill a fresh message, as ``fill_gems``, and the gold."""
    fill_gems(out, counts)
    gold = counts[GOLD]
    if gold:
        out.gold = gold


def fill_gems(out: common_pb2.GemCounts | common_pb2.TokenCounts, counts: Sequence[int]) -> None:
    """Fill a fresh message's five gem colours from the first five ``counts``: zero counts, which the wire form
    leaves out anyway, are not set (most are zero, and each field set costs); all zero, it is still marked present."""
    white, blue, green, red, black = counts[:GOLD]
    if white:
        out.white = white
    if blue:
        out.blue = blue
    if green:
        out.green = green
    if red:
        out.red = red
    if black:
        out.black = black
    elif not (white or blue or green or red):
        out.SetInParent()


def color_from_proto(value: int, field: str) -> int:
    """A colour of a request (an action): a bad one is INVALID_COLOR."""
    color = CORE_COLOR.get(value)
    if color is None:
        raise RuleViolation(Reason.INVALID_COLOR, f"{value} is not a colour", field=field, color=str(value))
    return color


def state_color(value: int, field: str) -> int:
    """A colour inside a state or an event: a bad one makes it invalid (INVALID_STATE, not INVALID_COLOR)."""
    color = CORE_COLOR.get(value)
    if color is None:
        raise invalid_state(field, f"{value} is not a colour")
    return color


def color_to_proto(color: int) -> common_pb2.Color.ValueType:
    return common_pb2.Color.ValueType(color + 1)


def end_reason_to_proto(reason: EndReason | None) -> state_pb2.EndReason.ValueType:
    if reason is None:
        return state_pb2.END_REASON_UNSPECIFIED
    return END_VALUES[reason]


# --- configuration ------------------------------------------------------------------------------


def config_from_proto(msg: config_pb2.GameConfig, field: str = "config") -> GameConfig:
    """The core config; ``validate_config`` (called by the caller) checks the values."""
    names = []
    for index, value in enumerate(msg.modules):
        name = MODULE_NAMES.get(value)
        if name is None:
            raise RuleViolation(
                Reason.UNKNOWN_MODULE, f"{value} is not a module", field=f"{field}.modules[{index}]", module=str(value)
            )
        names.append(name)
    return GameConfig(
        num_players=msg.num_players,
        seed=msg.seed,
        first_seat=msg.first_seat if msg.HasField("first_seat") else None,
        modules=frozenset(names),
        turn_limit=msg.turn_limit,
    )


def fill_config(out: config_pb2.GameConfig, config: GameConfig) -> None:
    out.num_players = config.num_players
    out.seed = config.seed
    if config.first_seat is None:
        out.ClearField("first_seat")
    else:
        out.first_seat = config.first_seat
    del out.modules[:]
    out.modules.extend(modules_to_proto(config.modules))
    out.turn_limit = config.turn_limit


def modules_to_proto(modules: frozenset[str]) -> list[config_pb2.Module.ValueType]:
    return [config_pb2.Module.ValueType(MODULE_VALUES[name]) for name in sorted(modules)]
