/**
 * Every transport of `node.ts` against a stand-in engine served by connect-node on a loopback
 * port (the real engine speaks gRPC only): requests arrive with their zero values, answers come
 * back with theirs, and a refusal decodes into the typed error — in binary and in JSON.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttp2Server, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { type ClosableTransport, EngineClient } from "../src/client.js";
import { RuleRejected } from "../src/errors.js";
import { BadRequestSchema, ErrorInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { EngineService } from "../src/gen/splendor/v1/engine_service_pb.js";
import { connectTransport, grpcTransport, grpcWebTransport } from "../src/node.js";

/** A stand-in engine: deals seat 0 at turn 0, lists action id 0, and refuses every move, echoing what it got. */
function standIn(router: ConnectRouter): void {
  router.service(EngineService, {
    createGame: (request) => ({ state: { config: request.config, seat: 0, turn: 0, firstSeat: 0 } }),
    listLegalActions: () => ({ seat: 0, actions: [{ actionId: 0, action: { kind: { case: "actionId", value: 0 } } }] }),
    applyAction: (request) => {
      const seen = (value: number | undefined): string => (value === undefined ? "absent" : String(value));
      const action = request.action?.kind;
      throw new ConnectError("only 2 left", Code.FailedPrecondition, undefined, [
        {
          desc: ErrorInfoSchema,
          value: {
            reason: "PILE_BELOW_FOUR",
            domain: "splendor.v1",
            metadata: {
              seat: seen(request.seat),
              expected_turn: seen(request.expectedTurn),
              action_id: action?.case === "actionId" ? String(action.value) : "absent",
            },
          },
        },
        { desc: BadRequestSchema, value: { fieldViolations: [{ field: "action", description: "only 2 left" }] } },
      ]);
    },
  });
}

interface Case {
  readonly label: string;
  readonly http2: boolean;
  readonly transport: (address: string) => ClosableTransport;
}

const CASES: readonly Case[] = [
  { label: "gRPC", http2: true, transport: (address) => grpcTransport(address) },
  { label: "Connect, binary, HTTP/1.1", http2: false, transport: (address) => connectTransport(address) },
  {
    label: "Connect, JSON, HTTP/1.1",
    http2: false,
    transport: (address) => connectTransport(address, { useBinaryFormat: false }),
  },
  {
    label: "Connect, binary, HTTP/2",
    http2: true,
    transport: (address) => connectTransport(address, { httpVersion: "2" }),
  },
  { label: "gRPC-Web, binary, HTTP/1.1", http2: false, transport: (address) => grpcWebTransport(address) },
  {
    label: "gRPC-Web, JSON, HTTP/1.1",
    http2: false,
    transport: (address) => grpcWebTransport(address, { useBinaryFormat: false }),
  },
];

for (const { label, http2, transport } of CASES) {
  describe(`transport: ${label}`, () => {
    let server: Server | Http2Server;
    let client: EngineClient;
    before(async () => {
      const handler = connectNodeAdapter({ routes: standIn });
      server = http2 ? createHttp2Server(handler) : createHttpServer(handler);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      client = new EngineClient(transport(`127.0.0.1:${(server.address() as AddressInfo).port}`));
    });
    after(async () => {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    });

    test("zero values come back as values", async () => {
      const game = await client.newGame({ numPlayers: 2, seed: 0, firstSeat: 0 });
      assert.equal(game.state.seat, 0);
      assert.equal(game.state.config?.firstSeat, 0, "an optional 0 keeps its presence");
      assert.equal(game.state.config?.seed, 0n);
      const listed = await client.listLegalActions(game.game);
      assert.equal(listed.seat, 0);
      assert.equal(listed.actions[0]?.actionId, 0);
    });

    test("a refusal decodes into RuleRejected, and the request's zero values arrived", async () => {
      const game = await client.newGame({ numPlayers: 2 });
      const error = await client.apply(game.game, 0, { seat: 0, expectedTurn: 0 }).then(
        () => assert.fail("the stand-in refuses every move"),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof RuleRejected, String(error));
      assert.equal(error.reason, "PILE_BELOW_FOUR");
      assert.deepEqual(error.metadata, { seat: "0", expected_turn: "0", action_id: "0" });
      assert.deepEqual(error.fieldViolations, [{ field: "action", description: "only 2 left" }]);
    });
  });
}
