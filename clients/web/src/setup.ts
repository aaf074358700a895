/**
 * A game's setup: seats (human or a named server-side bot), players and module, from the
 * setup form or a deep link such as `/?players=3&module=orient&seats=human,bot,bot`.
 *
 * Link parameters: `players` (2-4), `module` (`none`, `cities`, `trading_posts`,
 * `strongholds`, `orient`), `seats` (comma-separated `human`, `bot` — the strongest bot — or a
 * policy name such as `random`, `greedy`, `ismcts`), optional `delay` (milliseconds between
 * bot moves), `iterations` (for search bots) and `seed`.
 *
 * Without `seed` the engine draws the deal's seed and reveals it only once the game is over.
 * `seed` (decimal) asks for a public deal from that seed instead: anyone who knows it knows
 * every deck order, so the page says so on screen. It is for tests and for replaying known deals.
 */
import { Module } from "splendor-engine-client";

export const MODULES: readonly { readonly key: string; readonly label: string; readonly value?: Module }[] = [
  { key: "none", label: "None (the base game)" },
  { key: "cities", label: "The Cities", value: Module.CITIES },
  { key: "trading_posts", label: "The Trading Posts", value: Module.TRADING_POSTS },
  { key: "strongholds", label: "The Strongholds", value: Module.STRONGHOLDS },
  { key: "orient", label: "The Orient", value: Module.ORIENT },
];

export const HUMAN = "human";

export interface Setup {
  readonly players: number;
  readonly module: string;
  /** Per seat: `"human"` or a bot policy name. */
  readonly seats: readonly string[];
  /** A public deal's seed; undefined (the default) for a deal from a seed the engine draws. */
  readonly publicSeed: bigint | undefined;
  readonly delayMs: number;
  readonly iterations: number;
}

/** What people call a policy: the strongest (the catalog lists them weakest first) is the "strong" one. */
export function botName(policy: string, policies: readonly string[]): string {
  return policies.length > 1 && policy === strongestPolicy(policies) ? "strong" : policy;
}

/** The strongest of the server's bot policies: the catalog's last. */
export function strongestPolicy(policies: readonly string[]): string {
  return policies[policies.length - 1] ?? "random";
}

/** A fresh seed for a server-side bot's move, never derived from the game's seed. */
export function botSeed(): bigint {
  const words = new BigUint64Array(1);
  crypto.getRandomValues(words);
  return words[0]!;
}

export class SetupError extends Error {}

/** The setup a link asks for, `undefined` when it asks for none (then the form is shown). */
export function setupFromLink(search: string, policies: readonly string[]): Setup | undefined {
  const params = new URLSearchParams(search);
  if (!params.has("players") && !params.has("seats")) return undefined;
  const seatWords = (params.get("seats") ?? "")
    .split(",")
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== "");
  const players = params.has("players") ? Number(params.get("players")) : seatWords.length;
  if (!Number.isInteger(players))
    throw new SetupError(`players must be a whole number, not "${params.get("players")}"`);
  const seats = Array.from({ length: Math.max(players, 0) }, (_, seat) => {
    const word = seatWords[seat] ?? (seat === 0 ? HUMAN : "bot");
    if (word === HUMAN) return HUMAN;
    if (word === "bot") return strongestPolicy(policies);
    if (!policies.includes(word))
      throw new SetupError(
        `seat ${seat + 1}: "${word}" is neither human nor a bot (${["bot", ...policies].join(", ")})`,
      );
    return word;
  });
  const module = (params.get("module") ?? "none").toLowerCase().replace(/-/g, "_");
  if (!MODULES.some((entry) => entry.key === module))
    throw new SetupError(`unknown module "${module}": use ${MODULES.map((entry) => entry.key).join(", ")}`);
  const seedText = params.get("seed");
  if (seedText !== null && !/^[0-9]{1,20}$/.test(seedText))
    throw new SetupError(`seed must be a whole number, not "${seedText}"`);
  const publicSeed = seedText === null ? undefined : BigInt(seedText);
  if (publicSeed !== undefined && publicSeed >= 1n << 64n)
    throw new SetupError(`seed must be at most 18446744073709551615, not ${seedText}`);
  const delayMs = Number(params.get("delay") ?? 600);
  const iterations = Number(params.get("iterations") ?? 0);
  return {
    players,
    module,
    seats,
    publicSeed,
    delayMs: Number.isFinite(delayMs) && delayMs >= 0 ? delayMs : 600,
    iterations: Number.isInteger(iterations) && iterations >= 0 ? iterations : 0,
  };
}

/** The link that starts this setup again (without a public seed, so a new deal). */
export function linkOf(setup: Setup): string {
  const params = new URLSearchParams({
    players: String(setup.players),
    module: setup.module,
    seats: setup.seats.join(","),
  });
  return `?${params.toString()}`;
}

export function moduleValues(setup: Setup): Module[] {
  const value = MODULES.find((entry) => entry.key === setup.module)?.value;
  return value === undefined ? [] : [value];
}
