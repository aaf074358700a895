/**
 * Every transport of `node.ts`, in binary and in JSON: requests arrive with their zero values,
 * answers come back with theirs, and a refusal decodes into the typed error. Each runs against
 * a stand-in engine served by connect-node on a loopback port, which echoes what it got and
 * speaks HTTP/2 too; each the real engine speaks (gRPC on its gRPC port, Connect and gRPC-Web
 * over HTTP/1.1 on its HTTP port) runs against the real engine as well, sealed games included.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttp2Server, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { takeTwo } from "../src/actions.js";
import { type ClosableTransport, EngineClient, gameConfig } from "../src/client.js";
import { RuleRejected } from "../src/errors.js";
import { BadRequestSchema, ErrorInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { EngineService } from "../src/gen/splendor/v1/engine_service_pb.js";
import { connectTransport, grpcTransport, grpcWebTransport } from "../src/node.js";
import { type EngineServer, startEngine } from "./support/server.js";

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
  /** The real engine's port that speaks this transport; undefined when none does (it serves HTTP/1.1 only). */
  readonly enginePort: "grpc" | "http" | undefined;
  readonly transport: (address: string) => ClosableTransport;
}

const CASES: readonly Case[] = [
  { label: "gRPC", http2: true, enginePort: "grpc", transport: (address) => grpcTransport(address) },
  {
    label: "Connect, binary, HTTP/1.1",
    http2: false,
    enginePort: "http",
    transport: (address) => connectTransport(address),
  },
  {
    label: "Connect, JSON, HTTP/1.1",
    http2: false,
    enginePort: "http",
    transport: (address) => connectTransport(address, { useBinaryFormat: false }),
  },
  {
    label: "Connect, binary, HTTP/2",
    http2: true,
    enginePort: undefined,
    transport: (address) => connectTransport(address, { httpVersion: "2" }),
  },
  {
    label: "gRPC-Web, binary, HTTP/1.1",
    http2: false,
    enginePort: "http",
    transport: (address) => grpcWebTransport(address),
  },
  {
    label: "gRPC-Web, JSON, HTTP/1.1",
    http2: false,
    enginePort: "http",
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

/** The error `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail("the call was accepted"),
    (caught: unknown) => caught,
  );
}

describe("transports against the real engine", () => {
  let server: EngineServer | undefined;
  before(async () => {
    server = await startEngine();
  });
  after(async () => {
    await server?.stop();
  });

  for (const { label, enginePort, transport } of CASES) {
    if (enginePort === undefined) continue;
    describe(label, () => {
      let client: EngineClient;
      before(() => {
        if (server === undefined) throw new Error("the engine has not started");
        client = new EngineClient(transport(enginePort === "grpc" ? server.grpcAddress : server.httpAddress));
      });
      after(() => client.close());

      test("zero values come back as values, and seat 0 and expected turn 0 arrive as values", async () => {
        const game = await client.newGame({ numPlayers: 2, seed: 0, firstSeat: 0 });
        assert.equal(game.state.seat, 0);
        assert.equal(game.state.turn, 0);
        assert.equal(game.state.config?.firstSeat, 0, "an optional 0 keeps its presence");
        assert.equal(game.state.config?.seed, 0n);
        assert.equal((await client.listLegalActions(game.game)).seat, 0);
        const moved = await client.apply(game.game, 0, { seat: 0, expectedTurn: 0 });
        const notYours = await refusal(client.apply(moved.game, 0, { seat: 0 }));
        assert.ok(notYours instanceof RuleRejected && notYours.reason === "NOT_YOUR_TURN", String(notYours));
        const stale = await refusal(client.apply(moved.game, 0, { expectedTurn: 0 }));
        assert.ok(stale instanceof RuleRejected && stale.reason === "STALE_STATE", String(stale));
      });

      test("a refusal decodes into RuleRejected with its metadata and field", async () => {
        const game = await client.newGame({ numPlayers: 2, seed: 42, firstSeat: 0 });
        const after = await client.apply(game.game, takeTwo("red"));
        const error = await refusal(client.apply(after.game, takeTwo("red")));
        assert.ok(error instanceof RuleRejected, String(error));
        assert.equal(error.reason, "PILE_BELOW_FOUR");
        assert.deepEqual(error.metadata, { turn: "1", acting_seat: "1", color: "red", in_bank: "2" });
        assert.deepEqual(
          error.fieldViolations.map((violation) => violation.field),
          ["action.take_two_gems.color"],
        );
      });

      test("a sealed game travels as a token: seat 0's move at step 0 gives the next token, bound to step 1", async () => {
        const dealt = await client.createSealed(gameConfig({ numPlayers: 2, seed: 0, firstSeat: 0 }), { seat: 0 });
        assert.equal(dealt.view.viewerSeat, 0);
        assert.equal(dealt.binding?.step, 0n);
        const moved = await client.applySealed(dealt, 0, { seat: 0, expectedTurn: 0 });
        assert.equal(moved.binding?.step, 1n);
        assert.equal(moved.binding?.gameId, dealt.binding?.gameId);
        assert.equal(moved.applied?.actionId, 0);
        assert.equal(moved.actingSeat, 1);
      });
    });
  }
});
