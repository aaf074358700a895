"""Re-exports of ``engine_service.codec`` under the names the service imports (kept while it moves to ``api``)."""

from engine_service.codec import (
    action_from_proto,
    action_to_proto,
    config_from_proto,
    fill_state,
    fill_view,
    state_from_proto,
    state_to_proto,
    update_state,
)

__all__ = [
    "action_from_proto",
    "action_to_proto",
    "config_from_proto",
    "fill_state",
    "fill_view",
    "state_from_proto",
    "state_to_proto",
    "update_state",
]
