"""Several replicas behind one channel: round robin per call, and the retry policy for calls no engine answered.

Every engine call is a pure function of its request: the same request gets the same answer from any
replica, and answering it changes nothing anywhere. So a call that failed because no replica answered
it (``UNAVAILABLE``: a replica refused the connection, went away, or was draining; ``CANCELLED`` by a
replica that stopped) can be sent again, to the same replica or another, and the game goes on as if
the first try had not happened. Other codes
are answers (an illegal move, a bad token, a deadline the call did not meet) and are not retried.

What this does not make safe is a caller's own side effects around a call (a platform that records a
move, charges a player or notifies the other seats): keep those idempotent, keyed by the game id and
the step of the token, since a retried call can reach the platform's code twice if it retries too.

>>> import json
>>> json.loads(SERVICE_CONFIG)["methodConfig"][0]["retryPolicy"]["retryableStatusCodes"]
['UNAVAILABLE', 'CANCELLED']
>>> channel_target(["10.0.0.1:50051", "10.0.0.2:50051"])
'ipv4:10.0.0.1:50051,10.0.0.2:50051'
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Sequence
from typing import Any, Final

SERVICE: Final = "splendor.v1.EngineService"
# The header a proxy can hash on to send a game's calls to one replica (nginx `hash`, Envoy's ring
# hash): the sealed game's id, public in its binding. See docs/operations.md, "Affinity".
ROUTING_KEY_HEADER: Final = "splendor-game-id"

RETRY_POLICY: Final = {
    # The first try and up to 4 retries (gRPC's maximum), each after a random wait of up to 0.1 s,
    # 0.2 s, 0.4 s, 0.8 s.
    "maxAttempts": 5,
    "initialBackoff": "0.1s",
    "maxBackoff": "1s",
    "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"],
}
SERVICE_CONFIG: Final = json.dumps(
    {
        # Round robin over every address the target resolves to: the list given to `connect`, or every
        # replica a DNS name returns (a Kubernetes headless Service); one address behaves as one.
        "loadBalancingConfig": [{"round_robin": {}}],
        "methodConfig": [{"name": [{"service": SERVICE}], "retryPolicy": RETRY_POLICY}],
        # A channel stops retrying when failures outrun successes (retries resume as calls succeed again):
        # a fleet that is down gets each call once, not five times.
        "retryThrottling": {"maxTokens": 100, "tokenRatio": 0.1},
    }
)


def channel_target(addresses: str | Sequence[str]) -> str:
    """The gRPC target of one address (as given: ``host:port``, ``dns:///name:port``...) or of several
    replicas' ``ip:port`` (a static list: gRPC resolves no host names in a list; give a DNS name that
    resolves to every replica instead)."""
    if isinstance(addresses, str):
        return addresses
    if not addresses:
        raise ValueError("no address to connect to")
    if len(addresses) == 1:
        return addresses[0]
    families = {_ip_family(address) for address in addresses}
    if len(families) != 1:
        raise ValueError("a list of addresses must be all IPv4 or all IPv6 ip:port (e.g. 10.0.0.1:50051)")
    return f"{families.pop()}:{','.join(addresses)}"


def channel_options(options: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """``options`` with the service config above, unless they carry one of their own."""
    given = list(options)
    if any(name == "grpc.service_config" for name, _ in given):
        return given
    return [*given, ("grpc.service_config", SERVICE_CONFIG), ("grpc.enable_retries", 1)]


def _ip_family(address: str) -> str:
    host, separator, port = address.rpartition(":")
    try:
        ip = ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        ip = None
    if not separator or not port.isdigit() or ip is None:
        raise ValueError(f"{address!r} is not ip:port: a list of replicas needs their IP addresses")
    return "ipv4" if ip.version == 4 else "ipv6"
