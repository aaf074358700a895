"""Checklist "Adding an RPC" (docs/architecture.md): the method table (``engine_service/api/methods.py``) is the
contract's service, both ways; both transports serve every RPC of it; and every place that must name each RPC by
hand (both clients, the API page) does, each check shown to catch a planted RPC. The lists derived from the table
are checked where they are used: the fuzzer's corpus (tests/fuzz), the metrics created at start-up (tests/ops),
the conformance vectors (tests/conformance), the calls that open a token (tests/sealing, tests/noninterference)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import grpc
import pytest
from splendor.v1 import engine_service_pb2

from engine_service.api import METHODS
from tests.checklists.coverage import (
    api_doc_rpcs,
    method_names,
    missing_from_api_doc,
    missing_from_proto,
    missing_from_python_client,
    missing_from_typescript_client,
    proto_methods,
)
from tests.checklists.servers import Addresses, serving
from tests.http.support import post

PLANTED = "PlantedRpc"
PLACES: list[Callable[[Iterable[str]], list[str]]] = [
    missing_from_proto,
    missing_from_python_client,
    missing_from_typescript_client,
    missing_from_api_doc,
]


def test_the_method_table_is_the_contracts_service_both_ways() -> None:
    assert method_names() == proto_methods()
    service = engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"]
    for method in METHODS:
        declared = service.methods_by_name[method.name]
        assert method.request_type.DESCRIPTOR is declared.input_type, method.name
        assert method.response_type.DESCRIPTOR is declared.output_type, method.name
        assert not (declared.client_streaming or declared.server_streaming), f"{method.name}: the API is unary"


@pytest.mark.parametrize("place", PLACES, ids=lambda place: place.__name__)
def test_every_rpc_of_the_table_is_named_where_it_must_be(place: Callable[[Iterable[str]], list[str]]) -> None:
    assert place(method_names()) == []


@pytest.mark.parametrize("place", PLACES, ids=lambda place: place.__name__)
def test_a_planted_rpc_is_caught_in_every_place(place: Callable[[Iterable[str]], list[str]]) -> None:
    assert place([*method_names(), PLANTED]) == [PLANTED]


def test_the_api_page_lists_no_rpc_the_table_lacks() -> None:
    assert sorted(api_doc_rpcs()) == sorted(method_names())


def test_a_contract_rpc_left_out_of_the_table_is_caught() -> None:
    table = method_names()[:-1]  # as if the last RPC's entry were forgotten
    assert [name for name in proto_methods() if name not in table] == [method_names()[-1]]


@pytest.fixture(scope="module")
def served() -> Iterator[Addresses]:
    with serving() as addresses:
        yield addresses


@pytest.mark.parametrize("name", method_names())
def test_both_transports_serve_every_rpc_of_the_table(name: str, served: Addresses) -> None:
    # An empty request is answered or refused by the handler, never UNIMPLEMENTED (or 404) by the transport.
    with grpc.insecure_channel(served.grpc) as channel:
        call = channel.unary_unary(f"/splendor.v1.EngineService/{name}")
        try:
            call(b"", timeout=10)
        except grpc.RpcError as error:
            assert error.code() not in (grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.UNKNOWN), error
    reply = post(int(served.http.rpartition(":")[2]), f"/splendor.v1.EngineService/{name}", b"{}", "application/json")
    assert reply.status in (200, 400, 412, 403), (reply.status, reply.body[:200])
