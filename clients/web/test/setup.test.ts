/** Deep links and the setup they start. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Module } from "splendor-engine-client";
import {
  botName,
  botSeed,
  linkOf,
  MODULES,
  moduleValues,
  setupFromLink,
  SetupError,
  strongestPolicy,
} from "../src/setup.js";

const POLICIES = ["random", "greedy", "ismcts"];

test("the issue's deep link: three players, the Orient, a human and two of the strongest bot", () => {
  const setup = setupFromLink("?players=3&module=orient&seats=human,bot,bot", POLICIES);
  assert.ok(setup !== undefined);
  assert.equal(setup.players, 3);
  assert.deepEqual(setup.seats, ["human", "ismcts", "ismcts"]);
  assert.deepEqual(moduleValues(setup), [Module.ORIENT]);
  assert.equal(setup.publicSeed, undefined, "no seed in the link: the engine draws the deal's seed");
  assert.equal(linkOf(setup), "?players=3&module=orient&seats=human%2Cismcts%2Cismcts");
});

test("missing seats are a human first, then bots; a public seed, a delay and a module name with dashes are read", () => {
  const setup = setupFromLink(
    "?players=4&seats=greedy&seed=18446744073709551615&delay=0&module=trading-posts",
    POLICIES,
  );
  assert.deepEqual(setup?.seats, ["greedy", "ismcts", "ismcts", "ismcts"]);
  assert.equal(setup?.publicSeed, 18446744073709551615n);
  assert.equal(setup?.delayMs, 0);
  assert.deepEqual(moduleValues(setup!), [Module.TRADING_POSTS]);
});

test("no players and no seats: no game (the setup form is shown)", () => {
  assert.equal(setupFromLink("", POLICIES), undefined);
  assert.equal(setupFromLink("?module=cities", POLICIES), undefined);
});

test("a player count out of range goes to the engine, which explains the refusal", () => {
  assert.equal(setupFromLink("?players=7", POLICIES)?.seats.length, 7);
});

test("an unknown seat, module or seed is explained in words", () => {
  assert.throws(
    () => setupFromLink("?seats=human,wizard", POLICIES),
    (error: unknown) => {
      assert.ok(error instanceof SetupError);
      assert.match(error.message, /"wizard" is neither human nor a bot \(bot, random, greedy, ismcts\)/);
      return true;
    },
  );
  assert.throws(() => setupFromLink("?players=2&module=dragons", POLICIES), /unknown module "dragons"/);
  assert.throws(() => setupFromLink("?players=2&seed=abc", POLICIES), /seed must be a whole number/);
  assert.throws(() => setupFromLink("?players=2&seed=-1", POLICIES), /seed must be a whole number, not "-1"/);
  assert.throws(() => setupFromLink("?players=2&seed=", POLICIES), /seed must be a whole number, not ""/);
  assert.throws(() => setupFromLink("?players=2&seed=18446744073709551616", POLICIES), /at most 18446744073709551615/);
  assert.throws(() => setupFromLink("?players=two", POLICIES), /players must be a whole number/);
});

test("the strongest policy is the catalog's last (it lists them weakest first)", () => {
  assert.equal(strongestPolicy(POLICIES), "ismcts");
  assert.equal(strongestPolicy(["random", "greedy"]), "greedy");
  assert.equal(strongestPolicy([]), "random");
});

test("a policy the engine registered is a seat of a link once the catalog lists it, with no edit of the page", () => {
  const registered = [...POLICIES, "lowest_id"];
  assert.deepEqual(setupFromLink("?players=3&seats=human,lowest_id,bot", registered)?.seats, [
    "human",
    "lowest_id",
    "lowest_id",
  ]);
  assert.throws(
    () => setupFromLink("?players=2&seats=human,lowest_id", POLICIES),
    /seat 2: "lowest_id" is neither human nor a bot \(bot, random, greedy, ismcts\)/,
  );
});

test("a bot's seed is fresh for every move, a 64-bit value", () => {
  const seeds = new Set(Array.from({ length: 8 }, () => botSeed()));
  assert.equal(seeds.size, 8);
  for (const seed of seeds) assert.ok(seed >= 0n && seed < 1n << 64n);
});

test("people call the strongest bot the strong bot, whatever its name", () => {
  assert.deepEqual(
    POLICIES.map((policy) => botName(policy, POLICIES)),
    ["random", "greedy", "strong"],
  );
  assert.deepEqual(
    ["random", "greedy", "lowest_id"].map((policy) => botName(policy, ["random", "greedy", "lowest_id"])),
    ["random", "greedy", "strong"],
  );
  assert.equal(botName("random", ["random"]), "random");
});

test("the setup offers every module of the contract, each with its own label", () => {
  const contract = Object.values(Module).filter(
    (value): value is Module => typeof value === "number" && value !== Module.UNSPECIFIED,
  );
  const offered = MODULES.flatMap((module) => (module.value === undefined ? [] : [module.value]));
  assert.deepEqual([...offered].sort(), [...contract].sort());
  assert.equal(new Set(MODULES.map((module) => module.label)).size, MODULES.length);
});
