/** The client's helpers that need no engine: configs, modules, colours, addresses and the random bot. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { baseUrl } from "../src/address.js";
import { RandomBot } from "../src/bots.js";
import { gameConfig, moduleValue } from "../src/client.js";
import { color, colorName, countsOf, tokenCounts } from "../src/colors.js";
import { LegalActionSchema } from "../src/gen/splendor/v1/actions_pb.js";
import { Color, GemCountsSchema } from "../src/gen/splendor/v1/common_pb.js";
import { Module } from "../src/gen/splendor/v1/config_pb.js";

test("gameConfig carries the seed as a uint64 bigint and leaves the first seat absent unless given", () => {
  const config = gameConfig({ numPlayers: 3, seed: "18446744073709551615", modules: ["orient"] });
  assert.equal(config.seed, 18446744073709551615n);
  assert.equal(config.firstSeat, undefined);
  assert.deepEqual(config.modules, [Module.ORIENT]);
  assert.equal(gameConfig({ firstSeat: 0 }).firstSeat, 0);
});

test("moduleValue takes names in the forms people write them, and refuses unknown ones", () => {
  assert.equal(moduleValue("trading_posts"), Module.TRADING_POSTS);
  assert.equal(moduleValue("Trading-Posts"), Module.TRADING_POSTS);
  assert.equal(moduleValue("MODULE_CITIES"), Module.CITIES);
  assert.equal(moduleValue(Module.STRONGHOLDS), Module.STRONGHOLDS);
  assert.throws(() => moduleValue("dragons"), /use one of cities, trading_posts, strongholds, orient/);
  assert.throws(() => moduleValue(Module.UNSPECIFIED), RangeError);
});

test("colours and counts convert both ways", () => {
  assert.equal(color("gold"), Color.GOLD);
  assert.equal(colorName(Color.BLACK), "black");
  assert.equal(colorName(9 as Color), "colour 9");
  assert.deepEqual(countsOf(tokenCounts({ red: 2, gold: 1 })), {
    white: 0,
    blue: 0,
    green: 0,
    red: 2,
    black: 0,
    gold: 1,
  });
  assert.equal(countsOf(create(GemCountsSchema, { blue: 4 })).blue, 4);
});

test("addresses become base URLs; URLs stay as they are", () => {
  assert.equal(baseUrl("127.0.0.1:50051"), "http://127.0.0.1:50051");
  assert.equal(baseUrl("https://engine.example/api/"), "https://engine.example/api");
});

test("RandomBot picks only listed actions, the same ones for the same seed, and refuses an empty list", () => {
  const options = Array.from({ length: 20 }, (_, actionId) => create(LegalActionSchema, { actionId }));
  const picks = (seed: number): number[] => {
    const bot = new RandomBot(seed);
    return Array.from({ length: 50 }, () => bot.choose(options).actionId);
  };
  assert.deepEqual(picks(7), picks(7));
  assert.notDeepEqual(picks(7), picks(8));
  assert.ok(new Set(picks(7)).size > 5, "the picks spread over the options");
  assert.throws(() => new RandomBot(1).choose([]), RangeError);
});
