// Screenshots of a mid-game position of every module, at a laptop's 1440x900 (NAME-laptop.png)
// and laid out on a phone's 390x844, the whole page (NAME-phone.png), compared with the ones in
// docs/screenshots/ that the READMEs show.
// The position is the same every run: a public deal from a fixed seed, two humans sharing the
// screen (no bot, so no server entropy), the same clicks, on to a turn with a card to buy; no
// animation (prefers-reduced-motion).
// The comparison allows what fonts and anti-aliasing change: both images are averaged over
// 4x4-pixel cells, and at most MAX_CHANGED of the cells may differ by more than CELL_TOLERANCE.
//
//   UPDATE_SCREENSHOTS=1 npm run test:browser   writes docs/screenshots/ instead (palette PNGs
//   made small by pngquant, a Debian package: scripts/ensure-debian-packages pngquant:pngquant)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launchBrowser } from "./browser.mjs";
import { playByClicking, settled } from "./clicking.mjs";
import { startEngine } from "./engine.mjs";

const DOCS = new URL("../../docs/screenshots/", import.meta.url).pathname;
const ARTEFACTS = process.env.WEB_ARTEFACTS ?? new URL("./artefacts/", import.meta.url).pathname;
const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";
const CELL = 4;
const CELL_TOLERANCE = 40;
const MAX_CHANGED = 0.02;
/** A PNG written for the docs must stay small. */
const MAX_BYTES = 120_000;

/** Each module's position: a seed and how many moves into the game. */
const POSITIONS = [
  { module: "none", name: "base", seed: 3, moves: 16 },
  { module: "cities", name: "cities", seed: 4, moves: 16 },
  { module: "trading_posts", name: "trading-posts", seed: 7, moves: 16 },
  { module: "strongholds", name: "strongholds", seed: 5, moves: 16 },
  { module: "orient", name: "orient", seed: 3, moves: 18 },
];
const SCREENS = [
  { name: "laptop", width: 1440, height: 900, wholePage: false },
  { name: "phone", width: 390, height: 844, wholePage: true },
];

let engine;
let chromium;
before(async () => {
  engine = await startEngine();
  chromium = await launchBrowser();
  mkdirSync(ARTEFACTS, { recursive: true });
  if (UPDATE) mkdirSync(DOCS, { recursive: true });
});
after(async () => {
  await chromium?.close();
  await engine?.stop();
});

/** The share of 4x4 cells that differ, decoded and averaged by the browser itself; undefined if the sizes differ. */
async function changedShare(actual, expected) {
  const page = await chromium.browser.newPage();
  try {
    return await page.evaluate(
      async (one, two, cell, tolerance) => {
        const decode = async (base64) =>
          createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
        const [a, b] = await Promise.all([decode(one), decode(two)]);
        if (a.width !== b.width || a.height !== b.height) return undefined;
        const [width, height] = [Math.ceil(a.width / cell), Math.ceil(a.height / cell)];
        const cells = (image) => {
          const canvas = new OffscreenCanvas(width, height);
          const context = canvas.getContext("2d");
          context.imageSmoothingQuality = "high";
          context.drawImage(image, 0, 0, width, height);
          return context.getImageData(0, 0, width, height).data;
        };
        const [x, y] = [cells(a), cells(b)];
        let changed = 0;
        for (let index = 0; index < x.length; index += 4) {
          const most = Math.max(
            Math.abs(x[index] - y[index]),
            Math.abs(x[index + 1] - y[index + 1]),
            Math.abs(x[index + 2] - y[index + 2]),
          );
          if (most > tolerance) changed += 1;
        }
        return changed / (width * height);
      },
      actual.toString("base64"),
      expected.toString("base64"),
      CELL,
      CELL_TOLERANCE,
    );
  } finally {
    await page.close();
  }
}

/** A small palette PNG of `png` (pngquant), for the docs. */
function small(png) {
  return execFileSync("pngquant", ["--quality=70-95", "--speed=1", "--strip", "-"], { input: png });
}

for (const position of POSITIONS) {
  test(`a mid-game position of ${position.module} looks as docs/screenshots/ shows it, at both widths`, async () => {
    const page = await chromium.browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.emulateMediaFeatures([{ name: "prefers-reduced-motion", value: "reduce" }]);
    await page.setViewport({ width: 1440, height: 900, deviceScaleFactor: 1 });
    await page.goto(
      `${engine.url}/?players=2&module=${position.module}&seats=human,human&seed=${position.seed}&delay=0`,
    );
    assert.equal((await playByClicking(page, position.moves)).length, position.moves);
    // On to the first turn with a card to buy, so the picture shows one.
    for (let more = 0; (await page.$(".board .affordable")) === null; more += 1) {
      assert.ok(more < 10, "no card to buy in 10 more moves");
      await playByClicking(page, 1);
    }
    assert.equal(await settled(page), "ready");
    assert.ok(await page.$(".last-move.latest .pieces > *"), "a last move is drawn as pieces");
    for (const screen of SCREENS) {
      await page.setViewport({ width: screen.width, height: screen.height, deviceScaleFactor: 1 });
      if (screen.wholePage) {
        // As tall as the page laid out on the phone, so the log strip stays at the bottom (fullPage would
        // draw it where the phone's screen ends, over the table).
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewport({ width: screen.width, height, deviceScaleFactor: 1 });
      }
      await page.mouse.move(0, 0);
      const shot = await page.screenshot();
      const name = `${position.name}-${screen.name}.png`;
      writeFileSync(join(ARTEFACTS, name), shot);
      const file = join(DOCS, name);
      if (UPDATE) {
        const png = small(shot);
        assert.ok(png.length < MAX_BYTES, `${name}: ${png.length} bytes`);
        writeFileSync(file, png);
        continue;
      }
      assert.ok(existsSync(file), `${name} is missing: run UPDATE_SCREENSHOTS=1 npm run test:browser`);
      const share = await changedShare(shot, readFileSync(file));
      assert.notEqual(share, undefined, `${name}: the page's size changed (see tests/web/artefacts/${name})`);
      assert.ok(
        share <= MAX_CHANGED,
        `${name}: ${(share * 100).toFixed(1)}% of the picture changed (see tests/web/artefacts/${name}); ` +
          "if the change is meant, UPDATE_SCREENSHOTS=1 npm run test:browser",
      );
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("the comparison tells two positions apart", async () => {
  const [one, two] = ["base-laptop.png", "cities-laptop.png"].map((name) => readFileSync(join(DOCS, name)));
  assert.ok((await changedShare(one, two)) > MAX_CHANGED * 2);
  assert.equal(await changedShare(one, one), 0);
});
