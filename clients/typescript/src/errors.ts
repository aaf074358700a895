/**
 * The engine's errors as typed exceptions, with the rich error details decoded.
 *
 * Every failed call of `EngineClient` throws an `EngineError` (the Python client's names, class for class):
 * - `RuleRejected` (`FAILED_PRECONDITION`): a well-formed move the rules refuse, e.g.
 *   reason `"PILE_BELOW_FOUR"` or `"NOT_YOUR_TURN"`;
 * - `InvalidRequest` (`INVALID_ARGUMENT`): a malformed request or an impossible state, e.g.
 *   reason `"INVALID_PLAYER_COUNT"`, usually naming the faulty field in `fieldViolations`; its
 *   subclasses `TokenRefused` (a game token that does not open: `SEALED_STATE_*`),
 *   `RequestUndecodable`, `ReplayTooLong`, `ResponseTooLarge` and `BatchTooLarge` name the service's bounds;
 * - `PermissionDenied` (`PERMISSION_DENIED`): a sealed request that names a seat, or acts,
 *   without that seat's key (`"SEAT_KEY_MISSING"`) or with another key (`"SEAT_KEY_INVALID"`);
 * - a plain `EngineError` for everything else: `UNAVAILABLE` (no server there),
 *   `DEADLINE_EXCEEDED`, `RESOURCE_EXHAUSTED`, `INTERNAL`...
 *
 * `SplendorError` is the deprecated name of `EngineError` (the same class).
 *
 * A refused item of a batch (`EngineClient.applyBatch`) is the same `EngineError` its own
 * `ApplyAction` call would throw, built from the item's `google.rpc.Status` (`fromStatus`).
 *
 * The reason is the `google.rpc.ErrorInfo` reason: a `RejectionReason` name without its
 * `REJECTION_REASON_` prefix (see proto/splendor/v1/errors.proto), which is also the name
 * of the generated TypeScript enum member: `error.rejectionReason === RejectionReason.PILE_BELOW_FOUR`.
 */
import { createRegistry } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import { type Status, StatusSchema } from "./gen/google/rpc/status_pb.js";
import { RejectionReason } from "./gen/splendor/v1/errors_pb.js";

/** The `ErrorInfo.domain` of the engine's own errors. */
export const DOMAIN = "splendor.v1";

/** A request field at fault, from a `google.rpc.BadRequest`. */
export interface FieldViolation {
  /** The field's path in the request, e.g. `"config.num_players"`. */
  readonly field: string;
  /** What is wrong with it. */
  readonly description: string;
}

/** A failed call to the engine. */
export class EngineError extends Error {
  /** The status code. */
  readonly code: Code;
  /** The status message, for people (`message` adds the code, reason and fields). */
  readonly rawMessage: string;
  /** The `ErrorInfo` reason, for programs (`""` when the error has none). */
  readonly reason: string;
  /** The `ErrorInfo` domain (`"splendor.v1"` for the engine's own errors). */
  readonly domain: string;
  /** The `ErrorInfo` metadata, such as the acting seat; values are strings. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The request fields at fault, from a `google.rpc.BadRequest`. */
  readonly fieldViolations: readonly FieldViolation[];
  /** The Connect error this one was decoded from. */
  override readonly cause: ConnectError;

  constructor(cause: ConnectError) {
    const info = cause.findDetails(ErrorInfoSchema)[0];
    const violations = cause
      .findDetails(BadRequestSchema)
      .flatMap((badRequest) => badRequest.fieldViolations.map(({ field, description }) => ({ field, description })));
    super(describe(cause.code, cause.rawMessage, info?.reason ?? "", violations));
    this.name = new.target.name;
    this.cause = cause;
    this.code = cause.code;
    this.rawMessage = cause.rawMessage;
    this.reason = info?.reason ?? "";
    this.domain = info?.domain ?? "";
    this.metadata = { ...(info?.metadata ?? {}) };
    this.fieldViolations = violations;
  }

  /** The status code's name, e.g. `"FAILED_PRECONDITION"`. */
  get codeName(): string {
    return codeName(this.code);
  }

  /** The reason as a `RejectionReason`, when the engine sent one of its own. */
  get rejectionReason(): RejectionReason | undefined {
    if (this.domain !== DOMAIN) return undefined;
    const value: unknown = RejectionReason[this.reason as keyof typeof RejectionReason];
    return typeof value === "number" ? (value as RejectionReason) : undefined;
  }
}

/** The rules refuse the move (`FAILED_PRECONDITION`): the request was well formed but is illegal now. */
export class RuleRejected extends EngineError {}

