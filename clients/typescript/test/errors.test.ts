/** Connect errors decode into the typed errors, from the details as they arrive on the wire. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  BatchTooLarge,
  codeName,
  EngineError,
  fromConnectError,
  InvalidRequest,
  ReplayTooLong,
  RequestUndecodable,
  ResponseTooLarge,
  RuleRejected,
  SplendorError,
  TokenRefused,
} from "../src/errors.js";
import { BadRequestSchema, ErrorInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { RejectionReason } from "../src/gen/splendor/v1/errors_pb.js";

/** A ConnectError carrying details as a transport decodes them from the wire: type names and encoded bytes. */
function wireError(code: Code, message: string, reason: string, domain = "splendor.v1"): ConnectError {
  const info = create(ErrorInfoSchema, { reason, domain, metadata: { acting_seat: "0", turn: "3" } });
  const badRequest = create(BadRequestSchema, {
    fieldViolations: [{ field: "action.take_two_gems.color", description: message }],
  });
  const error = new ConnectError(message, code);
  error.details.push(
    { type: "google.rpc.ErrorInfo", value: toBinary(ErrorInfoSchema, info) },
    { type: "google.rpc.BadRequest", value: toBinary(BadRequestSchema, badRequest) },
  );
  return error;
}

test("FAILED_PRECONDITION becomes RuleRejected with the reason, metadata and field violations", () => {
  const error = fromConnectError(wireError(Code.FailedPrecondition, "only 2 left", "PILE_BELOW_FOUR"));
  assert.ok(error instanceof RuleRejected);
  assert.equal(error.name, "RuleRejected");
  assert.equal(error.reason, "PILE_BELOW_FOUR");
  assert.equal(error.rejectionReason, RejectionReason.PILE_BELOW_FOUR);
  assert.deepEqual(error.metadata, { acting_seat: "0", turn: "3" });
  assert.deepEqual(error.fieldViolations, [{ field: "action.take_two_gems.color", description: "only 2 left" }]);
  assert.equal(error.rawMessage, "only 2 left");
  assert.equal(error.message, "FAILED_PRECONDITION PILE_BELOW_FOUR: only 2 left (action.take_two_gems.color)");
});

test("INVALID_ARGUMENT becomes InvalidRequest; other codes a plain EngineError without details", () => {
  assert.ok(fromConnectError(wireError(Code.InvalidArgument, "bad", "INVALID_STATE")) instanceof InvalidRequest);
  const unavailable = fromConnectError(new ConnectError("connection refused", Code.Unavailable));
  assert.equal(unavailable.constructor, EngineError);
  assert.equal(unavailable.codeName, "UNAVAILABLE");
  assert.equal(unavailable.reason, "");
  assert.deepEqual(unavailable.metadata, {});
  assert.deepEqual(unavailable.fieldViolations, []);
});

test("a reason from another domain is kept but is no RejectionReason", () => {
  const error = fromConnectError(wireError(Code.FailedPrecondition, "no", "PILE_BELOW_FOUR", "example.com"));
  assert.equal(error.reason, "PILE_BELOW_FOUR");
  assert.equal(error.rejectionReason, undefined);
});

test("anything thrown becomes an EngineError, and an EngineError stays itself", () => {
  const unknown = fromConnectError(new TypeError("boom"));
  assert.equal(unknown.code, Code.Unknown);
  assert.equal(fromConnectError(unknown), unknown);
});

test("code names are the gRPC names", () => {
  assert.equal(codeName(Code.FailedPrecondition), "FAILED_PRECONDITION");
  assert.equal(codeName(Code.DeadlineExceeded), "DEADLINE_EXCEEDED");
  assert.equal(codeName(Code.Internal), "INTERNAL");
});

test("the service's bounds and unreadable tokens have classes of their own, as in the Python client", () => {
  const cases = [
    ["SEALED_STATE_TAMPERED", TokenRefused],
    ["SEALED_STATE_EXPIRED", TokenRefused],
    ["REQUEST_UNDECODABLE", RequestUndecodable],
    ["REPLAY_TOO_LONG", ReplayTooLong],
    ["RESPONSE_TOO_LARGE", ResponseTooLarge],
    ["BATCH_TOO_LARGE", BatchTooLarge],
  ] as const;
  for (const [reason, kind] of cases) {
    const error = fromConnectError(wireError(Code.InvalidArgument, "no", reason));
    assert.equal(error.constructor, kind, reason);
    assert.ok(error instanceof InvalidRequest && error instanceof EngineError);
    assert.equal(error.name, kind.name);
  }
});

test("SplendorError, the old name, is the same class", () => {
  const error: SplendorError = fromConnectError(wireError(Code.FailedPrecondition, "no", "GAME_OVER"));
  assert.equal(SplendorError, EngineError);
  assert.ok(error instanceof SplendorError);
});
