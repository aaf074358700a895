/**
 * Checklist "Adding a bot policy" (docs/architecture.md), the TypeScript client's side: a policy the engine
 * registered once (the tests' `lowest_id`, served by `python -m tests.checklists.servers`) is listed by
 * `botPolicies()` and plays the server's moves over every protocol, with no edit of the client; a name the
 * server does not list is refused, naming the ones it does.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { EngineClient, gameConfig } from "../src/client.js";
import { InvalidRequest } from "../src/errors.js";
import { connectTransport, grpcTransport } from "../src/node.js";
import { type EngineServer, startEngine } from "./support/server.js";

const POLICY = "lowest_id";

const PROTOCOLS = [
  { label: "gRPC", client: (server: EngineServer) => new EngineClient(grpcTransport(server.grpcAddress)) },
  { label: "Connect", client: (server: EngineServer) => new EngineClient(connectTransport(server.httpAddress)) },
] as const;

let server: EngineServer | undefined;
before(async () => {
  server = await startEngine("tests.checklists.servers");
});
after(async () => {
  await server?.stop();
});

for (const protocol of PROTOCOLS) {
  describe(`a policy registered in the engine, over ${protocol.label}`, () => {
    let client: EngineClient;
    before(() => {
      client = protocol.client(server!);
    });
    after(() => client.close());

    test("botPolicies() lists it, after the built-in ones", async () => {
      const policies = await client.botPolicies();
      assert.deepEqual(policies.slice(-1), [POLICY]);
      assert.ok(policies.includes("random") && policies.includes("greedy"));
    });

    test("it plays a sealed game's move: the legal action with the lowest id", async () => {
      const game = await client.createSealed(gameConfig({ numPlayers: 2 }));
      const seat = game.actingSeat!;
      const lowest = Math.min(...(await client.legalActions(game, { seat })).map((legal) => legal.actionId));
      const moved = await client.applySealed(game, { policy: POLICY, seed: 1 }, { seat });
      assert.equal(moved.applied?.actionId, lowest);
    });

    test("a name the server does not list is refused, naming the ones it does", async () => {
      const game = await client.createSealed(gameConfig({ numPlayers: 2 }));
      await assert.rejects(client.applySealed(game, { policy: "highest_id" }), (error: unknown) => {
        assert.ok(error instanceof InvalidRequest);
        assert.equal(error.reason, "INVALID_BOT_CHOICE");
        assert.match(error.rawMessage, /unknown bot policy 'highest_id': use one of random, greedy, ismcts, lowest_id/);
        return true;
      });
    });
  });
}
