/** Legal actions go on what they are about; events and actions read as the viewer may see them. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { actions, CatalogSchema, create, EventSchema, LegalActionSchema } from "splendor-engine-client";
import { CatalogIndex } from "../src/catalog.js";
import { Describer } from "../src/describe.js";
import { sortMoves } from "../src/moves.js";

const catalog = new CatalogIndex(
  create(CatalogSchema, {
    cards: [
      { id: 7, level: 2, deck: 1, bonus: 4, bonusCount: 1, points: 2, kind: 1, cost: { white: 3, blue: 2 } },
      { id: 8, level: 1, deck: 0, bonus: 1, bonusCount: 1, points: 0, kind: 1, cost: { black: 3 } },
      { id: 90, level: 1, deck: 3, bonus: 0, bonusCount: 0, points: 0, kind: 2, cost: { red: 3 } },
      { id: 95, level: 2, deck: 4, bonus: 3, bonusCount: 2, points: 0, kind: 5, cost: { white: 4, red: 3 } },
    ],
    nobles: [{ id: 4, points: 3, requirement: { red: 4, green: 4 } }],
  }),
);
const describer = new Describer(catalog, (seat) => (seat === 0 ? "you" : `Player ${seat + 1}`));
const legal = (actionId: number, action: ReturnType<typeof actions.takeTwo>) =>
  create(LegalActionSchema, { actionId, action });

const price = { tokens: { white: 0, blue: 1, green: 0, red: 2, black: 0, gold: 1 }, goldCards: 0 };

test("buying (first, with its price) and reserving (with its gold) go on the card, a blind reserve on its deck, gems to the bank's pick", () => {
  const moves = sortMoves(
    [
      legal(1, actions.takeGems("white", "blue", "green")),
      legal(2, actions.takeTwo("red")),
      legal(3, actions.reserve(7)),
      legal(4, actions.purchase(7)),
      legal(5, actions.reserveFromDeck(1)),
    ],
    describer,
    { priceOf: (cardId) => (cardId === 7 ? price : undefined), bankGold: 3 },
  );
  assert.deepEqual(
    moves.onCards.get(7)?.map((choice) => [choice.short, choice.action.actionId]),
    [
      ["Buy for 1 blue + 2 red + 1 gold", 4],
      ["Reserve (+1 gold)", 3],
    ],
  );
  assert.equal(moves.onCards.get(7)?.[0]?.price, price);
  assert.equal(moves.onDecks.get(1)?.short, "Reserve the top card, face down (+1 gold)");
  const noGold = sortMoves([legal(3, actions.reserve(7))], describer, { priceOf: () => undefined, bankGold: 0 });
  assert.deepEqual(
    noGold.onCards.get(7)?.map((choice) => choice.short),
    ["Reserve (no gold left)"],
  );
  assert.equal(moves.onDecks.get(1)?.action.actionId, 5);
  assert.equal(moves.pick?.source, "bank");
  assert.deepEqual(
    moves.pick?.options.map((option) => [option.tokens, option.action.actionId]),
    [
      [["white", "blue", "green"], 1],
      [["red", "red"], 2],
    ],
  );
  assert.deepEqual(moves.prompts, []);
  assert.equal(moves.count, 5);
});

test("a decision's answers go on their card or noble, tokens to give back to your own pick, decline to a prompt", () => {
  const moves = sortMoves(
    [
      legal(9, actions.purchase(7)),
      legal(10, actions.placeStronghold(8, 7)),
      legal(11, actions.pairCard(8)),
      legal(12, actions.chooseNoble(4)),
      legal(13, actions.returnTokens({ gold: 1, red: 1 })),
      legal(14, actions.decline()),
    ],
    describer,
  );
  assert.deepEqual(
    moves.onCards.get(8)?.map((choice) => choice.short),
    ["Move a stronghold here from a level 2 red card, 2 points (cost 3 white, 2 blue)", "Pair with this card"],
  );
  assert.deepEqual(
    moves.onNobles.get(4)?.map((choice) => choice.label),
    ["Choose the noble for 4 green, 4 red bonuses (3 points)"],
  );
  assert.deepEqual(moves.pick?.source, "own");
  assert.deepEqual(moves.pick?.options[0]?.tokens, ["red", "gold"]);
  assert.deepEqual(
    moves.prompts.map((choice) => choice.label),
    ["Decline"],
  );
});

test("cards are told apart by level, bonus, points and cost, never by their id", () => {
  assert.equal(catalog.cardName(7), "a level 2 red card, 2 points (cost 3 white, 2 blue)");
  assert.equal(catalog.cardLabel(8), "a level 1 white card, costs 3 black");
  assert.equal(catalog.cardName(90), "an Orient level 1 card with no bonus, worth 2 gold once (cost 3 red)");
  assert.equal(catalog.cardName(95), "an Orient level 2 card with 2 green bonuses (cost 4 white, 3 red)");
  assert.doesNotMatch(describer.action(actions.purchase(7)), /\b7\b/);
});

test("another seat's blind reserve names no card; the viewer's own does", () => {
  const theirs = create(EventSchema, { kind: { case: "cardReserved", value: { seat: 1, deck: 1, blind: true } } });
  assert.equal(describer.event(theirs), "Player 2 reserved a face-down level 2 card.");
  const mine = create(EventSchema, {
    kind: { case: "cardReserved", value: { seat: 0, deck: 1, blind: true, cardId: 7 } },
  });
  assert.equal(
    describer.event(mine),
    "You reserved a level 2 red card, 2 points (cost 3 white, 2 blue) from the top of the deck.",
  );
});
