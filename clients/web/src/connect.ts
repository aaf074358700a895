/**
 * The `Engine` the page uses, over the TypeScript client (Connect protocol, same origin):
 * every game call sends and receives the sealed token, never a plain state.
 */
import type { EngineClient, SealedResult } from "splendor-engine-client";
import type { Engine, SealedTurn } from "./engine.js";

function turnOf(result: SealedResult): SealedTurn {
  return {
    token: result.token,
    view: result.view,
    events: result.events,
    legal: result.legalActions,
    applied: result.applied,
  };
}

export function connectEngine(client: EngineClient): Engine {
  return {
    catalog: () => client.getCatalog(),
    create: async (config, seat) => turnOf(await client.createSealed(config, { seat })),
    play: async (token, action, seat) =>
      turnOf(await client.applySealed(token, action, { seat, includeLegalActions: true })),
    // No seat: the answer is a spectator's view, so a bot's hidden cards never reach the page.
    bot: async (token, move) => turnOf(await client.applySealed(token, move)),
    view: async (token, seat) => (await client.viewSealed(token, { seat })).view,
    redact: async (token, events, seat) => (await client.viewSealed(token, { seat, events })).events,
    legal: (token, seat) => client.legalActions(token, { seat }),
    replay: async (config, actions, seat) => turnOf(await client.replaySealed(config, actions, { seat })),
  };
}
