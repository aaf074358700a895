/**
 * Full random games of the base game and of every module, 2 to 4 players, through the
 * TypeScript client and the real engine; each game's replay must give back its final state,
 * with one digest per action that a replay of a prefix of the log reproduces.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { equals } from "@bufbuild/protobuf";
import type { EngineClient } from "../src/client.js";
import { GameStateSchema } from "../src/gen/splendor/v1/state_pb.js";
import { playRandomGame, type PlayedGame } from "./support/play.js";
import { useEngine } from "./support/engine.js";
import { RUNS } from "./support/runs.js";

const PLAYER_COUNTS = [2, 3, 4] as const;

/** Each module, the part of the state it adds, and an event only its rules emit. */
const MODULES = [
  { module: "cities", stateField: "cities", event: "cityClaimed" },
  { module: "trading_posts", stateField: "tradingPosts", event: "shieldPlaced" },
  { module: "strongholds", stateField: "strongholds", event: "strongholdPlaced" },
  { module: "orient", stateField: "orient", event: "cardPaired" },
] as const;

async function checkReplay(client: EngineClient, played: PlayedGame): Promise<void> {
  const replay = await client.replay(played.config, played.actions);
  assert.ok(equals(GameStateSchema, replay.state, played.final.state), "the replay ends in the state the game reached");
  assert.equal(replay.stateDigests.length, played.actions.length, "one digest per action");
  for (const digest of replay.stateDigests) assert.match(digest, /^[0-9a-f]{64}$/);
  const half = Math.floor(played.actions.length / 2);
  const prefix = await client.replay(played.config, played.actions.slice(0, half));
  assert.deepEqual(
    prefix.stateDigests,
    replay.stateDigests.slice(0, half),
    "a replay of a prefix gives the same digests",
  );
}

for (const run of RUNS) {
  describe(`full random games (${run.label})`, () => {
    const engine = useEngine(run);

    for (const numPlayers of PLAYER_COUNTS) {
      test(`the base game with ${numPlayers} players plays to its end and replays to the same state`, async () => {
        const played = await playRandomGame(engine(), { numPlayers, seed: 100 + numPlayers }, numPlayers);
        assert.equal(played.final.state.players.length, numPlayers);
        assert.ok(played.final.state.ranking.length === numPlayers, "a finished game ranks every seat");
        await checkReplay(engine(), played);
      });
    }

    for (const { module, stateField, event } of MODULES) {
      test(`${module}: games with 2, 3 and 4 players play to their end, replay, and use the module's rules`, async () => {
        const seen = new Set<string>();
        for (const numPlayers of PLAYER_COUNTS) {
          const played = await playRandomGame(
            engine(),
            { numPlayers, seed: 700 + numPlayers, modules: [module] },
            numPlayers,
          );
          assert.ok(played.final.state[stateField] !== undefined, `a ${module} game carries the module's state`);
          await checkReplay(engine(), played);
          for (const kind of played.eventKinds) seen.add(kind);
        }
        assert.ok(seen.has(event), `the ${module} games emitted ${event}: saw ${[...seen].join(", ")}`);
      });
    }
  });
}
