/**
 * The `Engine` the page uses, over the TypeScript client (Connect JSON, same origin): every game
 * call sends and receives the sealed token, never a plain state. The page holds every seat's key
 * and hands the client, with each call, the key of the seat the call names or acts as.
 */
import type { EngineClient, SealedGame } from "splendor-engine-client";
import type { DealtGame, Engine, SealedTurn } from "./engine.js";

function turnOf(result: SealedGame): SealedTurn {
  return {
    token: result.token,
    view: result.view,
    events: result.events,
    legal: result.legalActions,
    applied: result.applied,
  };
}

/** A dealt or replayed game's keys in seat order. */
function dealtOf(result: SealedGame): DealtGame {
  const seats = result.view.players.length;
  return { ...turnOf(result), seatKeys: Array.from({ length: seats }, (_, seat) => result.seatKeys.get(seat) ?? "") };
}

export function connectEngine(client: EngineClient): Engine {
  return {
    catalog: () => client.getCatalog(),
    create: async (config, seat, publicDeal) => dealtOf(await client.createSealed(config, { seat, publicDeal })),
    play: async (token, action, as) =>
      turnOf(await client.applySealed(token, action, { seat: as.seat, seatKey: as.key, includeLegalActions: true })),
    // No seat: the answer is a spectator's view, so a bot's hidden cards never reach the page;
    // the key is the acting bot seat's, as the move acts for it.
    bot: async (token, move, key) => turnOf(await client.applySealed(token, move, { seatKey: key })),
    view: async (token, as) => (await client.viewSealed(token, { seat: as?.seat, seatKey: as?.key })).view,
    redactForSpectator: async (token, events) => (await client.viewSealed(token, { events })).events,
    legal: (token, as) => client.legalActions(token, { seat: as.seat, seatKey: as.key }),
    replay: async (config, actions, seat) => dealtOf(await client.replaySealed(config, actions, { seat })),
  };
}
