/** The exported game record reads back as it was written, and a bad file is explained. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { actions, create, EndReason, gameConfig, GameViewSchema } from "splendor-engine-client";
import { RecordError, recordFromJson, recordToJson, replayableConfig } from "../src/record.js";

test("config, seats and actions survive the round trip, zero values and 64-bit seeds included", () => {
  const record = {
    config: gameConfig({ numPlayers: 3, seed: 18446744073709551615n, modules: ["strongholds"], firstSeat: 0 }),
    seats: ["human", "greedy", "ismcts"],
    actions: [actions.takeGems("white", "blue", "green"), actions.reserveFromDeck(0), actions.purchase(0)],
  };
  const text = recordToJson(record);
  const parsed = JSON.parse(text) as { config: { seed: string }; format: string };
  assert.equal(parsed.format, "splendor-web-record/1");
  assert.equal(parsed.config.seed, "18446744073709551615");
  const back = recordFromJson(text);
  assert.equal(back.config.seed, 18446744073709551615n);
  assert.equal(back.config.firstSeat, 0);
  assert.deepEqual(back.seats, record.seats);
  assert.deepEqual(
    back.actions.map((action) => action.kind.case),
    ["takeGems", "reserveFromDeck", "purchaseCard"],
  );
  assert.equal(back.actions[1]?.kind.case === "reserveFromDeck" && back.actions[1].kind.value.deck, 0);
});

test("a file that is not a record says why", () => {
  assert.throws(
    () => recordFromJson("not json"),
    (error: unknown) => error instanceof RecordError && /not JSON/.test(error.message),
  );
  assert.throws(() => recordFromJson('{"format": "other"}'), /not a splendor-web-record\/1 game record/);
  assert.throws(() => recordFromJson('{"format": "splendor-web-record/1"}'), /no list of actions/);
  assert.throws(
    () => recordFromJson('{"format": "splendor-web-record/1", "config": {}, "actions": [{"fly": {}}]}'),
    /does not match the contract/,
  );
});

test("a finished game's config takes the seed its final view reveals; a game still on has none", () => {
  const config = gameConfig({ numPlayers: 3, modules: ["orient"] });
  const going = create(GameViewSchema, {});
  assert.equal(replayableConfig(config, going), undefined);
  const over = create(GameViewSchema, {
    endReason: EndReason.FINAL_ROUND_COMPLETED,
    revealedSeed: 987654321987654321n,
  });
  const replayable = replayableConfig(config, over);
  assert.equal(replayable?.seed, 987654321987654321n);
  assert.equal(replayable?.numPlayers, 3);
  assert.deepEqual(replayable?.modules, config.modules);
  assert.equal(config.seed, 0n, "the game's own config is left as it was");
});
