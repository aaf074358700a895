// The real engine for the browser tests: `splendor-engine serve` from the repository's .venv
// (SPLENDOR_VENV overrides it) with gRPC and HTTP on free loopback ports; the page is served by
// its HTTP listener. SPLENDOR_WEB_URL points the tests at an engine already running instead.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const venvDir = process.env.SPLENDOR_VENV ?? join(repoDir, ".venv");
const STARTUP_TIMEOUT_MS = 30_000;

/** A free loopback port: bound, read and released (the engine binds it a moment later). */
async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  await once(server, "close");
  return port;
}

/**
 * What the front end needs from the engine that this engine lacks, in words (undefined when it
 * has it): `page` for the page at / and its catalog, `sealed` for sealed games too, `play` for
 * server-side bots as well. A test fails with this reason rather than on some later symptom.
 */
async function missingFeatures(url) {
  const page = await fetch(`${url}/`);
  if (!page.ok || !(await page.text()).includes('src="app.js"')) {
    const reason = `the HTTP listener does not serve the front end at / (HTTP ${page.status})`;
    return { page: reason, sealed: reason, play: reason };
  }
  const call = async (method, body) => {
    const response = await fetch(`${url}/splendor.v1.EngineService/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { ok: response.ok, status: response.status, body: await response.json() };
  };
  const created = await call("CreateGame", { config: { numPlayers: 2 }, sealed: true, seat: 0 });
  if (!created.ok || created.body.sealedState === undefined || created.body.state !== undefined) {
    const reason = "the engine does not deal sealed games (CreateGameRequest.sealed)";
    return { sealed: reason, play: reason };
  }
  const seatKeys = created.body.seatKeys ?? [];
  if (seatKeys.length !== 2) {
    const reason = "the engine hands out no seat keys (CreateGameResponse.seat_keys)";
    return { sealed: reason, play: reason };
  }
  const acting = created.body.view?.seat ?? 0;
  const moved = await call("ApplyAction", {
    sealedState: created.body.sealedState,
    bot: { policy: "random" },
    seatKey: seatKeys[acting],
  });
  if (!moved.ok || moved.body.applied === undefined || moved.body.sealedState === undefined)
    return {
      play: `the engine has no server-side bots for sealed games (ApplyActionRequest.bot, HTTP ${moved.status})`,
    };
  return {};
}

/**
 * Start the engine; resolves to { url, stop, missing } once its HTTP listener answers.
 * `missing` says what the engine lacks for the front end (see missingFeatures). `httpPort`
 * starts it on a given loopback port and `sealingKeys` with a given key ring (to start it again
 * where a page expects it, opening the tokens the page holds).
 */
export async function startEngine({ httpPort: port, sealingKeys } = {}) {
  if (process.env.SPLENDOR_WEB_URL && port === undefined) {
    const url = process.env.SPLENDOR_WEB_URL.replace(/\/$/, "");
    return { url, stop: async () => {}, missing: await missingFeatures(url) };
  }
  const httpPort = port ?? (await freePort());
  const args = [
    "serve",
    "--address",
    "127.0.0.1:0",
    "--http-address",
    `127.0.0.1:${httpPort}`,
    "--metrics-port",
    "0",
    "--grace-seconds",
    "0",
    "--log-format",
    "json",
  ];
  const env = sealingKeys === undefined ? process.env : { ...process.env, SPLENDOR_SEALING_KEYS: sealingKeys };
  const child = spawn(join(venvDir, "bin", "splendor-engine"), args, { stdio: ["ignore", "ignore", "pipe"], env });
  const output = [];
  child.stderr.on("data", (chunk) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      if (output.join("").includes("unrecognized arguments: --http-address")) {
        const reason = "the engine has no HTTP listener (--http-address)";
        return { url, stop, missing: { page: reason, sealed: reason, play: reason } };
      }
      break;
    }
    try {
      await fetch(`${url}/healthz`);
      return { url, stop, missing: await missingFeatures(url) };
    } catch {
      // not listening yet
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  await stop();
  throw new Error(`the engine did not answer on ${url} within ${STARTUP_TIMEOUT_MS} ms:\n${output.join("")}`);
}
