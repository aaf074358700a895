/**
 * The engine's errors as typed exceptions, with the rich error details decoded.
 *
 * Every failed call of `EngineClient` throws a `SplendorError`:
 * - `RuleRejected` (`FAILED_PRECONDITION`): a well-formed move the rules refuse, e.g.
 *   reason `"PILE_BELOW_FOUR"` or `"NOT_YOUR_TURN"`;
 * - `InvalidRequest` (`INVALID_ARGUMENT`): a malformed request or an impossible state, e.g.
 *   reason `"INVALID_PLAYER_COUNT"`, usually naming the faulty field in `fieldViolations`;
 * - `PermissionDenied` (`PERMISSION_DENIED`): a sealed request that names a seat, or acts,
 *   without that seat's key (`"SEAT_KEY_MISSING"`) or with another key (`"SEAT_KEY_INVALID"`);
 * - a plain `SplendorError` for everything else: `UNAVAILABLE` (no server there),
 *   `DEADLINE_EXCEEDED`, `RESOURCE_EXHAUSTED`, `INTERNAL`...
 *
 * A refused item of a batch (`EngineClient.applyBatch`) is the same `SplendorError` its own
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
export class SplendorError extends Error {
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
export class RuleRejected extends SplendorError {}

/** The request is malformed or its state impossible (`INVALID_ARGUMENT`). */
export class InvalidRequest extends SplendorError {}

/**
 * A sealed request named a seat, or acted, without that seat's key (reason `SEAT_KEY_MISSING`) or
 * with a key that is not that seat's in this game (`SEAT_KEY_INVALID`): `PERMISSION_DENIED`.
 * Nothing changed: send the seat's key, or look as a spectator (no seat).
 */
export class PermissionDenied extends SplendorError {}

/** The `SplendorError` (of the right subclass) for anything a Connect call threw. */
export function fromConnectError(error: unknown): SplendorError {
  if (error instanceof SplendorError) return error;
  const connectError = ConnectError.from(error);
  switch (connectError.code) {
    case Code.FailedPrecondition:
      return new RuleRejected(connectError);
    case Code.InvalidArgument:
      return new InvalidRequest(connectError);
    case Code.PermissionDenied:
      return new PermissionDenied(connectError);
    default:
      return new SplendorError(connectError);
  }
}

/**
 * The `SplendorError` (of the right subclass) for a `google.rpc.Status`: a batch item's refusal
 * (`BatchApplyActionsResult.outcome` `error`), the error its own `ApplyAction` call would throw.
 */
export function fromStatus(status: Status): SplendorError {
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
