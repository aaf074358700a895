/**
 * The README's sealed-game example runs: taken from README.md, its imports pointed at this
 * package's sources and its address at a real engine on the loopback interface, it type-checks
 * (strict) and runs, and each `console.log(...); // text` prints that text.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type EngineServer, startEngine } from "./support/server.js";

const run = promisify(execFile);
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SECTION = "### Sealed games and seat keys\n";
const DOC_ADDRESS = "127.0.0.1:50051";
const LOGGED = /^\s*console\.log\(.*\);\s*\/\/ (.+)$/gm;

/** The first TypeScript block of the README's sealed-games section. */
async function sealedExample(): Promise<string> {
  const readme = await readFile(join(packageDir, "README.md"), "utf8");
  const section = readme.split(SECTION)[1]?.split("\n#")[0] ?? "";
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(section)?.[1];
  assert.ok(block !== undefined, "the README's sealed-games section has a ts example");
  return block;
}

describe("the README's sealed-game example", () => {
  let workDir = "";
  let server: EngineServer | undefined;
  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "splendor-readme-"));
    server = await startEngine();
  });
  after(async () => {
    await server?.stop();
    if (workDir !== "") await rm(workDir, { recursive: true, force: true });
  });

  test("type-checks, runs against a loopback engine and prints what its comments say", async () => {
    const example = await sealedExample();
    assert.ok(example.includes(DOC_ADDRESS) && example.includes('from "splendor-engine-client"'));
    const program = example
      .replaceAll('"splendor-engine-client/node"', JSON.stringify(join(packageDir, "src", "node.ts")))
      .replaceAll('"splendor-engine-client"', JSON.stringify(join(packageDir, "src", "index.ts")))
      .replaceAll(DOC_ADDRESS, server!.grpcAddress);
    const file = join(workDir, "example.mts");
    await writeFile(file, program);
    const tsc = join(packageDir, "node_modules", "typescript", "bin", "tsc");
    const types = join(packageDir, "node_modules", "@types");
    const options = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext"];
    options.push("--allowImportingTsExtensions", "--skipLibCheck", "--typeRoots", types, "--types", "node");
    await run(process.execPath, [tsc, ...options, file], { cwd: packageDir });
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: packageDir });
    const expected = [...example.matchAll(LOGGED)].map((match) => match[1]);
    assert.equal(expected.length, 3);
    assert.deepEqual(stdout.trimEnd().split("\n"), expected);
  });
});
