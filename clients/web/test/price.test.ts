/** A purchase's default payment, stated before it is made, module by module. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CatalogSchema, create, GameViewSchema, Module, TradingPostPower } from "splendor-engine-client";
import { CatalogIndex } from "../src/catalog.js";
import { buyText, goldOf, priceOf } from "../src/price.js";

const catalog = new CatalogIndex(
  create(CatalogSchema, {
    cards: [
      { id: 1, level: 2, deck: 1, bonus: 4, bonusCount: 1, points: 2, kind: 1, cost: { white: 3, red: 2 } },
      { id: 2, level: 1, deck: 3, bonus: 0, bonusCount: 0, points: 0, kind: 2, cost: { blue: 3 } },
      { id: 3, level: 2, deck: 4, bonus: 4, bonusCount: 1, points: 3, kind: 8, sacrificeColor: 4, sacrificeCount: 2 },
    ],
    tradingPosts: [{ id: 2, power: TradingPostPower.GOLD_WORTH_TWO, requirement: { blue: 3 } }],
  }),
);
const card = (id: number) => catalog.cards.get(id)!;
const viewWith = (player: object, extra: object = {}) =>
  create(GameViewSchema, { numPlayers: 2, players: [player, {}], ...extra });

test("the base rule: bonuses first, then coloured tokens, gold for the rest", () => {
  const view = viewWith({ tokens: { white: 1, red: 2, gold: 2 }, bonuses: { white: 1 } });
  const price = priceOf(catalog, view, 0, card(1));
  assert.deepEqual(price.tokens, { white: 1, blue: 0, green: 0, red: 2, black: 0, gold: 1 });
  assert.equal(buyText(price), "Buy for 1 white + 2 red + 1 gold");
  assert.equal(goldOf(price), 1);
  const free = priceOf(catalog, viewWith({ bonuses: { white: 3, red: 2 } }), 0, card(1));
  assert.equal(buyText(free), "Buy for free (your bonuses pay)");
});

test("a Trading Posts shield on the gold-worth-two post: a gold pays two gems of one colour", () => {
  const player = { tokens: { gold: 2 }, bonuses: {} };
  const without = priceOf(
    catalog,
    viewWith(player, { modules: [Module.TRADING_POSTS], tradingPosts: { shields: [{}, {}] } }),
    0,
    card(1),
  );
  assert.equal(without.tokens.gold, 5);
  const shields = { shields: [{ postIds: [2] }, {}] };
  const price = priceOf(
    catalog,
    viewWith(player, { modules: [Module.TRADING_POSTS], tradingPosts: shields }),
    0,
    card(1),
  );
  assert.equal(buyText(price), "Buy for 3 gold"); // white 3 -> 2 gold, red 2 -> 1 gold
});

test("the Orient: gold tokens before gold cards, the fewest cards; a sacrifice costs bonuses", () => {
  const orient = { modules: [Module.ORIENT], orient: { pairs: [], reservedNobles: [], discarded: [{}, {}] } };
  const player = { tokens: { gold: 1 }, bonuses: {}, purchasedCardIds: [2] };
  const price = priceOf(catalog, viewWith(player, orient), 0, card(1));
  assert.deepEqual([price.tokens.gold, price.goldCards], [1, 2]);
  assert.equal(buyText(price), "Buy for 1 gold + 2 gold cards");
  const spent = { ...orient, orient: { ...orient.orient, discarded: [{ cardIds: [2] }, {}] } };
  assert.equal(priceOf(catalog, viewWith(player, spent), 0, card(1)).goldCards, 0, "a gold card given up is gone");
  assert.equal(buyText(priceOf(catalog, viewWith(player, orient), 0, card(3))), "Buy by giving up 2 red bonuses");
});
