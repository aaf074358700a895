// Checks of what the page marks on the table, against the engine's own answers: the cards marked
// as affordable (and as only reservable) against the legal actions the engine lists for the same
// token, the price a purchase's menu stated against the payment the engine reported, each bot's
// last move against the events of its moves, and the log's numbers in full. The page speaks
// Connect JSON: zero values are left out (a missing seat or card id is 0).
import assert from "node:assert/strict";

const SERVICE = "/splendor.v1.EngineService/";
/** The events that are part of a seat's move (the seat they name made it). */
const MOVE_EVENTS = new Set([
  "gemsTaken",
  "gemsReturned",
  "cardReserved",
  "goldReceived",
  "cardPurchased",
  "nobleVisited",
  "passed",
  "cityClaimed",
  "powerGemTaken",
  "shieldPlaced",
  "strongholdPlaced",
  "strongholdRemoved",
  "cardConquered",
  "cardPaired",
  "freeCardTaken",
  "nobleReserved",
  "cardsDiscarded",
]);
const TOKENS = ["white", "blue", "green", "red", "black", "gold"];

async function call(url, method, body) {
  const response = await fetch(`${url}${SERVICE}${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${method}: HTTP ${response.status}`);
  return response.json();
}

const parsed = new WeakMap();

/** The recorded responses, read, with their request bodies (only the answered ones; each parsed once). */
async function answered(received) {
  const responses = await Promise.all(received);
  return responses
    .filter((response) => response.status === 200 && response.text !== undefined)
    .map((response) => {
      if (!parsed.has(response)) parsed.set(response, { ...response, body: JSON.parse(response.text) });
      return parsed.get(response);
    });
}

/** The game token the page holds now, and the seat keys it was dealt. */
async function latestGame(received) {
  let token;
  let keys;
  for (const { body } of await answered(received)) {
    if (body.seatKeys !== undefined) keys = body.seatKeys;
    if (body.sealedState !== undefined) token = body.sealedState;
  }
  return { token, keys };
}

const sorted = (values) => [...values].map(Number).sort((a, b) => a - b);

/**
 * The cards marked as affordable on the table are exactly those the engine lists a purchase of,
 * and those marked as only reservable exactly those it lists a reserve (and no purchase) of.
 * Returns how many cards could be bought.
 */
export async function checkAffordableMarks(page, url, received, seat) {
  const { token, keys } = await latestGame(received);
  const listed = await call(url, "ListLegalActions", { sealedState: token, seat, seatKey: keys[seat] });
  const buy = new Set();
  const reserve = new Set();
  for (const { action } of listed.actions ?? []) {
    if (action?.purchaseCard !== undefined) buy.add(Number(action.purchaseCard.cardId ?? 0));
    if (action?.reserveCard !== undefined) reserve.add(Number(action.reserveCard.cardId ?? 0));
  }
  const marked = await page.evaluate(() => {
    const ids = (selector) => [...document.querySelectorAll(selector)].map((node) => node.dataset.cardId);
    return {
      buy: ids(".board [data-card-id].affordable"),
      badge: ids(".board [data-card-id]:has(> .offer-buy)"),
      reserve: ids(".board [data-card-id].reservable"),
    };
  });
  assert.deepEqual(sorted(marked.buy), sorted(buy), "the cards marked affordable are the engine's purchases");
  assert.deepEqual(sorted(marked.badge), sorted(buy), "the cards that say Buy are the engine's purchases");
  const reserveOnly = [...reserve].filter((id) => !buy.has(id));
  assert.deepEqual(sorted(marked.reserve), sorted(reserveOnly), "the cards marked reservable only");
  return buy.size;
}

/** `"2 red + 1 gold"`: a payment as the menus state it. */
function paymentText(payment, goldCards) {
  const parts = TOKENS.filter((name) => (payment?.[name] ?? 0) > 0).map((name) => `${payment[name]} ${name}`);
  if (goldCards > 0) parts.push(`${goldCards} gold card${goldCards === 1 ? "" : "s"}`);
  return parts.join(" + ");
}

