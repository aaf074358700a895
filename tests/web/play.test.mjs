// The web front end in a real browser: a human (this test, clicking) against a server-side bot,
// a whole game of the base game and of each module, through the engine's own HTTP listener.
// Screenshots go to tests/web/artefacts/ (ignored by git; WEB_ARTEFACTS overrides it).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser } from "./browser.mjs";
import { startEngine } from "./engine.mjs";
import { leaks } from "./hidden.mjs";

const ARTEFACTS = process.env.WEB_ARTEFACTS ?? new URL("./artefacts/", import.meta.url).pathname;
const MAX_CLICKS = 600;
const SERVICE = "/splendor.v1.EngineService/";

let engine;
let chromium;
before(async () => {
  mkdirSync(ARTEFACTS, { recursive: true });
  engine = await startEngine();
  chromium = await launchBrowser();
});
after(async () => {
  await chromium?.close();
  await engine?.stop();
});

/**
 * A page that records every engine response it receives and every script error it throws. An
 * engine that lacks something the front end needs (the page, sealed games, server-side bots)
 * fails the test with what is missing.
 */
async function openPage({ width = 1280, height = 900, needs = "play" } = {}) {
  const missing = engine.missing[needs];
  if (missing !== undefined) assert.fail(`the engine cannot serve this front end: ${missing}`);
  const page = await chromium.browser.newPage();
  await page.setViewport({ width, height });
  const received = [];
  const errors = [];
  const created = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    if (request.url().endsWith(`${SERVICE}CreateGame`)) created.push(JSON.parse(request.postData() ?? "{}"));
  });
  page.on("response", (response) => {
    const url = response.url();
    if (url.includes(SERVICE) && response.request().method() === "POST") {
      received.push(
        response.text().then((text) => ({
          method: url.slice(url.indexOf(SERVICE) + SERVICE.length),
          status: response.status(),
          text,
        })),
      );
    }
  });
  return { page, received, errors, created };
}

/** Wait until the page is not busy (a human may move, the game is over, or an error shows). */
async function settled(page) {
  await page.waitForFunction(
    () => ["ready", "over", "setup", "replay", "handover", "stalled"].includes(document.body.dataset.state ?? ""),
    { timeout: 60_000 },
  );
  return page.evaluate(() => document.body.dataset.state);
}

/**
 * Click legal moves, a purchase when one is offered, until the game is over; in a hot-seat game
 * also the hand-over screens. Returns the moves clicked.
 */
async function playByClicking(page) {
  for (let clicks = 0; clicks < MAX_CLICKS; clicks += 1) {
    const state = await settled(page);
    if (state === "over") return clicks;
    if (state === "handover") {
      await page.click(".handover button");
      continue;
    }
    if (state !== "ready") assert.fail(`page ${state}: ${await page.$eval("#alert", (node) => node.textContent)}`);
    const move = (await page.$('[data-action-kind="purchaseCard"]')) ?? (await page.$("[data-action-id]"));
    assert.ok(move, `no move offered: ${await page.$eval("#status", (node) => node.textContent)}`);
    const before = await page.evaluate(() => document.querySelectorAll(".log-lines li").length);
    await move.click();
    await page.waitForFunction(
      (count) => document.body.dataset.state !== "ready" || document.querySelectorAll(".log-lines li").length > count,
      { timeout: 60_000 },
      before,
    );
  }
  assert.fail(`the game was not over after ${MAX_CLICKS} clicks`);
}

/** Every recorded engine response, checked for hidden information; returns how many were checked. */
async function checkResponses(received) {
  const responses = await Promise.all(received);
  let lastView;
  const problems = [];
  for (const { method, status, text } of responses) {
    if (status !== 200 || method === "GetCatalog") continue;
    const body = JSON.parse(text);
    problems.push(...leaks(method, body, lastView));
    lastView = body.view ?? lastView;
  }
  assert.deepEqual(problems, []);
  return responses.length;
}

const GAMES = [
  { module: "none", players: 2, seed: 11 },
  { module: "cities", players: 2, seed: 12 },
  { module: "trading_posts", players: 2, seed: 13 },
  { module: "strongholds", players: 2, seed: 14 },
  { module: "orient", players: 2, seed: 15 },
];

