/** One engine and one client per run for a test file: `withEngine(run, (use) => { ... use().client ... })`. */
import { after, before } from "node:test";
import type { EngineClient } from "../../src/client.js";
import type { Run } from "./runs.js";
import { type EngineServer, startEngine } from "./server.js";

/** Start the engine before the enclosing suite's tests and stop it after; the returned getter gives the client. */
export function useEngine(run: Run): () => EngineClient {
  let server: EngineServer | undefined;
  let client: EngineClient | undefined;
  before(async () => {
    server = await startEngine();
    client = run.client(server);
  });
  after(async () => {
    client?.close();
    await server?.stop();
  });
  return () => {
    if (client === undefined) throw new Error("the engine has not started");
    return client;
  };
}
