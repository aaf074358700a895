"""Actions between the core's records and ``splendor.v1.Action``: one table, built from the registry.

Each action record converts by field name (``records.py``) to the ``Action`` oneof
field named like it in snake case (``TakeGems`` <-> ``take_gems``); ``action_id``
decodes through the registry's id layout. Reading an empty or unknown kind is
``UNKNOWN_ACTION``; writing a record the contract has no field for fails loudly.
Fields in errors are relative to the Action message.
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import actions_pb2

from engine_service.rules import (
    Action,
    ChooseNoble,
    Decline,
    Pass,
    PurchaseCard,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    RuleViolation,
    TakeGems,
    TakeTwoGems,
    action_from_id,
    registered_modules,
    registry,
    snake_case,
)

from .records import RecordCodec, field_message, message_descriptor

BASE_ACTIONS: Final = (
    TakeGems,
    TakeTwoGems,
    ReserveCard,
    ReserveFromDeck,
    PurchaseCard,
    Pass,
    ReturnTokens,
    ChooseNoble,
    Decline,
)
_ONEOF: Final = message_descriptor(actions_pb2.Action).oneofs_by_name["kind"]


def _bad_color(value: int, field: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_COLOR, f"{value} is not a colour", field=field, color=str(value))


class _Table:
    """Per oneof field, the codec of its record; per record type, its oneof field and codec."""

    def __init__(self) -> None:
        self.by_field: dict[str, tuple[RecordCodec, str]] = {}
        self.by_type: dict[type, tuple[str, RecordCodec]] = {}
        self.rebuild()
        registry.on_change(self.rebuild)

    def rebuild(self) -> None:
        fields = {field.name: field for field in _ONEOF.fields}
        by_field: dict[str, tuple[RecordCodec, str]] = {}
        by_type: dict[type, tuple[str, RecordCodec]] = {}
        for record in BASE_ACTIONS + tuple(a for module in registered_modules() for a in module.actions):
            name = snake_case(record.__name__)
            field = fields.get(name)
            if field is None:  # a module outside the contract (a test's): in-process only
                continue
            codec = RecordCodec(record, field_message(field), _bad_color)
            by_field[name] = (codec, name + ".")  # the prefix of its fields in error paths
            by_type[record] = (name, codec)
        self.by_field = by_field
        self.by_type = by_type


_TABLE: Final = _Table()


def action_from_proto(msg: actions_pb2.Action) -> Action:
    """The core action; fields in errors are relative to the Action message."""
    kind = msg.WhichOneof("kind")
    if kind is None:
        raise RuleViolation(Reason.UNKNOWN_ACTION, "the action is empty: set one kind of action", field="")
    entry = _TABLE.by_field.get(kind)
    if entry is not None:
        result: Action = entry[0].read(getattr(msg, kind), entry[1])
        return result
    if kind == "action_id":
        try:
            by_id: Action = action_from_id(msg.action_id)
        except RuleViolation as violation:
            violation.details["field"] = "action_id"
            raise
        return by_id
    raise RuleViolation(Reason.UNKNOWN_ACTION, f"{kind} is not an action of this engine", field=kind)


def fill_action(out: actions_pb2.Action, action: Action) -> None:
    """Write a core action (never by id) into an empty message."""
    entry = _TABLE.by_type.get(type(action))
    if entry is None:
        raise TypeError(f"the contract has no Action field for {type(action).__name__}")
    name, codec = entry
    codec.write(getattr(out, name), action)


def action_to_proto(action: Action) -> actions_pb2.Action:
    out = actions_pb2.Action()
    fill_action(out, action)
    return out


def action_kind(msg: actions_pb2.Action) -> str | None:
    """The name of the Action oneof field that is set, for error field paths."""
    return msg.WhichOneof("kind")