describe("a human plays a whole game against a bot by clicking", () => {
  for (const game of GAMES) {
    test(`${game.module}, ${game.players} players`, async () => {
      const opened = await openPage();
      const { page, received, errors, created } = opened;
      const link = `/?players=${game.players}&module=${game.module}&seats=human,greedy&seed=${game.seed}&delay=0`;
      await page.goto(`${engine.url}${link}`);
      const clicks = await playByClicking(page);
      // A seed in the link is a public deal, and the page says so.
      assert.deepEqual([created[0].config.seed, created[0].publicDeal], [String(game.seed), true]);
      assert.match(
        await page.$eval("[data-public-deal]", (node) => node.textContent),
        new RegExp(`^Public deal from seed ${game.seed} `),
      );
      assert.ok(clicks > 5, `only ${clicks} clicks`);
      // The final screen: the ranking of every seat, and the export.
      const ranked = await page.$$eval(".final .ranking tbody tr", (rows) => rows.length);
      assert.equal(ranked, game.players);
      assert.match(
        await page.$eval(".final .end-reason", (node) => node.textContent),
        /^Game over: .+(wins|share the victory)\.$/,
      );
      assert.ok(await page.$("[data-export]"));
      assert.match(await page.$eval("#status", (node) => node.textContent), /^Game over after \d+ turns\.$/);
      // Every card drawn on the table carries its id and a label in words.
      const unlabelled = await page.$$eval(
        "[data-card-id]",
        (cards) => cards.filter((card) => !/costs /.test(card.getAttribute("aria-label") ?? "")).length,
      );
      assert.equal(unlabelled, 0);
      await page.screenshot({ path: join(ARTEFACTS, `game-${game.module}.png`), fullPage: true });
      const checked = await checkResponses(received);
      assert.ok(checked > clicks, `only ${checked} responses checked`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});

test("two humans share one screen (hot seat) for a whole game", async () => {
  const opened = await openPage({ needs: "sealed" });
  const { page, received, errors } = opened;
  await page.goto(`${engine.url}/?players=2&module=strongholds&seats=human,human&seed=51&delay=0`);
  const clicks = await playByClicking(page);
  assert.ok(clicks > 20, `only ${clicks} clicks`);
  assert.equal(await page.$$eval(".final .ranking tbody tr", (rows) => rows.length), 2);
  await checkResponses(received);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a spectator watches bots play a whole game", async () => {
  const opened = await openPage();
  const { page, received, errors } = opened;
  await page.goto(`${engine.url}/?players=3&module=cities&seats=greedy,random,greedy&seed=41&delay=0`);
  await page.waitForFunction(() => document.body.dataset.state === "over", { timeout: 120_000 });
  assert.equal(await page.$$eval(".final .ranking tbody tr", (rows) => rows.length), 3);
  assert.equal(await page.$("[data-action-id]"), null, "a spectator is offered no move");
  await checkResponses(received);
  const methods = new Set((await Promise.all(received)).map((response) => response.method));
  assert.ok(!methods.has("ListLegalActions"), "the page never lists a bot's legal actions");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a move can be played with the keyboard alone", async () => {
  const opened = await openPage();
  const { page, errors } = opened;
  await page.goto(`${engine.url}/?players=2&seats=human,random&seed=21&delay=0`);
  assert.equal(await settled(page), "ready");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "moves-title");
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => document.activeElement?.getAttribute("data-action-id"));
  assert.ok(focused !== null && focused !== undefined, "Tab from the moves heading reaches a move");
  const turnBefore = await page.$eval("#status", (node) => node.textContent);
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (text) => document.body.dataset.state === "ready" && document.querySelector("#status").textContent !== text,
    { timeout: 30_000 },
    turnBefore,
  );
  assert.match(await page.$eval("#status", (node) => node.textContent), /^Turn 3, round 2\. Your move/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("on a phone-sized screen the table fits the width", async () => {
  const opened = await openPage({ width: 390, height: 844 });
  const { page, errors } = opened;
  await page.goto(`${engine.url}/?players=3&module=orient&seats=human,bot,greedy&seed=22&delay=0`);
  assert.equal(await settled(page), "ready");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: join(ARTEFACTS, "phone-orient.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("an illegal request shows the server's reason in words", async () => {
  const opened = await openPage({ needs: "page" });
  const { page } = opened;
  await page.goto(`${engine.url}/?players=7&seats=human`);
  await page.waitForSelector("#alert:not([hidden])");
  const text = await page.$eval("#alert", (node) => node.textContent);
  assert.match(text, /^The engine refused: .*players.* \([A-Z_]+\)$/i);
  await page.close();
});

test("an exported game replays step by step", async () => {
  const opened = await openPage();
  const { page, received, errors, created } = opened;
  const downloads = join(ARTEFACTS, "downloads");
  mkdirSync(downloads, { recursive: true });
  const session = await page.createCDPSession();
  await session.send("Browser.setDownloadBehavior", {
    behavior: "allow",
    downloadPath: downloads,
    eventsEnabled: true,
  });
  await page.goto(`${engine.url}/?players=2&seats=human,greedy&delay=0`);
  await playByClicking(page);
  const [name] = await Promise.all([
    new Promise((resolveDownload) => {
      let suggested;
      session.on("Browser.downloadWillBegin", (event) => (suggested = event.suggestedFilename));
      session.on("Browser.downloadProgress", (event) => event.state === "completed" && resolveDownload(suggested));
    }),
    page.click("[data-export]"),
  ]);
  // The page asked for a sealed game without a seed; the engine revealed it once the game was over.
  assert.equal(created.length, 1);
  assert.equal(created[0].config.seed, undefined, "the page chose no seed");
  assert.equal(created[0].publicDeal, undefined, "the deal is not public");
  const responses = await Promise.all(received);
  const finalView = JSON.parse(responses.findLast((response) => response.method !== "GetCatalog").text).view;
  assert.match(finalView.revealedSeed, /^[0-9]+$/);
  assert.equal(name, `splendor-game-${finalView.revealedSeed}.json`);
  const record = JSON.parse(readFileSync(join(downloads, name), "utf8"));
  assert.equal(record.format, "splendor-web-record/1");
  assert.deepEqual(record.seats, ["human", "greedy"]);
  assert.equal(record.config.seed, finalView.revealedSeed);
  const total = record.actions.length;
  assert.ok(total > 10);

  await page.click("#new-game");
  const input = await page.waitForSelector('input[type="file"]');
  await input.uploadFile(join(downloads, name));
  await page.waitForFunction(
    (count) => document.querySelector("#status")?.textContent === `Replay: action ${count} of ${count}.`,
    { timeout: 30_000 },
    total,
  );
  assert.equal(await page.$$eval(".final .ranking tbody tr", (rows) => rows.length), 2);
  await page.click('[data-replay="back"]');
  await page.waitForFunction(
    (count) => document.querySelector("#status")?.textContent === `Replay: action ${count - 1} of ${count}.`,
    { timeout: 30_000 },
    total,
  );
  assert.equal(await page.$(".final"), null, "one action before the end the game is not over");
  await page.screenshot({ path: join(ARTEFACTS, "replay.png"), fullPage: true });
  await checkResponses(received);
  assert.deepEqual(errors, []);
  await page.close();
});
