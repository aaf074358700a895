/**
 * A program of a project that installed the packed `splendor-engine-client`: it imports the
 * package by name (its compiled JS, type-checked against its .d.ts files) and plays a whole sealed
 * game on the engine at `process.argv[2]`: seat 0 through a player's handle (the token and its
 * one key), seat 1 by the server's greedy bot with that seat's key. It prints one JSON line.
 */
import {
  actingSeat,
  EngineClient,
  gameConfig,
  PermissionDenied,
  RandomBot,
  type SealedGame,
} from "splendor-engine-client";
import { grpcTransport } from "splendor-engine-client/node";

const MAX_MOVES = 2_000;

async function main(address: string): Promise<void> {
  const client = new EngineClient(grpcTransport(address));
  try {
    const platform = await client.createSealed(gameConfig({ numPlayers: 2 }));
    const [key0, key1] = [platform.seatKeys.get(0) ?? "", platform.seatKeys.get(1) ?? ""];
    const mine = await client.join(platform.token, { seat: 0, seatKey: key0 }); // what a player is handed
    let denied = "";
    try {
      await client.viewSealed(mine, { seat: 1 });
    } catch (error) {
      if (error instanceof PermissionDenied) denied = error.reason;
    }
    const bot = new RandomBot(7);
    let game: SealedGame = mine;
    for (let moves = 0; !game.finished && moves < MAX_MOVES; moves += 1) {
      if (actingSeat(game.view) === 0) {
        const legal = await client.legalActions(game.token, { seat: 0, seatKey: key0 });
        game = await client.applySealed(game.token, bot.choose(legal), { seat: 0, seatKey: key0 });
      } else {
        game = await client.applySealed(game.token, { policy: "greedy", seed: moves }, { seatKey: key1 });
      }
    }
    const result = {
      finished: game.finished,
      steps: Number(game.binding?.step ?? 0n),
      ranking: game.view.ranking.length,
      denied,
    };
    console.log(JSON.stringify(result));
  } finally {
    client.close();
  }
}

await main(process.argv[2] ?? "");