/** The request is malformed or its state impossible (`INVALID_ARGUMENT`). */
export class InvalidRequest extends EngineError {}

/**
 * A sealed request named a seat, or acted, without that seat's key (reason `SEAT_KEY_MISSING`) or
 * with a key that is not that seat's in this game (`SEAT_KEY_INVALID`): `PERMISSION_DENIED`.
 * Nothing changed: send the seat's key, or look as a spectator (no seat).
 */
export class PermissionDenied extends EngineError {}

/**
 * A `sealedState` that does not open (reason `SEALED_STATE_*`): altered, truncated, sealed by another
 * deployment or with a retired key. The game must be rebuilt from its action log (`replaySealed`).
 */
export class TokenRefused extends InvalidRequest {}

/** The request bytes are not the method's request message (`REQUEST_UNDECODABLE`). */
export class RequestUndecodable extends InvalidRequest {}

/** `replay` was sent more actions than the service replays in one call (`REPLAY_TOO_LONG`). */
export class ReplayTooLong extends InvalidRequest {}

/** The answer would exceed the largest message the service sends (`RESPONSE_TOO_LARGE`). */
export class ResponseTooLarge extends InvalidRequest {}

/**
 * A batch had more items than the service takes in one call (`BATCH_TOO_LARGE`; the bound is the
 * catalog's `limits.maxBatchItems`). Nothing was applied: send the items in smaller batches.
 */
export class BatchTooLarge extends InvalidRequest {}

/** @deprecated The old name of `EngineError`, the same class. */
export const SplendorError = EngineError;
/** @deprecated The old name of `EngineError`. */
export type SplendorError = EngineError;

/** The subclasses of `InvalidRequest` by reason (a token that does not open: `TokenRefused`, by prefix). */
const INVALID_REQUESTS_BY_REASON: Readonly<Record<string, typeof InvalidRequest>> = {
  REQUEST_UNDECODABLE: RequestUndecodable,
  REPLAY_TOO_LONG: ReplayTooLong,
  RESPONSE_TOO_LARGE: ResponseTooLarge,
  BATCH_TOO_LARGE: BatchTooLarge,
};

/** The `EngineError` (of the right subclass) for anything a Connect call threw. */
export function fromConnectError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const connectError = ConnectError.from(error);
  switch (connectError.code) {
    case Code.FailedPrecondition:
      return new RuleRejected(connectError);
    case Code.InvalidArgument:
      return new (invalidRequestClass(connectError))(connectError);
    case Code.PermissionDenied:
      return new PermissionDenied(connectError);
    default:
      return new EngineError(connectError);
  }
}

function invalidRequestClass(error: ConnectError): typeof InvalidRequest {
  const reason = error.findDetails(ErrorInfoSchema)[0]?.reason ?? "";
  return reason.startsWith("SEALED_STATE_") ? TokenRefused : (INVALID_REQUESTS_BY_REASON[reason] ?? InvalidRequest);
}

/**
 * The `EngineError` (of the right subclass) for a `google.rpc.Status`: a batch item's refusal
 * (`BatchApplyActionsResult.outcome` `error`), the error its own `ApplyAction` call would throw.
 */
export function fromStatus(status: Status): EngineError {
  const error = new ConnectError(status.message, status.code as Code);
  for (const detail of status.details) {
    // An Any's type URL ends with the message's full name, as the Connect error details name it.
    error.details.push({ type: detail.typeUrl.slice(detail.typeUrl.lastIndexOf("/") + 1), value: detail.value });
  }
  return fromConnectError(error);
}

/**
 * The messages a response of the engine may hold inside a `google.protobuf.Any` (a batch item's
 * `google.rpc.Status` and its details), for the JSON format: the transports of `node.ts` and
 * `web.ts` read and write JSON with it.
 */
export const JSON_REGISTRY = createRegistry(StatusSchema, ErrorInfoSchema, BadRequestSchema);

/** The gRPC name of a status code: `Code.FailedPrecondition` is `"FAILED_PRECONDITION"`. */
export function codeName(code: Code): string {
  const name = Code[code] as string | undefined;
  return name === undefined ? `CODE_${code}` : name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

function describe(code: Code, message: string, reason: string, violations: readonly FieldViolation[]): string {
  const head = reason ? `${codeName(code)} ${reason}` : codeName(code);
  let text = message ? `${head}: ${message}` : head;
  if (violations.length > 0) {
    // The field, and its description unless it only repeats the message.
    const parts = violations.map(({ field, description }) =>
      description === message ? field : `${field}: ${description}`,
    );
    text += ` (${parts.join("; ")})`;
  }
  return text;
}
