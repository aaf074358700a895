/**
 * The token reader (`readTokenHeader`) and what a platform gets from one call a move, through the real engine:
 * the header of every token the engine sealed reads as the binding it returned; on the engine's own test vectors
 * (tests/sealing/token_vectors.py: every format version, mutated) it reads or refuses exactly as the engine does;
 * `expectedStep` refuses a rewound token; `audiences` returns every audience's view; expiry is set at the deal.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { gameConfig } from "../src/client.js";
import { RuleRejected, type EngineError } from "../src/errors.js";
import { actingSeat } from "../src/game.js";
import { readTokenHeader, TokenHeaderError } from "../src/tokens.js";
import { useEngine } from "./support/engine.js";
import { RUNS } from "./support/runs.js";

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const python = join(process.env["SPLENDOR_VENV"] ?? join(repoDir, ".venv"), "bin", "python");

interface Vector {
  readonly token: string;
  readonly reason?: string;
  readonly header?: {
    readonly version: number;
    readonly key_id: string;
    readonly game_id: string;
    readonly turn: number;
    readonly step: string;
    readonly public_deal: boolean;
    readonly acting_seat: number | null;
    readonly expires_at: string;
  };
}

function engineVectors(): Vector[] {
  const out = execFileSync(python, ["-m", "tests.sealing.token_vectors", "--count", "300", "--seed", "2"], {
    cwd: repoDir,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString()) as Vector[];
}

function bytesOf(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

async function refusal(call: Promise<unknown>): Promise<EngineError> {
  try {
    await call;
  } catch (error) {
    return error as EngineError;
  }
  assert.fail("the call was expected to fail");
}

describe("reading a token's header", () => {
  test("it reads or refuses each of the engine's vectors as the engine's own parser does", () => {
    const vectors = engineVectors();
    assert.ok(vectors.length > 300);
    for (const vector of vectors) {
      const token = bytesOf(vector.token);
      if (vector.reason !== undefined) {
        assert.throws(
          () => readTokenHeader(token),
          (error: unknown) => error instanceof TokenHeaderError && error.reason === vector.reason,
          vector.token.slice(0, 120),
        );
        continue;
      }
      const header = readTokenHeader(token);
      const expected = vector.header!;
      assert.deepEqual(
        {
          version: header.version,
          keyId: header.keyId,
          gameId: header.binding.gameId,
          turn: header.binding.turn,
          step: header.binding.step.toString(),
          publicDeal: header.binding.publicDeal,
          actingSeat: header.binding.actingSeat ?? null,
          expiresAt: header.binding.expiresAt.toString(),
        },
        {
          version: expected.version,
          keyId: expected.key_id,
          gameId: expected.game_id,
          turn: expected.turn,
          step: expected.step,
          publicDeal: expected.public_deal,
          actingSeat: expected.acting_seat,
          expiresAt: expected.expires_at,
        },
      );
    }
  });
});

describe("a platform's calls through the engine", () => {
  const client = useEngine(RUNS[0]!);

  test("every token's header reads as the binding the engine returned beside it", async () => {
    let game = await client().createSealed(gameConfig({ numPlayers: 3 }), { expiresInSeconds: 3600 });
    assert.ok(game.binding !== undefined && game.binding.expiresAt > 0n);
    for (let moves = 0; moves < 30 && !game.finished; moves += 1) {
      const header = readTokenHeader(game.token);
      assert.equal(header.version, 3);
      assert.deepEqual(header.binding, game.binding);
      assert.equal(header.binding.actingSeat, actingSeat(game.view));
      const seat = actingSeat(game.view);
      const legal = await client().legalActions(game, { seat });
      game = await client().applySealed(game, legal[moves % legal.length]!, { seat });
    }
    const joined = await client().join(game.token, { seat: 1, seatKey: game.seatKeys.get(1)! });
    assert.deepEqual(joined.binding, game.binding, "a bare token's binding, from its header");
  });

  test("expectedStep refuses a rewound token; audiences return every seat's view and a spectator's", async () => {
    const dealt = await client().createSealed(gameConfig({ numPlayers: 2 }));
    const seat = dealt.actingSeat!;
    const [first] = await client().legalActions(dealt, { seat });
    const moved = await client().applySealed(dealt, first!, { expectedStep: 0, audiences: "all" });
    assert.equal(moved.binding?.step, 1n);
    assert.equal(moved.applied?.actionId, first!.actionId);
    assert.deepEqual(
      moved.audienceViews.map((out) => out.seat),
      [0, 1, undefined],
    );
    for (const out of moved.audienceViews) {
      const looked = await client().viewSealed(moved, { seat: out.seat });
      assert.deepEqual(out.view, looked.view);
    }
    assert.deepEqual(moved.audienceViews[2]!.events, moved.events, "the spectator's events, as the move's own");
    const rewound = await refusal(client().applySealed(dealt, first!, { expectedStep: moved.binding!.step }));
    assert.ok(rewound instanceof RuleRejected && rewound.reason === "STEP_MISMATCH", String(rewound));
    const other = await client().listLegalActions(moved, { seat });
    assert.deepEqual([other.actions.length, other.actingSeat], [0, moved.actingSeat]);
  });
});
