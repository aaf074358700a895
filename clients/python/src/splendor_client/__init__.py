"""Python client of the stateless Splendor rules engine (gRPC service ``splendor.v1.EngineService``).

>>> from splendor_client import connect, actions, RuleRejected
>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, seed=1)
...     try:
...         game = client.apply(game.state, actions.take_two("red"))
...     except RuleRejected as error:
...         print(error.reason)

The messages are the generated ``splendor.v1`` stubs (``from splendor.v1 import state_pb2``...).
"""

try:
    import splendor.v1  # noqa: F401  (the contract's stubs: every module below speaks them)
except ModuleNotFoundError as missing:  # installed without them: say which command brings them
    from .install_hints import stubs_missing

    raise stubs_missing(missing) from missing

from . import actions
from .client import (
    DEFAULT_ADDRESS,
    DEFAULT_TIMEOUT,
    Audiences,
    EngineClient,
    GameLike,
    GameResult,
    MoveLike,
    ReplayResult,
    SealedGame,
    SealedReplay,
    ViewResult,
    connect,
    game_config,
    module_value,
    outcome,
    server_bot,
)
from .errors import (
    BatchTooLarge,
    EngineError,
    InvalidRequest,
    PermissionDenied,
    ReplayTooLong,
    RequestUndecodable,
    ResponseTooLarge,
    RuleRejected,
    TokenRefused,
    from_rpc_error,
    from_status,
)
from .tokens import TokenHeader, TokenHeaderError, read_token_header

__all__ = [
    "DEFAULT_ADDRESS",
    "Audiences",
    "DEFAULT_TIMEOUT",
    "BatchTooLarge",
    "EngineClient",
    "EngineError",
    "GameLike",
    "GameResult",
    "InvalidRequest",
    "MoveLike",
    "PermissionDenied",
    "ReplayResult",
    "ReplayTooLong",
    "RequestUndecodable",
    "ResponseTooLarge",
    "RuleRejected",
    "SealedGame",
    "SealedReplay",
    "TokenHeader",
    "TokenHeaderError",
    "TokenRefused",
    "ViewResult",
    "actions",
    "connect",
    "from_rpc_error",
    "from_status",
    "read_token_header",
    "game_config",
    "module_value",
    "outcome",
    "server_bot",
]
