// The README's screenshots (docs/screenshots/*.png), taken from the real front end:
//   node tests/web/readme-screenshots.mjs      (starts the engine, as the browser tests do)
// Viewport-sized, one device pixel per CSS pixel, to keep the files small.
import { mkdirSync } from "node:fs";
import { launchBrowser } from "./browser.mjs";
import { startEngine } from "./engine.mjs";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;

/** Play `moves` human moves (a purchase when offered), each time until the bots have moved. */
async function advance(page, moves) {
  const settled = () => page.waitForFunction(() => ["ready", "over"].includes(document.body.dataset.state ?? ""));
  for (let played = 0; played < moves; played += 1) {
    await settled();
    if ((await page.evaluate(() => document.body.dataset.state)) === "over") return;
    const move = (await page.$('[data-action-kind="purchaseCard"]')) ?? (await page.$("[data-action-id]"));
    const logged = await page.evaluate(() => document.querySelectorAll(".log-lines li").length);
    await move.click();
    await page.waitForFunction(
      (count) => document.body.dataset.state !== "ready" || document.querySelectorAll(".log-lines li").length > count,
      {},
      logged,
    );
  }
  await settled();
}

const SHOTS = [
  {
    name: "game-trading-posts",
    link: "?players=3&module=trading_posts&seats=human,greedy,random&seed=7",
    moves: 10,
    width: 1200,
    height: 820,
  },
  {
    name: "game-orient",
    link: "?players=2&module=orient&seats=human,greedy&seed=3",
    moves: 14,
    width: 1200,
    height: 820,
  },
  {
    name: "phone-strongholds",
    link: "?players=2&module=strongholds&seats=human,greedy&seed=5",
    moves: 8,
    width: 390,
    height: 844,
  },
];

mkdirSync(OUT, { recursive: true });
const engine = await startEngine();
const chromium = await launchBrowser();
try {
  for (const shot of SHOTS) {
    const page = await chromium.browser.newPage();
    await page.setViewport({ width: shot.width, height: shot.height, deviceScaleFactor: 1 });
    await page.goto(`${engine.url}/${shot.link}&delay=0`);
    await advance(page, shot.moves);
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.screenshot({ path: `${OUT}${shot.name}.png` });
    await page.close();
    console.log(`docs/screenshots/${shot.name}.png`);
  }
} finally {
  await chromium.close();
  await engine.stop();
}
