/**
 * A random bot: it picks one of the legal actions the engine listed, so it needs no rules of
 * its own. Seeded, so a game it plays can be played again.
 *
 *     const bot = new RandomBot(1);
 *     const choice = bot.choose(await client.legalActions(game));
 */
import type { LegalAction } from "./gen/splendor/v1/actions_pb.js";

/** Chooses one of the legal actions. */
export interface Bot {
  /** One of `legalActions`, which is never empty. */
  choose(legalActions: readonly LegalAction[]): LegalAction;
}

/** Picks uniformly at random among the legal actions, pending decisions included. */
export class RandomBot implements Bot {
  private next: () => number;

  /** `seed`: any 32-bit integer; the same seed makes the same choices. */
  constructor(seed: number = Date.now()) {
    this.next = mulberry32(seed);
  }

  choose(legalActions: readonly LegalAction[]): LegalAction {
    const choice = legalActions[Math.floor(this.next() * legalActions.length)];
    if (choice === undefined) throw new RangeError("no legal action to choose from");
    return choice;
  }
}

/** Mulberry32: a small, fast 32-bit generator of floats in [0, 1); plenty for picking moves. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
