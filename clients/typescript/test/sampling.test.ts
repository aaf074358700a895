/**
 * Simulate and Determinize through the TypeScript client and the real engine, once per run (protocol and
 * holding): playouts from a game with server-side policies, and samples of what a seat cannot see. A sealed
 * game plays and samples from one seat's knowledge, with that seat's key.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { EngineClient } from "../src/client.js";
import { InvalidRequest, PermissionDenied } from "../src/errors.js";
import type { Game } from "../src/game.js";
import type { SealedGameLike } from "../src/seat_keys.js";
import { RUNS, type Run } from "./support/runs.js";
import { type EngineServer, startEngine } from "./support/server.js";

let server: EngineServer | undefined; // one engine for every run of this file
before(async () => {
  server = await startEngine();
});
after(async () => {
  await server?.stop();
});

async function dealt(client: EngineClient, run: Run): Promise<Game | SealedGameLike> {
  if (run.holding === "sealed") return client.createSealed((await client.newGame()).game.config!, { publicDeal: true });
  return (await client.newGame({ numPlayers: 3, seed: 5 })).game;
}

for (const run of RUNS) {
  describe(`sampling on the server (${run.label})`, () => {
    let opened: EngineClient | undefined;
    const client = (): EngineClient => (opened ??= run.client(server!));
    after(() => opened?.close());

    test("simulate plays every playout and sums them up", async () => {
      const game = await dealt(client(), run);
      const result = await client().simulate(game, {
        policies: { policy: "random", seed: 4 },
        playouts: 3,
        maxActions: 50,
        seed: 9,
        seat: 0,
      });
      assert.equal(result.outcomes.length, 3);
      assert.equal(result.summary?.playouts, 3);
      assert.ok(result.outcomes.every((outcome) => outcome.length > 0 && outcome.length <= 50));
    });

    test("simulate refuses a policy that searches, naming the ones it takes", async () => {
      const game = await dealt(client(), run);
      await assert.rejects(
        client().simulate(game, { policies: [{ policy: "ismcts" }], playouts: 1, seat: 0 }),
        (error: unknown) =>
          error instanceof InvalidRequest &&
          error.reason === "INVALID_BOT_CHOICE" &&
          /random or greedy/.test(error.message),
      );
    });

    test("determinize draws full states the seat cannot tell from the game", async () => {
      const game = await dealt(client(), run);
      const samples = await client().determinize(game, { seat: 1, count: 2, seed: 3 });
      assert.equal(samples.length, 2);
      for (const sample of samples) assert.equal(sample.players.length, "token" in game ? 2 : 3);
    });

    if (run.holding === "sealed") {
      test("a bare token samples nothing without the seat's key", async () => {
        const game = await dealt(client(), run);
        const token = (game as { token: Uint8Array }).token;
        await assert.rejects(
          client().determinize(token, { seat: 1, count: 1 }),
          (error: unknown) => error instanceof PermissionDenied && error.reason === "SEAT_KEY_MISSING",
        );
      });
    }
  });
}
