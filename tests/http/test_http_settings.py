"""The HTTP settings: --http-address (empty: off) and the repeatable --http-cors-origin."""

from __future__ import annotations

from engine_service import cli
from engine_service.process.main import run_server
from engine_service.runtime.settings import Settings, defaults_from_env
from engine_service.sealing import KeyRing


def test_http_listens_on_localhost_8080_by_default() -> None:
    assert Settings().http_address == "localhost:8080"
    assert Settings().http_cors_origins == ()


def test_cors_origins_from_repeated_flags_or_a_comma_separated_variable() -> None:
    args = cli._parser(Settings()).parse_args(
        ["serve", "--http-cors-origin", "https://a.example", "--http-cors-origin", "https://b.example"]
    )
    assert args.http_cors_origins == ["https://a.example", "https://b.example"]
    env = defaults_from_env({"SPLENDOR_HTTP_CORS_ORIGINS": "https://a.example,https://b.example"})
    assert env.http_cors_origins == ("https://a.example", "https://b.example")
    assert defaults_from_env({"SPLENDOR_HTTP_ADDRESS": ""}).http_address == ""


def test_an_unusable_http_address_stops_the_server_with_status_1() -> None:
    for address in ("nonsense", "256.0.0.1:80"):
        assert (
            run_server(Settings(address="127.0.0.1:0", metrics_port=0, http_address=address), KeyRing.generate()) == 1
        )
