"""Every value the game's metric labels can take, from the contract: so each series can
exist at zero from start-up, and an operator's query finds 0 rather than nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from splendor.v1 import actions_pb2, config_pb2, errors_pb2, state_pb2

from engine_service.rules.config import MAX_PLAYERS, MIN_PLAYERS


def _names(names: Iterable[str], prefix: str) -> tuple[str, ...]:
    return tuple(name.removeprefix(prefix) for name in names if not name.endswith("_UNSPECIFIED"))


# splendor_rejections_total{reason}: the RejectionReason names without their prefix.
REJECTION_REASONS: Final = _names(errors_pb2.RejectionReason.keys(), "REJECTION_REASON_")
# splendor_games_finished_total{end_reason}
END_REASONS: Final = _names(state_pb2.EndReason.keys(), "END_REASON_")
# splendor_games_created_total{module, players}: the base game or one module (they are played one at a time).
MODULES: Final = ("base", *(name.lower() for name in _names(config_pb2.Module.keys(), "MODULE_")))
PLAYER_COUNTS: Final = tuple(str(count) for count in range(MIN_PLAYERS, MAX_PLAYERS + 1))
# splendor_actions_applied_total{kind}: the Action oneof fields; an action sent by id counts as its kind.
ACTION_KINDS: Final = tuple(
    field.name for field in actions_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields if field.name != "action_id"
)
# splendor_batch_items_total{outcome}: a BatchApplyActions item got its response, or its own refusal.
ANSWERED: Final = "answered"
REFUSED: Final = "refused"
BATCH_ITEM_OUTCOMES: Final = (ANSWERED, REFUSED)
# splendor_state_memo_lookups_total{kind, result}: the memo's kinds of entries (``state_memo.py``), found or not.
STATE_ENTRY: Final = "state"
TOKEN_ENTRY: Final = "token"
SEAT_KEY_ENTRY: Final = "seat_key"
MEMO_KINDS: Final = (STATE_ENTRY, TOKEN_ENTRY, SEAT_KEY_ENTRY)
MEMO_HIT: Final = "hit"
MEMO_MISS: Final = "miss"
MEMO_RESULTS: Final = (MEMO_HIT, MEMO_MISS)