/**
 * Each purchase the player made from a card's menu was stated there as the engine then made it:
 * the tokens of its CardPurchased payment and the gold cards its CardsDiscarded gave up (a
 * sacrifice card: the bonuses given up). Returns how many were checked.
 */
export async function checkPurchasePrices(moves, received, seat) {
  const responses = await answered(received);
  const { catalog } = responses.find((response) => response.method === "GetCatalog").body;
  const cards = new Map((catalog.cards ?? []).map((card) => [Number(card.id ?? 0), card]));
  const stated = moves.filter(({ kind }) => kind === "purchaseCard").map(({ text }) => text);
  const made = [];
  for (const { method, request, body } of responses) {
    if (method !== "ApplyAction" || request?.action?.purchaseCard === undefined) continue;
    const events = body.events ?? [];
    const bought = events.find(
      (event) => event.cardPurchased !== undefined && (event.cardPurchased.seat ?? 0) === seat,
    );
    const card = cards.get(Number(bought.cardPurchased.cardId ?? 0));
    if (card.kind === "CARD_KIND_SACRIFICE") {
      made.push(`Buy by giving up ${card.sacrificeCount}`);
      continue;
    }
    const given = events.flatMap((event) =>
      event.cardsDiscarded !== undefined && (event.cardsDiscarded.seat ?? 0) === seat
        ? event.cardsDiscarded.cardIds
        : [],
    );
    const goldCards = given.filter((id) => cards.get(Number(id))?.kind === "CARD_KIND_GOLD_X2").length;
    const text = paymentText(bought.cardPurchased.payment, goldCards);
    made.push(text === "" ? "Buy for free (your bonuses pay)" : `Buy for ${text}`);
  }
  assert.equal(stated.length, made.length, "one stated price per purchase");
  stated.forEach((text, index) =>
    made[index].startsWith("Buy by giving up")
      ? assert.ok(text.startsWith(made[index]), `${text} / ${made[index]}`)
      : assert.equal(text, made[index], `purchase ${index + 1}`),
  );
  return made.length;
}

/** What a seat's events say its move did: cards taken, tokens received and paid, nobles and cities. */
function expectedMove(events, seat) {
  const move = { cards: new Set(), taken: {}, paid: {}, nobles: new Set(), cities: new Set() };
  const add = (into, name, count) => (into[name] = (into[name] ?? 0) + count);
  for (const event of events) {
    const [kind, value] = Object.entries(event)[0];
    if ((value.seat ?? 0) !== seat) continue;
    if (kind === "gemsTaken") for (const name of TOKENS) add(move.taken, name, value.tokens?.[name] ?? 0);
    if (kind === "goldReceived") add(move.taken, "gold", value.amount ?? 0);
    if (kind === "powerGemTaken") add(move.taken, value.color.replace("COLOR_", "").toLowerCase(), 1);
    if (kind === "gemsReturned") for (const name of TOKENS) add(move.paid, name, value.tokens?.[name] ?? 0);
    if (kind === "cardPurchased") for (const name of TOKENS) add(move.paid, name, value.payment?.[name] ?? 0);
    if (
      ["cardPurchased", "cardReserved", "freeCardTaken", "cardConquered"].includes(kind) &&
      value.cardId !== undefined
    )
      move.cards.add(Number(value.cardId));
    if (kind === "cardPurchased" && value.cardId === undefined) move.cards.add(0);
    if (kind === "nobleVisited") move.nobles.add(Number(value.nobleId ?? 0));
    if (kind === "cityClaimed") move.cities.add(Number(value.cityId ?? 0));
  }
  for (const counts of [move.taken, move.paid]) for (const name of TOKENS) if (counts[name] === 0) delete counts[name];
  return move;
}

/**
 * Each bot that moved since the player's last move shows that move on its place at the table:
 * the cards it took, the tokens it received and paid, the noble or city that came; the bot that
 * moved last is marked as the last move. Returns how many bot moves were checked.
 */
