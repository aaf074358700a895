/**
 * The TypeScript runner of the conformance vectors: every vector passes against the engine over gRPC,
 * every call over Connect, and each planted fault (conformance/planted_fault.py) makes the runner fail.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { connectTransport, grpcTransport } from "../src/node.js";
import {
  flipLastByte,
  loadVectors,
  missing,
  normalised,
  passed,
  runConformance,
  summary,
  withAnswers,
} from "../scripts/conformance.js";
import { type EngineServer, startEngine } from "./support/server.js";
import { startPlantedFault } from "./support/planted_fault.js";

const corpus = loadVectors();
const calls = corpus.cases.reduce((total, testCase) => total + testCase.steps.length, 0);

describe("the conformance vectors against the engine", () => {
  let server: EngineServer;
  before(async () => {
    server = await startEngine();
  });
  after(async () => {
    await server.stop();
  });

  test("every vector passes over gRPC", async () => {
    const transport = grpcTransport(server.grpcAddress);
    try {
      const report = await runConformance(transport, corpus);
      assert.deepEqual(report.failures, []);
      assert.equal(report.calls, calls);
      assert.ok(calls >= 1000);
      assert.equal(report.games, corpus.games.length);
      console.log(summary(report));
    } finally {
      transport.close();
    }
  });

  // Over Connect, the sealed sessions and the refusals: tokens, seat keys and errors' details through the
  // other protocol (the Python runner's tests run every call over Connect).
  test("the sealed sessions and the refusals pass over Connect", async () => {
    const transport = connectTransport(server.httpAddress);
    try {
      const report = await runConformance(transport, corpus, { only: /\/(sealed|refusal)\//, games: false });
      assert.deepEqual(report.failures, []);
      assert.ok(report.calls > 500, summary(report));
    } finally {
      transport.close();
    }
  });
});

// Each planted fault, the cases it must break, and what the report says.
const PLANTED = [
  { fault: "events", only: /^base-2p-greedy\/apply\//, why: "events" },
  { fault: "reason", only: /^base\/refusal\/action\//, why: "refused with FAILED_PRECONDITION GAME_OVER" },
  { fault: "digest", only: /^base-2p-greedy/, why: "the digest after action" },
  { fault: "view", only: /^base-2p-greedy\/view\//, why: "view.bank.white" },
] as const;

describe("the runner against a server with a planted fault", () => {
  for (const planted of PLANTED) {
    test(`fails on the fault "${planted.fault}"`, async () => {
      const server = await startPlantedFault(planted.fault);
      const transport = grpcTransport(server.grpcAddress);
      try {
        const report = await runConformance(transport, corpus, { only: planted.only });
        assert.ok(!passed(report), summary(report));
        assert.ok(
          report.failures.some((failure) => failure.why.includes(planted.why)),
          JSON.stringify(report.failures[0]),
        );
      } finally {
        transport.close();
        await server.stop();
      }
    });
  }
});

describe("the runner's checks", () => {
  const answer = { sealedState: "AQID", seatKeys: ["k0", "k1"] };

  test("references take values from earlier answers, tampered or not", () => {
    const request = {
      sealedState: { $from: [0, "sealedState"], $tamper: "flip-last-byte" },
      seatKey: { $from: [0, "seatKeys", 1] },
    };
    assert.deepEqual(withAnswers(request, [answer]), { sealedState: "AQIC", seatKey: "k1" });
    assert.throws(() => withAnswers({ $from: [0, "sealedState"] }, [undefined]));
    assert.equal(flipLastByte("AQID"), "AQIC");
  });

  test("normalising keeps list lengths and presence is checked", () => {
    const paths = [["sealedState"], ["seatKeys", "*"]];
    assert.deepEqual(normalised(answer, paths), { sealedState: "", seatKeys: ["", ""] });
    assert.deepEqual(missing(normalised(answer, paths), { seatKeys: ["x"] }, paths), ["sealedState"]);
  });
});
