/**
 * Generate the TypeScript messages of the splendor.v1 contract, and of the google.rpc error
 * details the engine sends, into src/gen.
 *
 *     npm run codegen            # regenerate
 *     npm run codegen -- --check # fail if the committed code is stale
 *
 * Inputs: the repository's proto/ directory, and google/rpc/{status,error_details}.proto from the
 * googleapis-common-protos Python package pinned in the repository's constraints.txt (googleapis,
 * Apache-2.0), found through the project's virtual environment. Both are copied into a scratch
 * directory and compiled by the `buf` of that environment with the pinned protoc-gen-es, so the
 * output is the same on every machine. Only the generated code is committed.
 *
 * Environment: SPLENDOR_VENV overrides the virtual environment (default: <repository>/.venv).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoDir = resolve(packageDir, "..", "..");
const venvDir = process.env["SPLENDOR_VENV"] ?? join(repoDir, ".venv");
const targetDir = join(packageDir, "src", "gen");
const googleRpcFiles = ["status.proto", "error_details.proto"];

/** Every file under `root`, as sorted paths relative to it. */
function listFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** The directory holding google/rpc/*.proto in the virtual environment's googleapis-common-protos. */
function googleRpcDir(): string {
  const python = join(venvDir, "bin", "python");
  const script = "import google.rpc.status_pb2 as m, os; print(os.path.dirname(m.__file__))";
  return execFileSync(python, ["-c", script], { encoding: "utf8" }).trim();
}

/** Stage the inputs in `inputDir` and generate into `outputDir`/src/gen. */
function generate(inputDir: string, outputDir: string): void {
  cpSync(join(repoDir, "proto", "splendor"), join(inputDir, "splendor"), { recursive: true });
  const rpcDir = googleRpcDir();
  mkdirSync(join(inputDir, "google", "rpc"), { recursive: true });
  for (const name of googleRpcFiles) cpSync(join(rpcDir, name), join(inputDir, "google", "rpc", name));
  const pluginDir = join(packageDir, "node_modules", ".bin");
  execFileSync(
    join(venvDir, "bin", "buf"),
    ["generate", inputDir, "--template", join(packageDir, "buf.gen.yaml"), "--output", outputDir],
    {
      cwd: packageDir,
      stdio: "inherit",
      env: { ...process.env, PATH: `${pluginDir}${delimiter}${process.env["PATH"] ?? ""}` },
    },
  );
}

/** Paths (relative to src/gen) that differ between the fresh output and the committed code. */
function staleFiles(freshDir: string): string[] {
  const fresh = listFiles(freshDir);
  const committed = listFiles(targetDir);
  const all = [...new Set([...fresh, ...committed])].sort();
  return all.filter((path) => {
    if (!fresh.includes(path) || !committed.includes(path)) return true;
    return !readFileSync(join(freshDir, path)).equals(readFileSync(join(targetDir, path)));
  });
}

function main(): number {
  const check = process.argv.includes("--check");
  const scratch = mkdtempSync(join(tmpdir(), "splendor-ts-codegen-"));
  try {
    const inputDir = join(scratch, "in");
    const outputDir = join(scratch, "out");
    generate(inputDir, outputDir);
    const freshDir = join(outputDir, "src", "gen");
    if (check) {
      const stale = staleFiles(freshDir);
      if (stale.length > 0) {
        console.error(
          ["generated code is out of date; run `make ts-generate` (or `npm run codegen` here):", ...stale].join("\n  "),
        );
        return 1;
      }
      console.log(`generated code is up to date (${listFiles(freshDir).length} files)`);
      return 0;
    }
    rmSync(targetDir, { recursive: true, force: true });
    cpSync(freshDir, targetDir, { recursive: true });
    console.log(`wrote ${listFiles(targetDir).length} files to src/gen`);
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = main();
