/**
 * Sealed games through the TypeScript client and the real engine: the client holds a token, a
 * seat's view and the seat keys, never a plain state; server-side bots move the other seats with
 * their seat's key; the seed revealed at the end replays the action log into a sealed game as any
 * seat sees it.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Action } from "../src/gen/splendor/v1/actions_pb.js";
import { gameConfig } from "../src/client.js";
import { actingSeat } from "../src/game.js";
import { useEngine } from "./support/engine.js";
import { RUNS } from "./support/runs.js";

const MAX_MOVES = 2_000;

// The runs' transports carry a token as well as a state; the first (gRPC) is enough here.
const run = RUNS[0]!;

describe("sealed games through the client", () => {
  const client = useEngine(run);

  test("seat 0 plays random legal moves against a server-side greedy bot until the game ends", async () => {
    const config = gameConfig({ numPlayers: 2, modules: ["orient"] });
    let game = await client().createSealed(config, { seat: 0 });
    assert.ok(game.token.length > 0, "a token, not a state");
    assert.equal(game.view.viewerSeat, 0);
    assert.ok(game.binding !== undefined && /^[0-9a-f]{32}$/.test(game.binding.gameId));
    const played: Action[] = [];
    let legal = await client().legalActions(game, { seat: 0 });
    for (let moves = 0; !game.finished; moves += 1) {
      assert.ok(moves < MAX_MOVES, "the game ends");
      const before: bigint = game.binding?.step ?? 0n;
      if (actingSeat(game.view) === 0) {
        if (legal.length === 0) legal = await client().legalActions(game, { seat: 0 });
        const choice = legal[moves % legal.length]!;
        game = await client().applySealed(game, choice, { seat: 0, includeLegalActions: true });
        legal = [...game.legalActions];
      } else {
        game = await client().applySealed(game, { policy: "greedy", seed: moves }); // with seat 1's key
        assert.equal(game.view.viewerSeat, undefined, "a bot's move comes back as a spectator's view");
        assert.equal(game.legalActions.length, 0);
        legal = [];
      }
      assert.ok(game.applied?.action !== undefined, "the response names the action applied");
      played.push(game.applied.action);
      assert.equal(game.binding?.step, before + 1n, "each action is one more step");
    }
    assert.equal(game.actingSeat, undefined);
    assert.ok(game.view.revealedSeed !== undefined, "the seed is revealed once the game is over");
    config.seed = game.view.revealedSeed;
    const replayed = await client().replaySealed(config, played, { seat: 1 });
    assert.equal(replayed.binding?.publicDeal, true, "a replay's deal came from a known seed");
    assert.equal(replayed.view.viewerSeat, 1);
    assert.ok(replayed.finished);
    assert.deepEqual(replayed.view.ranking, (await client().viewSealed(game, { seat: 1 })).view.ranking);
  });
});
