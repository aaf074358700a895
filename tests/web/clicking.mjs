// A player who plays the web front end by clicking what is on the table, as a person would: a
// card to buy it (one with an ability first) and then the move in its menu, the bank's gems one by
// one and then Confirm, the tokens to give back, a deck, a noble, a city or a card a decision is
// about (each through its menu), and a prompt (pass, decline) only when nothing on the table is
// offered. A click on a thing on the table that sends a move by itself fails the game.

const SERVICE_APPLY = "/splendor.v1.EngineService/ApplyAction";
const sentMoves = new WeakMap();

/** Count the moves the page sends (ApplyAction requests), so a click that sends one unasked is seen. */
export function watchMoves(page) {
  if (sentMoves.has(page)) return;
  sentMoves.set(page, 0);
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith(SERVICE_APPLY))
      sentMoves.set(page, sentMoves.get(page) + 1);
  });
}

/** How many moves the page has sent so far. */
export function movesSent(page) {
  return sentMoves.get(page) ?? 0;
}

/** The first element matching `selector` whose aria-label matches `label` (any when omitted). */
async function find(page, selector, label) {
  const handle = await page.evaluateHandle(
    (css, source) => {
      const pattern = source === undefined ? undefined : new RegExp(source);
      return (
        [...document.querySelectorAll(css)].find(
          (element) => pattern === undefined || pattern.test(element.getAttribute("aria-label") ?? ""),
        ) ?? null
      );
    },
    selector,
    label?.source,
  );
  return handle.asElement();
}

/** Click an element after scrolling it to the middle of the screen (clear of the phone's log strip). */
async function press(element) {
  await element.evaluate((node) => node.scrollIntoView({ block: "center" }));
  await element.click();
}

const kindOf = (element) => element.evaluate((node) => node.dataset.actionKind ?? "");
const whereOf = (element) =>
  element.evaluate((node) =>
    node.dataset.cardId !== undefined
      ? "card"
      : node.dataset.deck !== undefined
        ? "deck"
        : node.dataset.nobleId !== undefined
          ? "noble"
          : node.dataset.cityId !== undefined
            ? "city"
            : "other",
  );

/**
 * Click a thing on the table, then its menu's choice (`kind`, else the first). The click on the
 * thing itself must only open the menu: a move sent before the menu's choice fails the game.
 */
async function choose(page, thing, kind) {
  const where = await whereOf(thing);
  watchMoves(page);
  const sent = movesSent(page);
  await press(thing);
  await page.waitForSelector(".choice-menu [data-action-id]");
  // Let a stray request (if the click sent one) reach the page's request log before counting.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  if (movesSent(page) !== sent) throw new Error(`a click on a ${where} sent a move before its menu's choice`);
  const item =
    (kind === undefined ? null : await page.$(`.choice-menu [data-action-kind="${kind}"]`)) ??
    (await page.$(".choice-menu [data-action-id]"));
  const chosen = await kindOf(item);
  const text = await item.evaluate((node) => node.textContent);
  await press(item);
  return { where, kind: chosen, text };
}

/** Pick tokens one at a time (`attribute`: data-gem for the bank, data-own-gem for your own), then Confirm. */
async function pickTokens(page, attribute) {
  for (let picks = 0; picks < 12; picks += 1) {
    // A new colour while one fits (three different gems), then whatever completes the pick.
    const next = await page.evaluate((name) => {
      const picked = [...document.querySelectorAll("[data-picked]")].map((node) => node.dataset.picked);
      const enabled = [...document.querySelectorAll(`[${name}]:not([disabled])`)].map((node) =>
        node.getAttribute(name),
      );
      const confirm = document.querySelector("[data-confirm]:not([disabled])") !== null;
      const fresh = enabled.find((colour) => !picked.includes(colour));
      if (confirm && (picked.length >= 3 || fresh === undefined)) return "confirm";
      return fresh ?? enabled[0] ?? `none after ${picked.join(", ")}`;
    }, attribute);
    if (next.startsWith("none")) throw new Error(`the pick cannot be completed: ${next}`);
    const button = await page.$(next === "confirm" ? "[data-confirm]" : `[${attribute}="${next}"]`);
    const kind = await kindOf(button);
    await press(button);
    if (next === "confirm") return { where: attribute === "data-gem" ? "bank" : "own tokens", kind };
  }
  throw new Error("no pick was confirmed after 12 clicks");
}

/** Make one move by clicking; returns where it was made and the action's kind. */
export async function clickOneMove(page) {
  // A card with an ability first (the Orient's), so its decisions come up too.
  const buy =
    (await find(page, "[data-card-id][data-choices]:has(.ability)", /\bBuy\b/)) ??
    (await find(page, "[data-card-id][data-choices]", /\bBuy\b/));
  if (buy !== null) return choose(page, buy, "purchaseCard");
  const picking = await page.evaluate(() =>
    document.querySelector("[data-own-gem]") !== null
      ? "data-own-gem"
      : document.querySelector("[data-gem]:not([disabled])") !== null
        ? "data-gem"
        : undefined,
  );
  if (picking !== undefined) return pickTokens(page, picking);
  const thing = await page.$("[data-choices]");
  if (thing !== null) return choose(page, thing);
  const prompt = await page.$(".moves .move-list [data-action-id]");
  if (prompt !== null) {
    const kind = await kindOf(prompt);
    await press(prompt);
    return { where: "prompt", kind };
  }
  throw new Error(`no move offered: ${await page.$eval("#status", (node) => node.textContent)}`);
}

/** Wait until the page is not busy (a human may move, the game is over, or an error shows). */
export async function settled(page) {
  await page.waitForFunction(
    () => ["ready", "over", "setup", "replay", "handover", "stalled"].includes(document.body.dataset.state ?? ""),
    { timeout: 60_000 },
  );
  return page.evaluate(() => document.body.dataset.state);
}

const MAX_MOVES = 600;

/**
 * Play by clicking until the game is over, or until `limit` moves are made; in a hot-seat game
 * also the hand-over screens. `onTurn(page)` runs each time the page waits for a move, before it
 * is made. Returns each move's `{ where, kind, text }` (`text`: the menu's words for it).
 */
export async function playByClicking(page, limit = MAX_MOVES, { onTurn } = {}) {
  const made = [];
  for (;;) {
    const state = await settled(page);
    if (state === "over" || (made.length === limit && state !== "handover")) return made;
    if (made.length === MAX_MOVES) throw new Error(`the game was not over after ${MAX_MOVES} moves`);
    if (state === "handover") {
      await page.click(".handover button");
      continue;
    }
    if (state !== "ready") throw new Error(`page ${state}: ${await page.$eval("#alert", (node) => node.textContent)}`);
    await onTurn?.(page);
    const before = await page.evaluate(() => document.querySelectorAll(".log-lines li").length);
    made.push(await clickOneMove(page));
    await page.waitForFunction(
      (count) => document.body.dataset.state !== "ready" || document.querySelectorAll(".log-lines li").length > count,
      { timeout: 60_000 },
      before,
    );
  }
}
