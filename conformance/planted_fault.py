"""This engine over gRPC with one planted fault: what the conformance runners' own tests run against, each
expecting to fail. A runner that passed here would not be checking what it claims to.

    .venv/bin/python -m conformance.planted_fault --fault events
    # prints one JSON line {"event": "server_started", "port": N, "fault": "events"}, then serves until stopped

The server answers every call as the engine does, except for the fault:

- ``events``: ApplyAction answers without the last event of the move;
- ``reason``: a refused call gives another ErrorInfo reason (GAME_OVER, or NOT_YOUR_TURN for GAME_OVER);
- ``digest``: ReplayGame's last state digest has its first hex digit changed;
- ``view``: GetPlayerView shows one more white token in the bank.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import grpc

from engine_service.api import METHODS, SERVICE, ApiConfig, ApiError, Call, Method, invoke
from engine_service.sealing import KeyRing
from engine_service.server.errors import grpc_status


def _drop_last_event(method: str, response: Any) -> None:
    if method == "ApplyAction" and response.events:
        del response.events[-1]


def _change_digest(method: str, response: Any) -> None:
    if method == "ReplayGame" and response.state_digests:
        digest = response.state_digests[-1]
        response.state_digests[-1] = ("1" if digest[0] == "0" else "0") + digest[1:]


def _more_white(method: str, response: Any) -> None:
    if method == "GetPlayerView":
        response.view.bank.white += 1


def _other_reason(error: ApiError) -> ApiError:
    reason = "NOT_YOUR_TURN" if error.reason == "GAME_OVER" else "GAME_OVER"
    return ApiError(error.code, reason, error.message, metadata=error.metadata, field_violations=error.field_violations)


def _same_error(error: ApiError) -> ApiError:
    return error


def _same_response(method: str, response: Any) -> None:
    del method, response


# Each fault: what it does to a response, and to a refusal.
FAULTS: Final[dict[str, tuple[Callable[[str, Any], None], Callable[[ApiError], ApiError]]]] = {
    "events": (_drop_last_event, _same_error),
    "reason": (_same_response, _other_reason),
    "digest": (_change_digest, _same_error),
    "view": (_more_white, _same_error),
}


def build(fault: str, address: str = "127.0.0.1:0") -> tuple[grpc.Server, int]:
    """A bound, not yet started server with ``fault`` planted; its port."""
    alter_response, alter_error = FAULTS[fault]
    config = ApiConfig(KeyRing.generate())

    def handler(method: Method[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
        def behavior(request: Any, context: grpc.ServicerContext) -> Any:
            call = Call(method.name)
            call.config = config
            try:
                response = invoke(method, request, call)
            except ApiError as error:
                context.abort_with_status(grpc_status(alter_error(error)))
            alter_response(method.name, response)
            return response

        return grpc.unary_unary_rpc_method_handler(
            behavior, request_deserializer=method.decode, response_serializer=method.response_type.SerializeToString
        )

    server = grpc.server(ThreadPoolExecutor(max_workers=4))
    handlers = {method.name: handler(method) for method in METHODS}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    port = server.add_insecure_port(address)
    return server, port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fault", choices=sorted(FAULTS), required=True)
    parser.add_argument("--address", default="127.0.0.1:0", help="host:port to listen on (port 0: a free one)")
    args = parser.parse_args()
    server, port = build(args.fault, args.address)
    server.start()
    print(json.dumps({"event": "server_started", "port": port, "fault": args.fault}), flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    stopped.wait()
    server.stop(0).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