export async function checkLastMoves(page, received, human) {
  const responses = (await answered(received)).filter(({ method }) => method === "ApplyAction");
  const lastHuman = responses.findLastIndex(({ request }) => request?.bot === undefined);
  const botCalls = responses.slice(lastHuman + 1).filter(({ request }) => request?.bot !== undefined);
  if (botCalls.length === 0) return 0;
  const events = botCalls
    .flatMap(({ body }) => body.events ?? [])
    .filter((event) => MOVE_EVENTS.has(Object.keys(event)[0]));
  const seats = new Set(events.map((event) => Object.values(event)[0].seat ?? 0));
  seats.delete(human);
  let checked = 0;
  for (const seat of seats) {
    const expected = expectedMove(events, seat);
    const shown = await page.evaluate((where) => {
      const strip = document.querySelector(`[data-last-move="${where}"]`);
      if (strip === null) return null;
      const counts = (kind) =>
        Object.fromEntries(
          [...strip.querySelectorAll(`[data-moved="${kind}"] [data-token]`)].map((node) => [
            node.dataset.token,
            Number(node.querySelector(".n").textContent),
          ]),
        );
      const ids = (attribute) =>
        [...strip.querySelectorAll(`[${attribute}]`)].map((node) => Number(node.getAttribute(attribute)));
      return {
        latest: strip.classList.contains("latest"),
        cards: ids("data-card-id"),
        faceDown: strip.querySelectorAll(".face-down").length,
        taken: counts("taken"),
        paid: counts("paid"),
        nobles: ids("data-noble-id"),
        cities: ids("data-city-id"),
      };
    }, seat);
    assert.ok(shown !== null, `seat ${seat} moved but its last move is not shown`);
    const cards = [...expected.cards].filter((id) => id !== 0);
    assert.deepEqual(sorted(shown.cards.filter((id) => cards.includes(id))), sorted(cards), `seat ${seat}'s cards`);
    assert.deepEqual(shown.taken, expected.taken, `seat ${seat}'s tokens received`);
    assert.deepEqual(shown.paid, expected.paid, `seat ${seat}'s tokens paid`);
    assert.deepEqual(sorted(shown.nobles), sorted(expected.nobles), `seat ${seat}'s nobles`);
    assert.deepEqual(sorted(shown.cities), sorted(expected.cities), `seat ${seat}'s cities`);
    checked += 1;
  }
  const lastSeat = events.length === 0 ? human : (Object.values(events[events.length - 1])[0].seat ?? 0);
  if (lastSeat !== human)
    assert.ok(
      await page.$eval(`[data-last-move="${lastSeat}"]`, (node) => node.classList.contains("latest")),
      `seat ${lastSeat} moved last but its move is not marked as the last`,
    );
  return checked;
}

/** Every line of the log shows its whole number (1, 2, ... 100, 101: none clipped). */
export async function checkLogNumbers(page) {
  const numbers = await page.$$eval(".log-lines li", (items) =>
    items.map((item) => {
      const number = item.querySelector(".n");
      const box = number.getBoundingClientRect();
      const list = item.parentElement.getBoundingClientRect();
      return {
        text: number.textContent,
        clipped: number.scrollWidth > number.clientWidth || box.left < list.left - 0.5,
      };
    }),
  );
  numbers.forEach(({ text, clipped }, index) => {
    assert.equal(text, String(index + 1));
    assert.equal(clipped, false, `log line ${index + 1}'s number is clipped`);
  });
  return numbers.length;
}

/** No empty market slot is drawn as a card: it says it is refilled after the move, or that its deck is empty. */
export async function checkEmptySlots(page) {
  const slots = await page.$$eval(".market-row > :not(.card-back):not([data-card-id])", (nodes) =>
    nodes.map((node) => ({ className: node.className, text: node.textContent })),
  );
  for (const slot of slots) {
    assert.equal(slot.className, "slot-empty");
    assert.match(slot.text, /^(refilled after this move|no card left)$/);
  }
  return slots.length;
}
