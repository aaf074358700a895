// The README's screenshots (docs/screenshots/*.png), taken from the real front end:
//   node tests/web/readme-screenshots.mjs      (starts the engine, as the browser tests do)
// Viewport-sized, one device pixel per CSS pixel, to keep the files small.
import { mkdirSync } from "node:fs";
import { launchBrowser } from "./browser.mjs";
import { playByClicking } from "./clicking.mjs";
import { startEngine } from "./engine.mjs";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;

const SHOTS = [
  {
    name: "game-trading-posts",
    link: "?players=3&module=trading_posts&seats=human,greedy,random&seed=7",
    moves: 10,
    width: 1440,
    height: 900,
  },
  {
    name: "game-orient",
    link: "?players=2&module=orient&seats=human,greedy&seed=3",
    moves: 14,
    width: 1440,
    height: 900,
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
    await playByClicking(page, shot.moves);
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.screenshot({ path: `${OUT}${shot.name}.png` });
    await page.close();
    console.log(`docs/screenshots/${shot.name}.png`);
  }
} finally {
  await chromium.close();
  await engine.stop();
}
