/**
 * conformance/planted_fault.py: the engine over gRPC with one planted fault, for the conformance runner's
 * own test. Started from the project's virtual environment on a free loopback port, stopped after.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const venvDir = process.env["SPLENDOR_VENV"] ?? join(repoDir, ".venv");
const STARTUP_TIMEOUT_MS = 30_000;

/** A running server with a planted fault: its gRPC address, and how to stop it. */
export interface FaultyServer {
  readonly grpcAddress: string;
  stop(): Promise<void>;
}

/** Start the server with `fault` planted; resolves once it serves. */
export async function startPlantedFault(fault: string): Promise<FaultyServer> {
  const child = spawn(join(venvDir, "bin", "python"), ["-m", "conformance.planted_fault", "--fault", fault], {
    cwd: repoDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no server_started line:\n${output.join("")}`)),
        STARTUP_TIMEOUT_MS,
      );
      child.once("exit", (code) => reject(new Error(`it exited with code ${String(code)}:\n${output.join("")}`)));
      createInterface({ input: child.stdout }).on("line", (line) => {
        const record = JSON.parse(line) as { event?: string; port?: number };
        if (record.event === "server_started" && typeof record.port === "number") {
          clearTimeout(timer);
          resolvePort(record.port);
        }
      });
    });
    return { grpcAddress: `127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
