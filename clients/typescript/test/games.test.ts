/**
 * Full random games of the base game and of every module, 2 to 4 players, through the
 * TypeScript client and the real engine, once per run (protocol and holding, see `GAME_RUNS`).
 * A plain game's replay must give back its final state, with one digest per action that a
 * replay of a prefix reproduces; a sealed game's replay (sealed, as the same seat) must give
 * back the same view at the same step, and the same spectator's view.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { equals } from "@bufbuild/protobuf";
import type { EngineClient, GameResult, NewGameOptions } from "../src/client.js";
import { GameStateSchema, type GameState } from "../src/gen/splendor/v1/state_pb.js";
import { GameViewSchema, type GameView } from "../src/gen/splendor/v1/view_pb.js";
import { type PlayedGame, type PlayedSealedGame, playRandomGame, playSealedGame } from "./support/play.js";
import { useEngine } from "./support/engine.js";
import { GAME_RUNS, type Holding } from "./support/runs.js";

const PLAYER_COUNTS = [2, 3, 4] as const;

/** Each module, the part of the state it adds, and an event only its rules emit. */
const MODULES = [
  { module: "cities", stateField: "cities", event: "cityClaimed" },
  { module: "trading_posts", stateField: "tradingPosts", event: "shieldPlaced" },
  { module: "strongholds", stateField: "strongholds", event: "strongholdPlaced" },
  { module: "orient", stateField: "orient", event: "cardPaired" },
] as const;

async function checkReplay(client: EngineClient, played: PlayedGame<GameResult>): Promise<void> {
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
  const lean = await client.replay(played.config, played.actions, { stateDigests: false, events: false });
  assert.ok(equals(GameStateSchema, lean.state, played.final.state), "a lean replay ends in the same state");
  assert.equal(lean.stateDigests.length, 0, "no digests when left out");
  assert.equal(lean.events.length, 0, "no events when left out");
  assert.ok(replay.events.length > played.actions.length, "the full replay carries the events");
}

async function checkSealedReplay(client: EngineClient, played: PlayedSealedGame): Promise<void> {
  const { final } = played;
  const replay = await client.replaySealed(played.config, played.actions, { seat: played.lastSeat });
  assert.ok(equals(GameViewSchema, replay.view, final.view), "the replay shows the last mover what the game did");
  assert.equal(replay.binding?.step, final.binding?.step, "the replay's token is at the game's step");
  assert.equal(replay.binding?.step, BigInt(played.actions.length));
  assert.equal(replay.binding?.turn, final.binding?.turn);
  assert.notEqual(replay.binding?.gameId, final.binding?.gameId, "a replay is a new game");
  const spectator = await client.replaySealed(played.config, played.actions);
  const watched = await client.viewSealed(final.token);
  assert.ok(equals(GameViewSchema, spectator.view, watched.view), "a spectator sees the replay as the game");
  assert.equal(spectator.view.viewerSeat, undefined);
}

/** Play a game to its end holding it as `holding` says, check its replay, and give its final position. */
async function playAndReplay(
  client: EngineClient,
  holding: Holding,
  options: NewGameOptions,
  botSeed: number,
): Promise<{ final: GameState | GameView; eventKinds: ReadonlySet<string> }> {
  if (holding === "plain") {
    const played = await playRandomGame(client, options, botSeed);
    await checkReplay(client, played);
    return { final: played.final.state, eventKinds: played.eventKinds };
  }
  const played = await playSealedGame(client, options, botSeed);
  await checkSealedReplay(client, played);
  return { final: played.final.view, eventKinds: played.eventKinds };
}

for (const run of GAME_RUNS) {
  describe(`full random games (${run.label})`, () => {
    const engine = useEngine(run);

    for (const numPlayers of PLAYER_COUNTS) {
      test(`the base game with ${numPlayers} players plays to its end and replays to the same position`, async () => {
        const { final } = await playAndReplay(
          engine(),
          run.holding,
          { numPlayers, seed: 100 + numPlayers },
          numPlayers,
        );
        assert.equal(final.players.length, numPlayers);
        assert.equal(final.ranking.length, numPlayers, "a finished game ranks every seat");
      });
    }

    for (const { module, stateField, event } of MODULES) {
      test(`${module}: games with 2, 3 and 4 players play to their end, replay, and use the module's rules`, async () => {
        const seen = new Set<string>();
        for (const numPlayers of PLAYER_COUNTS) {
          const options = { numPlayers, seed: 700 + numPlayers, modules: [module] };
          const { final, eventKinds } = await playAndReplay(engine(), run.holding, options, numPlayers);
          assert.ok(final[stateField] !== undefined, `a ${module} game carries the module's state`);
          for (const kind of eventKinds) seen.add(kind);
        }
        assert.ok(seen.has(event), `the ${module} games emitted ${event}: saw ${[...seen].join(", ")}`);
      });
    }
  });
}
