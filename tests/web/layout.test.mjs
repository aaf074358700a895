// The game's layout, measured in a real browser at a laptop's 1440x900 and a phone's 390x844:
// the log stays in view wherever the page is scrolled, no two blocks overlap, no blank gap opens
// between them, and nothing is wider than the screen. Facts about boxes, not pixels.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser } from "./browser.mjs";
import { playByClicking } from "./clicking.mjs";
import { startEngine } from "./engine.mjs";

const MAX_GAP_PX = 24;

let engine;
let chromium;
before(async () => {
  engine = await startEngine();
  chromium = await launchBrowser();
});
after(async () => {
  await chromium?.close();
  await engine?.stop();
});

/** The page's blocks (header, side panels, table sections, players) with their boxes in page coordinates. */
function blocksOf(page) {
  return page.evaluate(() => {
    const selectors = [".top", ".side > *", ".table section", ".players"];
    const seen = new Set();
    const blocks = [];
    for (const selector of selectors) {
      for (const node of document.querySelectorAll(selector)) {
        // A section inside another listed block (the Orient inside the markets) is measured once.
        if (seen.has(node) || node.querySelector(".table section") !== null) continue;
        seen.add(node);
        const box = node.getBoundingClientRect();
        blocks.push({
          name: `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`,
          fixed: getComputedStyle(node).position === "fixed",
          top: box.top + scrollY,
          bottom: box.bottom + scrollY,
          left: box.left,
          right: box.right,
        });
      }
    }
    return blocks;
  });
}

function overlaps(a, b) {
  return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
}

/** Pairs of in-flow blocks that overlap, and blocks with a blank gap above them in their column. */
function layoutProblems(blocks) {
  const flowing = blocks.filter((block) => !block.fixed);
  const problems = [];
  for (const [index, a] of flowing.entries())
    for (const b of flowing.slice(index + 1)) if (overlaps(a, b)) problems.push(`${a.name} overlaps ${b.name}`);
  for (const block of flowing) {
    const above = flowing.filter(
      (other) =>
        other !== block && other.left < block.right && block.left < other.right && other.bottom <= block.top + 1,
    );
    if (above.length === 0) continue;
    const gap = block.top - Math.max(...above.map((other) => other.bottom));
    if (gap > MAX_GAP_PX) problems.push(`a blank gap of ${Math.round(gap)}px above ${block.name}`);
  }
  return problems;
}

/** Where the log and its last line are, in the viewport, at the current scroll. */
function logInView(page) {
  return page.evaluate(() => {
    const log = document.querySelector(".log").getBoundingClientRect();
    const list = document.querySelector(".log-lines").getBoundingClientRect();
    const last = document.querySelector(".log-lines li:last-child").getBoundingClientRect();
    const inViewport = (box) => box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
    return {
      log: inViewport(log),
      lastLine: inViewport(last) && last.top >= list.top - 1 && last.bottom <= list.bottom + 1,
    };
  });
}

const SCREENS = [
  { name: "a laptop, 4 players", width: 1440, height: 900, players: 4, link: "seats=human,greedy,greedy,random" },
  { name: "a phone, 3 players", width: 390, height: 844, players: 3, link: "seats=human,greedy,random" },
];

for (const screen of SCREENS) {
  test(`on ${screen.name} (${screen.width}x${screen.height}) the log stays in view, with no overlap and no gap`, async () => {
    const page = await chromium.browser.newPage();
    await page.setViewport({ width: screen.width, height: screen.height });
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${engine.url}/?players=${screen.players}&module=orient&${screen.link}&seed=8&delay=0`);
    await playByClicking(page, 3);
    assert.deepEqual(await logInView(page), { log: true, lastLine: true }, "the log at the top of the page");
    const blocks = await blocksOf(page);
    assert.ok(blocks.length >= 7, `only ${blocks.length} blocks measured`);
    assert.deepEqual(layoutProblems(blocks), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    // Scrolled to the bottom: the log is still in view, and covers nothing of the table.
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    assert.deepEqual(await logInView(page), { log: true, lastLine: true }, "the log at the bottom of the page");
    const covered = await page.evaluate(() => {
      const log = document.querySelector(".log").getBoundingClientRect();
      const board = document.querySelector(".board").getBoundingClientRect();
      return log.left < board.right && board.left < log.right && board.bottom > log.top + 1;
    });
    assert.equal(covered, false, "the log covers the end of the table");
    assert.deepEqual(errors, []);
    await page.close();
  });
}
