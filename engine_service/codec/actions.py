"""Actions between the core's records and ``splendor.v1.Action``: one table, built from the registry.

Each action record converts by field name (``records.py``) to the ``Action`` oneof
field named like it in snake case (``TakeGems`` <-> ``take_gems``); ``action_id``
decodes through the registry's id layout. Reading an empty or unknown kind is
``UNKNOWN_ACTION``; writing a record the contract has no field for fails loudly.
Fields in errors are relative to the Action message.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from splendor.v1 import actions_pb2

from engine_service.rules import (
    ACTION_ID_COUNT,
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
)

from .records import OneofTable, message_descriptor

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


_TABLE: Final = OneofTable(
    _ONEOF, lambda: BASE_ACTIONS + tuple(r for module in registered_modules() for r in module.actions), _bad_color
)


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


@cache
def legal_action_table() -> tuple[actions_pb2.LegalAction, ...]:
    """Every action by id as a ``LegalAction`` message, built once per process (~40 ms): a list of
    legal actions is copied from these. Shared: never mutate them."""
    return tuple(
        actions_pb2.LegalAction(action_id=value, action=action_to_proto(action_from_id(value)))
        for value in range(ACTION_ID_COUNT)
    )
