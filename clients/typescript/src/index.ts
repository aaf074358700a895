/**
 * TypeScript client of the stateless Splendor rules engine (`splendor.v1.EngineService`).
 *
 * This entry point is transport-neutral (Node and browsers); the transports are in
 * `splendor-engine-client/node` (gRPC, Connect, gRPC-Web) and `splendor-engine-client/web`
 * (Connect, gRPC-Web). The generated messages are re-exported here.
 */
export * as actions from "./actions.js";
// The protobuf-es helpers a front end needs beside the messages, so it bundles one copy of them.
export { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
export type { ActionKind, ActionLike, PurchaseOptions } from "./actions.js";
export { RandomBot, type Bot } from "./bots.js";
export {
  balancedTransport,
  DEFAULT_RETRY_POLICY,
  DEFAULT_RETRY_THROTTLE,
  DEFAULT_SET_ASIDE,
  isRetryable,
  type BalanceOptions,
  type RetryPolicy,
  type RetryThrottle,
  type SetAsidePolicy,
} from "./balance.js";
export {
  DEFAULT_TIMEOUT_MS,
  EngineClient,
  gameConfig,
  moduleValue,
  outcome,
  ROUTING_KEY_HEADER,
  type ApplyOptions,
  type BatchOutcome,
  type BotMove,
  type ClientOptions,
  type ClosableTransport,
  type CreateSealedOptions,
  type DeterminizeOptions,
  type GameResult,
  type ModuleLike,
  type NewGameOptions,
  type ReplayOptions,
  type ReplayResult,
  type SealedOptions,
  type SealedGame,
  type SealedResult,
  type SimulateOptions,
  type ViewOptions,
  type ViewResult,
} from "./client.js";
export {
  color,
  colorName,
  countsOf,
  tokenCounts,
  GEM_NAMES,
  TOKEN_NAMES,
  type ColorLike,
  type Counts,
  type GemName,
  type TokenName,
} from "./colors.js";
export {
  codeName,
  BatchTooLarge,
  DOMAIN,
  EngineError,
  fromConnectError,
  fromStatus,
  InvalidRequest,
  JSON_REGISTRY,
  PermissionDenied,
  ReplayTooLong,
  RequestUndecodable,
  ResponseTooLarge,
  RuleRejected,
  SplendorError,
  TokenRefused,
  type FieldViolation,
} from "./errors.js";
export { actingSeat, gameOf, isFinished, stateSource, type Game, type SealedToken, type StateSource } from "./game.js";
export {
  keysBySeat,
  ownSeat,
  seatFields,
  tokenOf,
  type SealedGameLike,
  type SealedHandle,
  type SeatFields,
  type SeatKeys,
} from "./seat_keys.js";
export {
  MAX_TOKEN_BYTES,
  readTokenHeader,
  TokenHeaderError,
  type TokenHeader,
  type TokenHeaderReason,
} from "./tokens.js";
export * from "./gen/google/rpc/error_details_pb.js";
export * from "./gen/google/rpc/status_pb.js";
export * from "./gen/splendor/v1/actions_pb.js";
export * from "./gen/splendor/v1/catalog_pb.js";
export * from "./gen/splendor/v1/cities_pb.js";
export * from "./gen/splendor/v1/common_pb.js";
export * from "./gen/splendor/v1/config_pb.js";
export * from "./gen/splendor/v1/engine_service_pb.js";
export * from "./gen/splendor/v1/errors_pb.js";
export * from "./gen/splendor/v1/events_pb.js";
export * from "./gen/splendor/v1/orient_pb.js";
export * from "./gen/splendor/v1/sealing_pb.js";
export * from "./gen/splendor/v1/state_pb.js";
export * from "./gen/splendor/v1/strongholds_pb.js";
export * from "./gen/splendor/v1/trading_posts_pb.js";
export * from "./gen/splendor/v1/view_pb.js";
