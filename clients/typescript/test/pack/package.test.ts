/**
 * The package as a user gets it (issue 22): `npm pack` builds and packs the client, the tarball
 * is installed with npm into a fresh temporary project (`npm ci --offline`: its dependencies come
 * from npm's cache, which `npm ci` here filled), and a program there imports the package by name,
 * type-checks against its declarations and plays a whole sealed game on a real engine on the
 * loopback interface.
 *
 *     npm run test:pack
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type EngineServer, startEngine } from "../support/server.js";

const run = promisify(execFile);
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const NPM_TIMEOUT_MS = 300_000;
const PACKAGE = "splendor-engine-client";

/**
 * The lock file of a project depending on the tarball only: the package's runtime dependencies
 * pinned as in its own lock file, so `npm ci --offline` installs them from npm's cache (no
 * network: a lock file leaves npm nothing to look up).
 */
async function consumerLock(dependency: string): Promise<object> {
  const lock = JSON.parse(await readFile(join(packageDir, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; dependencies?: Record<string, string>; version?: string }>;
  };
  const own = lock.packages[""]!;
  const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== "" && entry.dev !== true);
  return {
    name: "consumer",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "consumer", dependencies: { [PACKAGE]: dependency } },
      [`node_modules/${PACKAGE}`]: { version: own.version, resolved: dependency, dependencies: own.dependencies },
      ...Object.fromEntries(runtime),
    },
  };
}

/** Run `command` in `cwd`; its standard output. */
async function sh(cwd: string, command: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run(command, args, { cwd, timeout: NPM_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

describe("the packed package", () => {
  let workDir = "";
  let tarball = "";
  let server: EngineServer | undefined;

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "splendor-pack-"));
    const packed = JSON.parse(await sh(packageDir, "npm", ["pack", "--json", "--pack-destination", workDir])) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = join(workDir, packed[0]!.filename);
    server = await startEngine();
  });

  after(async () => {
    await server?.stop();
    if (workDir !== "") await rm(workDir, { recursive: true, force: true });
  });

  test("the tarball holds the compiled JS and the type declarations of every entry point", async () => {
    const listing = await sh(workDir, "tar", ["-tzf", tarball]);
    for (const entry of ["index", "node", "web", "client", "seat_keys", "errors"]) {
      assert.match(listing, new RegExp(`^package/dist/${entry}\\.js$`, "m"), `dist/${entry}.js`);
      assert.match(listing, new RegExp(`^package/dist/${entry}\\.d\\.ts$`, "m"), `dist/${entry}.d.ts`);
    }
    assert.doesNotMatch(listing, /^package\/test\//m, "no tests in the package");
  });

  test("installed into a fresh project, it type-checks and plays a sealed game on a loopback engine", async () => {
    const project = join(workDir, "project");
    await mkdir(project);
    const dependency = `file:../${basename(tarball)}`;
    const manifest = { name: "consumer", private: true, type: "module", dependencies: { [PACKAGE]: dependency } };
    await writeFile(join(project, "package.json"), JSON.stringify(manifest));
    await writeFile(join(project, "package-lock.json"), JSON.stringify(await consumerLock(dependency)));
    await sh(project, "npm", ["ci", "--offline", "--no-audit", "--no-fund"]);
    const installed = await readdir(join(project, "node_modules", PACKAGE, "dist"));
    assert.ok(installed.includes("index.d.ts") && installed.includes("node.js"));
    await copyFile(join(packageDir, "test", "pack", "consumer.ts"), join(project, "consumer.ts"));
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          types: ["node"],
          typeRoots: [join(packageDir, "node_modules", "@types")],
          skipLibCheck: false,
          outDir: "out",
        },
        files: ["consumer.ts"],
      }),
    );
    // The package's own TypeScript compiles the program against the installed declarations.
    await sh(project, process.execPath, [join(packageDir, "node_modules", "typescript", "bin", "tsc"), "-p", "."]);
    const output = await sh(project, process.execPath, [join("out", "consumer.js"), server!.grpcAddress]);
    const result = JSON.parse(output) as { finished: boolean; steps: number; ranking: number; denied: string };
    assert.deepEqual(
      { finished: result.finished, ranking: result.ranking, denied: result.denied },
      { finished: true, ranking: 2, denied: "SEAT_KEY_MISSING" },
    );
    assert.ok(result.steps > 20, `a whole game takes many steps, not ${result.steps}`);
  });
});
