/**
 * Many moves in one call through the TypeScript client and the real engine (gRPC, Connect binary and
 * Connect JSON): `applyBatch` gives, for each request, the response its own `ApplyAction` call gives
 * or the `EngineError` it throws (same class, code, reason, metadata and fields), returned in its
 * place; only a refusal of the whole call (`BATCH_TOO_LARGE`) throws.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { takeTwo } from "../src/actions.js";
import { EngineClient, gameConfig, outcome } from "../src/client.js";
import { EngineError, fromConnectError, InvalidRequest, PermissionDenied, RuleRejected } from "../src/errors.js";
import { type ApplyActionRequestSchema, EngineService } from "../src/gen/splendor/v1/engine_service_pb.js";
import { actingSeat } from "../src/game.js";
import { connectTransport, grpcTransport } from "../src/node.js";
import { createClient } from "@connectrpc/connect";
import { type EngineServer, startEngine } from "./support/server.js";

const CLIENTS: readonly { label: string; client: (server: EngineServer) => EngineClient }[] = [
  { label: "gRPC", client: (server) => new EngineClient(grpcTransport(server.grpcAddress)) },
  { label: "Connect binary", client: (server) => new EngineClient(connectTransport(server.httpAddress)) },
  {
    label: "Connect JSON",
    client: (server) => new EngineClient(connectTransport(server.httpAddress, { useBinaryFormat: false })),
  },
];

type Request = MessageInitShape<typeof ApplyActionRequestSchema>;

/** What one `ApplyAction` call of `request` gives: its response, or the error it throws. */
async function alone(server: EngineServer, request: Request): Promise<unknown> {
  const transport = grpcTransport(server.grpcAddress);
  try {
    return await createClient(EngineService, transport).applyAction(request);
  } catch (error) {
    return error;
  } finally {
    transport.close();
  }
}

describe("batches through the client", () => {
  let server: EngineServer | undefined;
  before(async () => {
    server = await startEngine();
  });
  after(async () => {
    await server?.stop();
  });

  for (const { label, client: clientOf } of CLIENTS) {
    test(`each item is what its own call gives or throws (${label})`, async () => {
      assert.ok(server !== undefined);
      const client = clientOf(server);
      try {
        const plain = await client.newGame({ numPlayers: 2, seed: 42, firstSeat: 0 });
        const after = await client.apply(plain.game, takeTwo("red"));
        const sealed = await client.createSealed(gameConfig({ numPlayers: 2 }), { seat: 0 });
        const acting = actingSeat(sealed.view);
        const sealedMove = (await client.legalActions(sealed, { seat: acting }))[0]!;
        const requests: Request[] = [
          { stateSource: { case: "state", value: after.state }, action: takeTwo("blue"), includeLegalActions: true },
          { stateSource: { case: "state", value: after.state }, action: takeTwo("red") }, // a pile of 2: refused
          {
            stateSource: { case: "sealedState", value: sealed.token },
            action: sealedMove.action,
            seatKey: sealed.seatKeys.get(acting)!,
          },
          { stateSource: { case: "sealedState", value: sealed.token }, action: sealedMove.action }, // no key
          { action: takeTwo("green") }, // no state
        ];
        const results = await client.applyBatch(requests);
        assert.deepEqual(
          results.map((result) => (result instanceof EngineError ? result.constructor : "response")),
          ["response", RuleRejected, "response", PermissionDenied, InvalidRequest],
        );
        for (const [index, result] of results.entries()) {
          const own = await alone(server, requests[index]!);
          if (result instanceof EngineError) {
            const expected = fromConnectError(own);
            assert.equal(result.constructor, expected.constructor);
            assert.deepEqual(
              [result.code, result.reason, result.domain, result.metadata, result.fieldViolations, result.rawMessage],
              [
                expected.code,
                expected.reason,
                expected.domain,
                expected.metadata,
                expected.fieldViolations,
                expected.rawMessage,
              ],
            );
            assert.equal(result.message, expected.message);
          } else if (index === 0) {
            assert.deepEqual(result, own); // a plain move: the same response (a token is sealed afresh each call)
          }
        }
        const refused = results[1] as RuleRejected;
        assert.equal(refused.reason, "PILE_BELOW_FOUR");
        assert.deepEqual(
          refused.fieldViolations.map((violation) => violation.field),
          ["action.take_two_gems.color"],
        );
      } finally {
        client.close();
      }
    });
  }

  test("more items than the engine takes are refused as a whole, and a batch reads back through outcome", async () => {
    assert.ok(server !== undefined);
    const client = CLIENTS[0]!.client(server);
    try {
      const limit = (await client.getCatalog()).limits?.maxBatchItems ?? 0;
      assert.ok(limit > 0, "the catalog publishes the bound");
      const game = await client.newGame({ numPlayers: 2, seed: 1 });
      const item: Request = { stateSource: { case: "state", value: game.state }, action: takeTwo("red") };
      await assert.rejects(client.applyBatch(Array.from({ length: limit + 1 }, () => item)), (error) => {
        assert.ok(error instanceof InvalidRequest);
        assert.equal(error.reason, "BATCH_TOO_LARGE");
        assert.deepEqual(error.metadata, { items: String(limit + 1), limit: String(limit) });
        return true;
      });
      const response = await client.batchRequest({ requests: [item, item] });
      assert.equal(response.results.length, 2);
      assert.ok(response.results.every((result) => !(outcome(result) instanceof EngineError)));
    } finally {
      client.close();
    }
  });
});
