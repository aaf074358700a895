/** Whole random games through the client, plain or sealed, recording every action for the replay. */
import assert from "node:assert/strict";
import { asAction } from "../../src/actions.js";
import { RandomBot } from "../../src/bots.js";
import {
  type EngineClient,
  gameConfig,
  type GameResult,
  type NewGameOptions,
  type SealedGame,
} from "../../src/client.js";
import { actingSeat } from "../../src/game.js";
import type { Action } from "../../src/gen/splendor/v1/actions_pb.js";
import type { GameConfig } from "../../src/gen/splendor/v1/config_pb.js";
import type { Event } from "../../src/gen/splendor/v1/events_pb.js";

/** Far more turns than a random game takes: a game still running then never ends. */
const MAX_TURNS = 1000;

/** A finished game: its config, every action in order, and the last result. */
export interface PlayedGame<Result> {
  readonly config: GameConfig;
  readonly actions: readonly Action[];
  readonly final: Result;
  /** The event kinds seen along the way, for checks that a module's rules came into play. */
  readonly eventKinds: ReadonlySet<string>;
}

/** A sealed game played to its end, and the seat that made its last move (whose view `final` holds). */
export interface PlayedSealedGame extends PlayedGame<SealedGame> {
  readonly lastSeat: number;
}

function addKinds(kinds: Set<string>, events: readonly Event[]): void {
  for (const event of events) if (event.kind.case !== undefined) kinds.add(event.kind.case);
}

/** Play `options`' game to its end holding the full state, with a `RandomBot` seeded with `botSeed`, each move sent as the acting seat. */
export async function playRandomGame(
  client: EngineClient,
  options: NewGameOptions,
  botSeed: number,
): Promise<PlayedGame<GameResult>> {
  const config = gameConfig(options);
  const bot = new RandomBot(botSeed);
  const actions: Action[] = [];
  const eventKinds = new Set<string>();
  let result = await client.createGame(config);
  while (!result.finished) {
    assert.ok(result.state.turn < MAX_TURNS, `the game never ended (turn ${result.state.turn})`);
    const listed = await client.listLegalActions(result.game);
    assert.ok(listed.actions.length > 0, "a game in progress has a legal action");
    const choice = bot.choose(listed.actions);
    result = await client.apply(result.game, choice, { seat: listed.seat, expectedTurn: result.state.turn });
    addKinds(eventKinds, result.events);
    actions.push(asAction(choice));
  }
  return { config, actions, final: result, eventKinds };
}

/**
 * Play `options`' game to its end holding only the game token, views and seat keys, as a platform
 * that hands games to strangers does: the server draws the deal's seed (`options.seed` is not
 * sent), each seat in turn asks for its legal actions, a `RandomBot` seeded with `botSeed`
 * chooses, and the move is sent as that seat, with its key, which gets its own view back. The
 * config returned carries the seed the final view reveals, so it replays the game.
 */
export async function playSealedGame(
  client: EngineClient,
  options: NewGameOptions,
  botSeed: number,
): Promise<PlayedSealedGame> {
  const bot = new RandomBot(botSeed);
  const actions: Action[] = [];
  const eventKinds = new Set<string>();
  let result = await client.createSealed(gameConfig({ ...options, seed: 0 }));
  assert.equal(result.binding?.step, 0n, "a dealt game's token is at step 0");
  assert.equal(result.binding?.publicDeal, false, "the server drew the seed");
  assert.equal(result.seatKeys.size, options.numPlayers ?? 2, "one key per seat");
  assert.equal(result.view.revealedSeed, undefined, "the seed stays hidden while the game goes on");
  let lastSeat = -1;
  while (!result.finished) {
    assert.ok(result.view.turn < MAX_TURNS, `the game never ended (turn ${result.view.turn})`);
    const seat = actingSeat(result.view);
    const listed = await client.listLegalActions(result, { seat });
    assert.equal(listed.seat, seat, "the view names the seat that must act");
    const choice = bot.choose(listed.actions);
    const before = result;
    result = await client.applySealed(before, choice, { seat, expectedTurn: before.view.turn });
    assert.equal(result.view.viewerSeat, seat, "the answer is the mover's view");
    assert.equal(result.binding?.gameId, before.binding?.gameId, "every token of a game carries its id");
    assert.equal(result.binding?.step, BigInt(actions.length + 1), "each move is one step");
    addKinds(eventKinds, result.events);
    actions.push(asAction(choice));
    lastSeat = seat;
  }
  const seed = result.view.revealedSeed;
  assert.ok(seed !== undefined, "a finished game reveals its seed");
  return { config: gameConfig({ ...options, seed }), actions, final: result, eventKinds, lastSeat };
}
