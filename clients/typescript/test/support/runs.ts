/**
 * The ways the end-to-end tests reach the engine. Every end-to-end test runs once per entry of
 * `RUNS`: a new protocol (Connect or gRPC-Web over the HTTP listener) or a new way of holding
 * the game is one more entry here, not a copy of the tests.
 */
import { EngineClient } from "../../src/client.js";
import { grpcTransport } from "../../src/node.js";
import type { EngineServer } from "./server.js";

/** One way of talking to the engine. */
export interface Run {
  /** Shown in the test names. */
  readonly label: string;
  /** A client of `server` over this run's protocol. */
  client(server: EngineServer): EngineClient;
}

export const RUNS: readonly Run[] = [
  { label: "gRPC, plain state", client: (server) => new EngineClient(grpcTransport(server.grpcAddress)) },
];
