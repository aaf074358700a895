/** Legal actions go where a player looks for them; events read as the viewer may see them. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { actions, CatalogSchema, create, EventSchema, LegalActionSchema } from "splendor-engine-client";
import { CatalogIndex } from "../src/catalog.js";
import { Describer } from "../src/describe.js";
import { sortMoves } from "../src/moves.js";

const catalog = new CatalogIndex(
  create(CatalogSchema, {
    cards: [{ id: 7, level: 2, deck: 1, bonus: 4, bonusCount: 1, points: 2, kind: 1, cost: { white: 3, blue: 2 } }],
  }),
);
const describer = new Describer(catalog, (seat) => (seat === 0 ? "you" : `player ${seat + 1}`));
const legal = (actionId: number, action: ReturnType<typeof actions.takeTwo>) =>
  create(LegalActionSchema, { actionId, action });

test("buying and reserving go on the card, a blind reserve on its deck, the rest in the panel", () => {
  const moves = sortMoves(
    [
      legal(1, actions.takeGems("white", "blue", "green")),
      legal(2, actions.takeTwo("red")),
      legal(3, actions.reserve(7)),
      legal(4, actions.purchase(7)),
      legal(5, actions.reserveFromDeck(1)),
    ],
    describer,
    false,
  );
  assert.deepEqual(
    moves.onCards.get(7)?.map((move) => [move.short, move.action.actionId]),
    [
      ["Reserve", 3],
      ["Buy", 4],
    ],
  );
  assert.equal(moves.onDecks.get(1)?.action.actionId, 5);
  assert.deepEqual(
    moves.groups.map((group) => [group.title, group.actions.map((entry) => entry.label)]),
    [
      ["Take three different gems", ["Take 1 white, 1 blue, 1 green"]],
      ["Take two gems of one colour", ["Take 2 red"]],
    ],
  );
  assert.equal(moves.count, 5);
});

test("while a decision is pending every answer is in the panel, purchases too (the Strongholds' conquest)", () => {
  const moves = sortMoves([legal(9, actions.purchase(7)), legal(10, actions.decline())], describer, true);
  assert.equal(moves.onCards.size, 0);
  assert.deepEqual(
    moves.groups[0]?.actions.map((entry) => entry.label),
    ["Buy card 7 (level 2, red bonus, 2 points)", "Decline"],
  );
});

test("another seat's blind reserve names no card; the viewer's own does", () => {
  const theirs = create(EventSchema, { kind: { case: "cardReserved", value: { seat: 1, deck: 1, blind: true } } });
  assert.equal(describer.event(theirs), "Player 2 reserved a face-down level 2 card.");
  const mine = create(EventSchema, {
    kind: { case: "cardReserved", value: { seat: 0, deck: 1, blind: true, cardId: 7 } },
  });
  assert.equal(describer.event(mine), "You reserved card 7 (level 2, red bonus, 2 points) from the top of the deck.");
});
