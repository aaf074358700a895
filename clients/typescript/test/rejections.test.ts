/** Refusals through the real engine decode into the typed errors, with reason, metadata and fields. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code } from "@connectrpc/connect";
import { takeTwo } from "../src/actions.js";
import { DOMAIN, InvalidRequest, RuleRejected, EngineError } from "../src/errors.js";
import { RejectionReason } from "../src/gen/splendor/v1/errors_pb.js";
import { useEngine } from "./support/engine.js";
import { PLAIN_RUNS } from "./support/runs.js";

/** The error `promise` rejects with, which must be a `EngineError`. */
async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EngineError, `expected a EngineError, got ${String(error)}`);
    return error;
  }
  assert.fail("the call was accepted");
}

for (const run of PLAIN_RUNS) {
  describe(`refusals (${run.label})`, () => {
    const engine = useEngine(run);

    test("taking two from a pile of two is RuleRejected PILE_BELOW_FOUR with the turn, seat, colour and pile", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: 42, firstSeat: 0 });
      const after = await client.apply(game.game, takeTwo("red"));
      const error = await refusal(client.apply(after.game, takeTwo("red")));
      assert.ok(error instanceof RuleRejected);
      assert.equal(error.code, Code.FailedPrecondition);
      assert.equal(error.codeName, "FAILED_PRECONDITION");
      assert.equal(error.reason, "PILE_BELOW_FOUR");
      assert.equal(error.domain, DOMAIN);
      assert.equal(error.rejectionReason, RejectionReason.PILE_BELOW_FOUR);
      assert.deepEqual(error.metadata, { turn: "1", acting_seat: "1", color: "red", in_bank: "2" });
      assert.deepEqual(
        error.fieldViolations.map((violation) => violation.field),
        ["action.take_two_gems.color"],
      );
      assert.match(error.message, /^FAILED_PRECONDITION PILE_BELOW_FOUR: .*pile of 4/);
    });

    test("a refused move changes nothing: the same game still accepts a legal move", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: 42, firstSeat: 0 });
      const after = await client.apply(game.game, takeTwo("red"));
      await refusal(client.apply(after.game, takeTwo("red")));
      const next = await client.apply(after.game, takeTwo("blue"));
      assert.equal(next.state.turn, after.state.turn + 1);
    });

    test("five players is InvalidRequest INVALID_PLAYER_COUNT naming config.num_players", async () => {
      const error = await refusal(engine().newGame({ numPlayers: 5 }));
      assert.ok(error instanceof InvalidRequest);
      assert.equal(error.code, Code.InvalidArgument);
      assert.equal(error.reason, "INVALID_PLAYER_COUNT");
      assert.equal(error.rejectionReason, RejectionReason.INVALID_PLAYER_COUNT);
      assert.equal(error.metadata["num_players"], "5");
      assert.deepEqual(
        error.fieldViolations.map((violation) => violation.field),
        ["config.num_players"],
      );
    });

    test("a state that cannot arise in a game is InvalidRequest INVALID_STATE", async () => {
      const client = engine();
      const game = await client.newGame({ numPlayers: 2, seed: 3 });
      const forged = structuredClone(game.state);
      forged.bank = { ...forged.bank!, gold: forged.bank!.gold + 1 }; // one gold more than the game has
      const error = await refusal(client.legalActions(forged));
      assert.ok(error instanceof InvalidRequest);
      assert.equal(error.reason, "INVALID_STATE");
    });
  });
}
