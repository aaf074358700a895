"""Protobuf <-> rules-core conversion: the public face the service (and any gRPC adapter) uses.

One generic codec per kind of record, driven by tables: actions (``actions.py``)
and events (``events.py``) by field name, the state through one field table
(``state.py``), each module's state and catalog part through its own adapter
(``modules/<name>.py``), found through the rules registry. Incoming messages
are untrusted: what the core cannot represent raises ``RuleViolation`` naming
the field at fault.
"""

from .actions import action_from_proto, action_kind, action_to_proto, fill_action, legal_action_table
from .catalog import catalog
from .common import (
    color_from_proto,
    color_to_proto,
    config_from_proto,
    end_reason_to_proto,
    fill_config,
    fill_gems,
    fill_tokens,
    gems_from_proto,
    invalid_state,
    modules_to_proto,
    tokens_from_proto,
)
from .events import event_from_proto, events_from_proto, fill_events
from .modules import ModuleAdapter, adapter_for
from .observation import fill_observation, fill_observation_layout
from .state import (
    fill_pending,
    fill_standings,
    fill_state,
    pending_from_proto,
    row_from_proto,
    state_from_proto,
    state_to_proto,
    update_state,
)
from .view import fill_revealed_seed, fill_view, fill_view_of_state

__all__ = [
    "ModuleAdapter",
    "action_from_proto",
    "action_kind",
    "action_to_proto",
    "adapter_for",
    "catalog",
    "color_from_proto",
    "color_to_proto",
    "config_from_proto",
    "end_reason_to_proto",
    "event_from_proto",
    "events_from_proto",
    "fill_action",
    "fill_config",
    "fill_events",
    "fill_gems",
    "fill_observation",
    "fill_observation_layout",
    "fill_pending",
    "fill_standings",
    "fill_state",
    "fill_tokens",
    "fill_revealed_seed",
    "fill_view",
    "fill_view_of_state",
    "gems_from_proto",
    "invalid_state",
    "legal_action_table",
    "modules_to_proto",
    "pending_from_proto",
    "row_from_proto",
    "state_from_proto",
    "state_to_proto",
    "tokens_from_proto",
    "update_state",
]
