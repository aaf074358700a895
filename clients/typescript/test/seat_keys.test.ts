/**
 * Seat keys: which seat and key each sealed call sends (`seatFields`, no server), and through the
 * real engine a player's handle (a token and one key) that looks and acts as its seat only,
 * `PermissionDenied` for a missing or wrong key, server-drawn deals and public deals.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { gameConfig } from "../src/client.js";
import { InvalidRequest, PermissionDenied, RuleRejected, type EngineError } from "../src/errors.js";
import { GameViewSchema, type GameView } from "../src/gen/splendor/v1/view_pb.js";
import { type SealedHandle, seatFields } from "../src/seat_keys.js";
import { useEngine } from "./support/engine.js";
import { RUNS } from "./support/runs.js";

const KEYS = new Map([
  [0, "key-0"],
  [1, "key-1"],
  [2, "key-2"],
]);

function handle(seatKeys: ReadonlyMap<number, string>, seatToPlay = 2): SealedHandle {
  return { token: new Uint8Array([1, 2, 3]), view: create(GameViewSchema, { seat: seatToPlay }), seatKeys };
}

describe("the seat and key a sealed call sends", () => {
  test("a call naming a seat sends that seat's key", () => {
    assert.deepEqual(seatFields(handle(KEYS), { seat: 1 }, false), { seat: 1, seatKey: "key-1" });
    assert.deepEqual(seatFields(handle(KEYS), { seat: 0 }, true), { seat: 0, seatKey: "key-0" });
  });

  test("a move naming no seat sends the acting seat's key; a look naming none sends no key", () => {
    assert.deepEqual(seatFields(handle(KEYS, 2), {}, true), { seatKey: "key-2" });
    assert.deepEqual(seatFields(handle(KEYS, 2), {}, false), {});
  });

  test("a one-key handle names its own seat by default", () => {
    const mine = handle(new Map([[1, "key-1"]]));
    assert.deepEqual(seatFields(mine, {}, true), { seat: 1, seatKey: "key-1" });
    assert.deepEqual(seatFields(mine, {}, false), { seat: 1, seatKey: "key-1" });
    assert.deepEqual(seatFields(mine, { seat: 0 }, false), { seat: 0 }, "it holds no key of seat 0");
  });

  test("a given key wins, and a bare token sends only a given key", () => {
    assert.deepEqual(seatFields(handle(KEYS), { seat: 1, seatKey: "mine" }, false), { seat: 1, seatKey: "mine" });
    const token = new Uint8Array([9]);
    assert.deepEqual(seatFields(token, { seat: 1 }, true), { seat: 1 });
    assert.deepEqual(seatFields(token, {}, true), {});
    assert.deepEqual(seatFields(token, { seat: 1, seatKey: "k" }, true), { seat: 1, seatKey: "k" });
  });
});

async function refusal(call: Promise<unknown>): Promise<EngineError> {
  try {
    await call;
  } catch (error) {
    return error as EngineError;
  }
  assert.fail("the call was expected to fail");
}

function market(view: GameView): number[] {
  return view.market.flatMap((row) => row.slots.map((slot) => slot.cardId ?? -1));
}

describe("seat keys through the engine", () => {
  const client = useEngine(RUNS[0]!);

  test("a player's handle from a token and one key looks and acts as its seat only", async () => {
    let game = await client().createSealed(gameConfig({ numPlayers: 2, firstSeat: 0 }));
    assert.equal(game.seatKeys.size, 2);
    let mine = await client().join(game.token, { seat: 1, seatKey: game.seatKeys.get(1)! });
    assert.equal(mine.view.viewerSeat, 1);
    const notYours = await refusal(client().applySealed(mine, 0));
    assert.ok(notYours instanceof RuleRejected && notYours.reason === "NOT_YOUR_TURN", String(notYours));
    const missing = await refusal(client().viewSealed(mine, { seat: 0 }));
    assert.ok(missing instanceof PermissionDenied && missing.reason === "SEAT_KEY_MISSING", String(missing));
    assert.deepEqual(
      missing.fieldViolations.map(({ field }) => field),
      ["seat_key"],
    );
    const wrong = await refusal(client().applySealed(mine.token, 0, { seatKey: game.seatKeys.get(1)! }));
    assert.ok(wrong instanceof PermissionDenied && wrong.reason === "SEAT_KEY_INVALID", String(wrong));
    game = await client().applySealed(game, (await client().legalActions(game, { seat: 0 }))[0]!, { seat: 0 });
    mine = await client().join(game, { seat: 1 });
    assert.equal(mine.binding?.step, 1n, "a handle joined from a game keeps its binding");
    const moved = await client().applySealed(mine, (await client().legalActions(mine))[0]!);
    assert.equal(moved.view.viewerSeat, 1);
    assert.equal(moved.binding?.step, 2n);
    assert.deepEqual([...moved.seatKeys], [[1, game.seatKeys.get(1)]]);
  });

  test("a sealed deal comes from the server's seed unless a public deal is asked for", async () => {
    const refused = await refusal(client().createSealed(gameConfig({ numPlayers: 2, seed: 5 })));
    assert.ok(refused instanceof InvalidRequest && refused.reason === "SEED_NOT_ALLOWED", String(refused));
    const drawn = await client().createSealed(gameConfig({ numPlayers: 4 }));
    const again = await client().createSealed(gameConfig({ numPlayers: 4 }));
    assert.equal(drawn.binding?.publicDeal, false);
    assert.notDeepEqual(market(drawn.view), market(again.view), "64-bit seeds: twelve cards in order never recur");
    const config = gameConfig({ numPlayers: 4, seed: 2026 });
    const public1 = await client().createSealed(config, { publicDeal: true });
    const public2 = await client().createSealed(config, { publicDeal: true });
    assert.equal(public1.binding?.publicDeal, true);
    assert.deepEqual(market(public1.view), market(public2.view));
  });
});
