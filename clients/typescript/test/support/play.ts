/** A whole random game through the client, recording every action for the replay. */
import assert from "node:assert/strict";
import { asAction } from "../../src/actions.js";
import { RandomBot } from "../../src/bots.js";
import { type EngineClient, gameConfig, type GameResult, type NewGameOptions } from "../../src/client.js";
import type { Action } from "../../src/gen/splendor/v1/actions_pb.js";
import type { GameConfig } from "../../src/gen/splendor/v1/config_pb.js";

/** Far more turns than a random game takes: a game still running then never ends. */
const MAX_TURNS = 1000;

/** A finished game: its config, every action in order, and the last result. */
export interface PlayedGame {
  readonly config: GameConfig;
  readonly actions: readonly Action[];
  readonly final: GameResult;
  /** The event kinds seen along the way, for checks that a module's rules came into play. */
  readonly eventKinds: ReadonlySet<string>;
}

/** Play `options`' game to its end with a `RandomBot` seeded with `botSeed`, each move sent as the acting seat. */
export async function playRandomGame(
  client: EngineClient,
  options: NewGameOptions,
  botSeed: number,
): Promise<PlayedGame> {
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
    for (const event of result.events) if (event.kind.case !== undefined) eventKinds.add(event.kind.case);
    actions.push(asAction(choice));
  }
  return { config, actions, final: result, eventKinds };
}
