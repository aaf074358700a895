"""The operator's checks before each step of a key rotation, as deploy/README.md ("Sealing keys") gives them.

Each replica says which ring it runs in ``splendor_sealing_keys`` (one series per key id: ``use`` is
``seals``, ``opens`` or ``retired``) and in its ``server_started`` line. Before making a key the sealing
key, every replica must open it; before retiring a key, no replica may still seal with it, and no game
in play may still hold a token it sealed (the platform's check: a token's key id is in clear in its
header).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tests.fleet.replicas import Replica


def ring_of(replica: Replica) -> dict[str, str]:
    """The key ids of the replica's running ring and their use, read from its /metrics."""
    return {
        dict(labels)["key_id"]: dict(labels)["use"]
        for (name, labels), sample in replica.scrape().items()
        if name == "splendor_sealing_keys" and sample == 1
    }


def before_sealing_with(replicas: Sequence[Replica], key_id: str) -> list[str]:
    """Why ``key_id`` may not become the sealing key yet: the replicas that would not open its tokens."""
    return [
        f"{replica.name} does not open {key_id!r} (its ring: {ring})"
        for replica in replicas
        if (ring := ring_of(replica)).get(key_id) not in ("seals", "opens")
    ]


def before_retiring(replicas: Sequence[Replica], key_id: str, live_token_keys: Iterable[str]) -> list[str]:
    """Why ``key_id`` may not be retired yet: replicas that still seal with it, games whose token it sealed."""
    problems = [
        f"{replica.name} still seals with {key_id!r}" for replica in replicas if ring_of(replica).get(key_id) == "seals"
    ]
    holding = sum(1 for live in live_token_keys if live == key_id)
    if holding:
        problems.append(f"{holding} game(s) in play hold a token sealed with {key_id!r}")
    return problems
