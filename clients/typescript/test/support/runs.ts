/**
 * The ways the end-to-end tests reach the engine. Every end-to-end test runs once per entry of
 * `RUNS`: a new protocol or a new way of holding the game is one more entry here, not a copy
 * of the tests.
 */
import { EngineClient } from "../../src/client.js";
import { connectTransport, grpcTransport } from "../../src/node.js";
import type { EngineServer } from "./server.js";

/**
 * What the client holds between calls: the full state (`plain`, for a trusted platform), or
 * only the game token and views (`sealed`, what a client holding hidden information must do).
 */
export type Holding = "plain" | "sealed";

/** One way of talking to the engine. */
export interface Run {
  /** Shown in the test names. */
  readonly label: string;
  readonly holding: Holding;
  /** A client of `server` over this run's protocol. */
  client(server: EngineServer): EngineClient;
}

/** The protocols: gRPC on the engine's gRPC port, and Connect (binary) on its HTTP port. */
const PROTOCOLS = [
  { label: "gRPC", client: (server: EngineServer) => new EngineClient(grpcTransport(server.grpcAddress)) },
  {
    label: "Connect binary over HTTP",
    client: (server: EngineServer) => new EngineClient(connectTransport(server.httpAddress)),
  },
] as const;

const HOLDINGS: readonly Holding[] = ["plain", "sealed"];

export const RUNS: readonly Run[] = PROTOCOLS.flatMap((protocol) =>
  HOLDINGS.map((holding) => ({ label: `${protocol.label}, ${holding} state`, holding, client: protocol.client })),
);

/** The runs whose client holds the full state, for the tests that build or alter states. */
export const PLAIN_RUNS: readonly Run[] = RUNS.filter((run) => run.holding === "plain");

/**
 * The runs of the full games (the longest tests): sealed over every protocol, plain over gRPC
 * only. Plain games over Connect would add seconds, not coverage: the sealed games cover
 * Connect, and the plain refusals and zero values run over it too.
 */
export const GAME_RUNS: readonly Run[] = RUNS.filter((run) => run.holding === "sealed" || run.label.startsWith("gRPC"));
