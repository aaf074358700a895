/**
 * The real Python engine, started on a free loopback port for a test file and stopped after it.
 *
 * The server is the project's `splendor-engine` command from its virtual environment
 * (SPLENDOR_VENV overrides <repository>/.venv). It binds port 0 and reports the port it got
 * in its `server_started` log line, so parallel test files never collide.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const venvDir = process.env["SPLENDOR_VENV"] ?? join(repoDir, ".venv");
const STARTUP_TIMEOUT_MS = 30_000;

/** A running engine. */
export interface EngineServer {
  /** Its gRPC address, `127.0.0.1:<port>`. */
  readonly grpcAddress: string;
  /** Its HTTP address (Connect and gRPC-Web), `127.0.0.1:<port>`. */
  readonly httpAddress: string;
  /** Stop it and wait until it has exited. */
  stop(): Promise<void>;
}

/**
 * Start the engine on a free loopback port; resolves once it serves. `pythonModule`: a module of the
 * repository that serves the engine with something of a test's registered (run as
 * `python -m <module>` from the repository's root), instead of `splendor-engine serve`.
 */
export async function startEngine(pythonModule?: string): Promise<EngineServer> {
  const serveArgs = [
    "serve",
    "--address",
    "127.0.0.1:0",
    "--http-address",
    "127.0.0.1:0",
    "--metrics-port",
    "0",
    "--grace-seconds",
    "0",
    "--log-format",
    "json",
  ];
  const [command, args] =
    pythonModule === undefined
      ? [join(venvDir, "bin", "splendor-engine"), serveArgs]
      : [join(venvDir, "bin", "python"), ["-m", pythonModule]];
  const child = spawn(command, args, { cwd: repoDir, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = []; // kept to explain a failed start
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  try {
    const started = await startedAddresses(child, output);
    return { ...started, stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** The addresses of the `server_started` log line; the rest of the log is read and dropped, so the pipe never fills. */
function startedAddresses(
  child: ChildProcessByStdio<null, Readable, Readable>,
  output: string[],
): Promise<Omit<EngineServer, "stop">> {
  return new Promise((resolveAddresses, reject) => {
    const timer = setTimeout(() => fail(`no server_started line within ${STARTUP_TIMEOUT_MS} ms`), STARTUP_TIMEOUT_MS);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(`the engine did not start: ${why}\n${output.join("")}`));
    };
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code) => fail(`it exited with code ${String(code)}`));
    createInterface({ input: child.stdout }).on("line", (line) => {
      output.push(`${line}\n`);
      const record = parseJson(line);
      if (record?.["event"] !== "server_started") return;
      const port = record["port"];
      const httpAddress = record["http_address"];
      if (typeof port !== "number" || typeof httpAddress !== "string") {
        fail("its server_started line has no port or no http_address");
        return;
      }
      clearTimeout(timer);
      resolveAddresses({ grpcAddress: `127.0.0.1:${port}`, httpAddress });
    });
  });
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function stop(child: ChildProcessByStdio<null, Readable, Readable>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}
