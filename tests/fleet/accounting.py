"""After a fleet run: do the replicas' logs and metrics, nginx's log and the players' calls add up?

Every call a player made carries a request id of its own, kept across the client's retries; each replica
logs the id with every call it handled, and nginx logs it with every request it passed on (a client's
retry through nginx is another request with the same id). So:

- a call a player saw answered was logged answered by a replica (a process killed with SIGKILL may not
  have written its last lines: those of calls that ended just before the kill are excused, and counted);
- a replica logged no call that no player made;
- each request nginx got an answer to from a replica is in that replica's log (a gRPC call's status
  comes with nginx's line: a replica stopping answers a call it had not begun CANCELLED, unlogged);
- a replica still running at the end has metrics that count exactly its log lines, and nothing in flight;
- every replica stopped with SIGTERM drained: exit 0, no call cancelled at the end of its grace.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tests.fleet.players import CallRecord
from tests.fleet.replicas import Generation, Replica, value

ENGINE = "splendor.v1.EngineService"
# A killed process may lose the log lines it had not written yet (they are written in batches, at least
# every 0.1 s): calls that ended this close to a SIGKILL may have no line (either side of it: a Connect
# player's call is timed when its line is read from the Node process, a little after it ended).
KILL_WINDOW_SECONDS = 1.0


@dataclass
class Accounts:
    figures: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def settle(
    replicas: Iterable[Replica],
    calls: list[CallRecord],
    nginx_entries: list[dict[str, Any]],
    kills: list[tuple[Replica, Generation, float]],
) -> Accounts:
    """Check the run's records against each other (see the module docstring); ``kills``: what was killed when."""
    accounts = Accounts()
    replicas = list(replicas)
    lines: dict[str, list[tuple[Replica, Generation, dict[str, Any]]]] = defaultdict(list)
    for replica in replicas:
        for generation in replica.generations:
            for line in generation.calls():
                lines[line["request_id"]].append((replica, generation, line))
    by_id = {call.request_id: call for call in calls}
    killed_at = [at for _replica, _generation, at in kills]

    # Calls the players saw answered were answered by a replica; no replica answered a call nobody made.
    unlogged = [
        call
        for call in calls
        if call.code == "OK" and not any(line["code"] == "OK" for _r, _g, line in lines[call.request_id])
    ]
    excused = [call for call in unlogged if any(abs(at - call.at) <= KILL_WINDOW_SECONDS for at in killed_at)]
    for call in unlogged:
        if call not in excused:
            accounts.problems.append(f"call {call.request_id} ({call.method}) was answered, but no replica logged it")
    phantoms = sorted(request_id for request_id in lines if request_id not in by_id)
    if phantoms:
        accounts.problems.append(f"replicas logged {len(phantoms)} calls no player made, e.g. {phantoms[:3]}")
    wrong_method = [
        request_id
        for request_id, found in lines.items()
        if request_id in by_id and any(line["method"] != by_id[request_id].method for _r, _g, line in found)
    ]
    if wrong_method:
        accounts.problems.append(f"log lines name another method than the player's call: {wrong_method[:3]}")
    answered_twice = sum(1 for found in lines.values() if sum(line["code"] == "OK" for _r, _g, line in found) > 1)

    # What nginx got from a replica is in that replica's log.
    address_of = {}
    for replica in replicas:
        address_of[replica.grpc_address] = address_of[replica.http_address] = replica
    attempts: Counter[str] = Counter()
    passed_on = nginx_retries = 0
    for entry in nginx_entries:
        attempts[entry["request_id"]] += 1
        upstreams = [address.strip() for address in entry["upstream"].split(",")]
        nginx_retries += len(upstreams) - 1
        statuses = [status.strip() for status in entry["upstream_status"].split(",")]
        answering = address_of.get(upstreams[-1])
        grpc = entry["protocol"] == "HTTP/2.0"
        answered = entry["grpc_status"] == "0" if grpc else entry["status"] == "200"
        if answering is None or statuses[-1] != "200" or not answered:
            continue
        passed_on += 1
        if not any(r is answering for r, _g, _line in lines[entry["request_id"]]):
            made = by_id.get(entry["request_id"])
            near_kill = made is not None and any(abs(at - made.at) <= KILL_WINDOW_SECONDS for at in killed_at)
            if not near_kill:
                accounts.problems.append(
                    f"nginx got an answer to {entry['request_id']} from {answering.name}, not in its log"
                )

    # Live replicas: metrics count their log lines, nothing in flight; stopped ones drained.
    for replica in replicas:
        for generation in replica.generations:
            if generation.ended_by == "SIGTERM":
                stopped = generation.events("server_stopped")
                if generation.exit_code != 0 or not stopped or stopped[0]["cancelled"]:
                    ended = f"exit {generation.exit_code}, {stopped}"
                    accounts.problems.append(f"{replica.name} #{generation.number} did not drain cleanly: {ended}")
            if generation.metrics is None:
                continue
            counted = Counter((line["method"], line["code"]) for line in generation.calls())
            for (method, code), count in counted.items():
                exported = value(
                    generation.metrics,
                    "grpc_server_handled_total",
                    grpc_service=ENGINE,
                    grpc_method=method,
                    grpc_code=code,
                )
                if exported != count:
                    accounts.problems.append(
                        f"{replica.name} #{generation.number}: {method} {code}: metrics {exported:g}, log {count}"
                    )
            handled = value(generation.metrics, "grpc_server_handled_total", grpc_service=ENGINE)
            if handled != sum(counted.values()):
                accounts.problems.append(
                    f"{replica.name} #{generation.number}: metrics count {handled:g} calls, log {sum(counted.values())}"
                )
            started = value(generation.metrics, "grpc_server_started_total", grpc_service=ENGINE)
            if started != handled:
                accounts.problems.append(
                    f"{replica.name} #{generation.number}: {started - handled:g} calls still in flight"
                )

    seen = Counter(call.code for call in calls)
    accounts.figures.update(
        {
            "calls made by players": len(calls),
            "outcomes seen by players": dict(seen),
            "calls logged by replicas": sum(len(found) for found in lines.values()),
            "calls answered twice (a retry after an answer was lost)": answered_twice,
            "requests to nginx": len(nginx_entries),
            "calls retried by clients through nginx": sum(1 for count in attempts.values() if count > 1),
            "retries by clients through nginx": sum(count - 1 for count in attempts.values()),
            "retries by nginx itself (next replica)": nginx_retries,
            "requests nginx passed on and got answered": passed_on,
            "Connect calls retried by the client (it counts its tries)": sum(1 for call in calls if call.tries > 1),
            "Connect retries by the client": sum(call.tries - 1 for call in calls if call.tries > 1),
            "answered calls unlogged, killed process": len(excused),
        }
    )
    return accounts
