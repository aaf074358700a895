// The game's layout, measured in a real browser at a laptop's 1440x900 and a phone's 390x844:
// the log stays in view wherever the page is scrolled, no two blocks overlap, no blank gap opens
// between them, and nothing is wider than the screen; on the laptop the whole game fits the
// screen without scrolling for 2 to 4 players of every module; text meets WCAG AA contrast.
// Facts about boxes and colours, not pixels.
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
    if (screen.width >= 900) assert.deepEqual(await scrolling(page), [], "the Orient, 4 players");
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

/** What scrolls: the page, or any of the game's columns (a column that must scroll hides part of the game). */
function scrolling(page) {
  return page.evaluate(() => {
    const found = [];
    if (document.documentElement.scrollHeight > innerHeight + 1)
      found.push(`the page (${document.documentElement.scrollHeight}px high)`);
    for (const selector of [".board", ".table", ".players", ".side", ".markets"]) {
      const node = document.querySelector(selector);
      if (node === null) continue;
      if (node.scrollHeight > node.clientHeight + 1)
        found.push(`${selector} (${node.scrollHeight} > ${node.clientHeight}px)`);
      if (node.scrollWidth > node.clientWidth + 1)
        found.push(`${selector} (${node.scrollWidth} > ${node.clientWidth}px wide)`);
    }
    return found;
  });
}

// The tallest and widest tables besides the Orient's (its extra market rows, 4 players: the laptop test
// above): 4 players with the cities' wider tiles, with the trading posts' extra row; and 2 players. The
// base game and the Strongholds (markers on cards only) draw no more than these.
const FITS = [
  { module: "none", players: 2 },
  { module: "cities", players: 4 },
  { module: "trading_posts", players: 4 },
];

test("on a laptop (1440x900) the whole game fits the screen without scrolling: 2 players, and 4 with the largest tables", async () => {
  const page = await chromium.browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  for (const { module, players } of FITS) {
    const seats = ["human", "greedy", "random", "greedy"].slice(0, players).join(",");
    await page.goto(`${engine.url}/?players=${players}&module=${module}&seats=${seats}&seed=9&delay=0`);
    await playByClicking(page, 5);
    assert.deepEqual(await scrolling(page), [], `${module}, ${players} players`);
  }
  await page.close();
});

/** Text whose contrast with what is behind it is below WCAG AA (4.5:1, or 3:1 for large text). */
function lowContrast(page) {
  return page.evaluate(() => {
    const rgba = (text) => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]) => {
      const channel = (value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    /** The colour behind an element: the first opaque background up the tree (undefined under an image). */
    const behind = (element) => {
      for (let node = element; node !== null; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== "none") return undefined;
        const colour = rgba(style.backgroundColor);
        if (colour.length === 3 || colour[3] === 1) return colour.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const faded = (element) => {
      for (let node = element; node !== null; node = node.parentElement)
        if (Number(getComputedStyle(node).opacity) < 1 || node.matches?.(":disabled, [aria-hidden=true] .zero"))
          return true;
      return false;
    };
    const problems = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
      const element = text.parentElement;
      if (text.textContent.trim() === "" || element.closest(".sr-only, [hidden], noscript") !== null) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || faded(element)) continue;
      const background = behind(element);
      if (background === undefined) continue;
      const style = getComputedStyle(element);
      const [a, b] = [luminance(rgba(style.color)), luminance(background)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) problems.push(`"${text.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
    }
    return [...new Set(problems)];
  });
}

test("the game's text meets WCAG AA contrast, on a laptop and on a phone", async () => {
  for (const { width, height } of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const page = await chromium.browser.newPage();
    await page.setViewport({ width, height });
    await page.goto(`${engine.url}/?players=3&module=strongholds&seats=human,greedy,random&seed=10&delay=0`);
    await playByClicking(page, 4);
    assert.deepEqual(await lowContrast(page), [], `${width}x${height}`);
    await page.close();
  }
});
