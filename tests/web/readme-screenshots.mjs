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
    // Show a choice in progress: a card's menu, or the first gems of a pick.
    for (let more = 0; shot.name === "game-orient" && more < 12; more += 1) {
      const card = await page.$('.market [data-card-id][data-choices="2"]');
      if (card !== null) {
        await card.click();
        break;
      }
      await playByClicking(page, 1);
    }
    for (let picks = 0; shot.name === "game-trading-posts" && picks < 2; picks += 1) {
      const colour = await page.evaluate(() => {
        const picked = [...document.querySelectorAll("[data-picked]")].map((node) => node.dataset.picked);
        const enabled = [...document.querySelectorAll("[data-gem]:not([disabled])")].map((node) => node.dataset.gem);
        return enabled.find((name) => !picked.includes(name));
      });
      if (colour !== undefined) await page.click(`[data-gem="${colour}"]`);
    }
    await page.screenshot({ path: `${OUT}${shot.name}.png` });
    await page.close();
    console.log(`docs/screenshots/${shot.name}.png`);
  }
} finally {
  await chromium.close();
  await engine.stop();
}
