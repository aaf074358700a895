// Build the front end into the server's package data (engine_service/web/static/), or with
// --check fail when the committed files differ from what the sources build, so `make serve`
// never needs npm and a stale bundle never ships.
import { build } from "esbuild";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, "..");
const typescriptClient = resolve(web, "..", "typescript");
const output = resolve(web, "..", "..", "engine_service", "web", "static");
const check = process.argv.includes("--check");

const bundle = await build({
  entryPoints: [join(web, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2022"],
  platform: "browser",
  legalComments: "none",
  write: false,
  outfile: join(output, "app.js"),
  // The TypeScript client from source, and one copy of its runtime libraries.
  alias: {
    "splendor-engine-client/web": join(typescriptClient, "src", "web.ts"),
    "splendor-engine-client": join(typescriptClient, "src", "index.ts"),
  },
  nodePaths: [join(typescriptClient, "node_modules")],
  logLevel: "warning",
});

const files = new Map([
  ["app.js", Buffer.from(bundle.outputFiles[0].contents)],
  ["app.css", await readFile(join(web, "static", "app.css"))],
  ["index.html", await readFile(join(web, "static", "index.html"))],
]);

if (check) {
  const stale = [];
  for (const [name, contents] of files) {
    const committed = await readFile(join(output, name)).catch(() => undefined);
    if (committed === undefined || !committed.equals(contents)) stale.push(name);
  }
  if (stale.length > 0) {
    console.error(`engine_service/web/static is stale (${stale.join(", ")}): run \`make web-build\` and commit it`);
    process.exit(1);
  }
  console.log("engine_service/web/static matches clients/web");
} else {
  await mkdir(output, { recursive: true });
  for (const [name, contents] of files) await writeFile(join(output, name), contents);
  console.log(
    `built ${[...files.keys()].join(", ")} into engine_service/web/static (app.js: ${files.get("app.js").length} bytes)`,
  );
}
