/**
 * Zero values survive the trip both ways: seat 0, turn 0, card 0 and action id 0 are values,
 * not absences (proto3 omits zeros on the wire; optional fields and oneofs keep their presence).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { reserve } from "../src/actions.js";
import { EngineError } from "../src/errors.js";
import { useEngine } from "./support/engine.js";
import { PLAIN_RUNS } from "./support/runs.js";

/** A seed whose deal shows card 0 face up (found once through the engine). */
const SEED_WITH_CARD_0_FACE_UP = 4;

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EngineError, String(error));
    return error.reason;
  }
  return "accepted";
}

for (const run of PLAIN_RUNS) {
  describe(`zero values (${run.label})`, () => {
    const engine = useEngine(run);

    test("seat 0 and turn 0 come back as 0", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: 1, firstSeat: 0 });
      assert.equal(game.state.firstSeat, 0);
      assert.equal(game.state.seat, 0);
      assert.equal(game.state.turn, 0);
      assert.equal((await client.listLegalActions(game.game)).seat, 0);
    });

    test("seat 0 and expected turn 0 are sent as values: refused when they are wrong", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: 1, firstSeat: 0 });
      const moved = await client.apply(game.game, 0, { seat: 0, expectedTurn: 0 });
      assert.equal(moved.state.seat, 1);
      assert.equal(await reasonOf(client.apply(moved.game, 0, { seat: 0 })), "NOT_YOUR_TURN");
      assert.equal(await reasonOf(client.apply(moved.game, 0, { expectedTurn: 0 })), "STALE_STATE");
    });

    test("action id 0 is listed and can be applied by its id", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: 1, firstSeat: 0 });
      const listed = (await client.legalActions(game.game)).find((legal) => legal.actionId === 0);
      assert.ok(listed !== undefined, "action id 0 is among the first legal actions");
      assert.equal(listed.action?.kind.case, "takeGems");
      const moved = await client.apply(game.game, 0);
      assert.ok(moved.events.some((event) => event.kind.case === "gemsTaken"));
    });

    test("card 0 can be reserved and shows in the reserved cards as card 0", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: SEED_WITH_CARD_0_FACE_UP, firstSeat: 0 });
      assert.ok(
        game.state.market.some((row) => row.slots.some((slot) => slot.cardId === 0)),
        "card 0 is face up",
      );
      const legal = await client.legalActions(game.game);
      assert.ok(
        legal.some((option) => option.action?.kind.case === "reserveCard" && option.action.kind.value.cardId === 0),
      );
      const moved = await client.apply(game.game, reserve(0));
      assert.deepEqual(
        moved.state.players[0]?.reserved.map((card) => card.cardId),
        [0],
      );
    });
  });
}
