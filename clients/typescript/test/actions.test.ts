/** The action builders build the messages the contract describes, and refuse what cannot be built. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import * as actions from "../src/actions.js";
import { LegalActionSchema } from "../src/gen/splendor/v1/actions_pb.js";
import { Color } from "../src/gen/splendor/v1/common_pb.js";

test("takeGems takes colour names in any case, with or without COLOR_, and Color values", () => {
  const move = actions.takeGems("red", "BLUE", "color_green", Color.WHITE);
  assert.equal(move.kind.case, "takeGems");
  assert.deepEqual(move.kind.value.colors, [Color.RED, Color.BLUE, Color.GREEN, Color.WHITE]);
});

test("an unknown colour or Color.UNSPECIFIED is refused before anything is sent", () => {
  assert.throws(() => actions.takeTwo("purple"), RangeError);
  assert.throws(() => actions.takeGem(Color.UNSPECIFIED), RangeError);
});

test("reserveFromDeck takes the protocol's deck id (0 is level 1) or a level", () => {
  assert.deepEqual(actions.reserveFromDeck({ level: 1 }), actions.reserveFromDeck(0));
  const move = actions.reserveFromDeck({ level: 3 });
  assert.equal(move.kind.case === "reserveFromDeck" && move.kind.value.deck, 2);
  assert.throws(() => actions.reserveFromDeck({ level: 4 as 3 }), RangeError);
});

test("purchase leaves payment and spent cards to the engine unless given, and sends an empty list as given", () => {
  const plain = actions.purchase(57);
  assert.ok(plain.kind.case === "purchaseCard");
  assert.equal(plain.kind.value.payment, undefined);
  assert.equal(plain.kind.value.cardsSpent, undefined);
  const paid = actions.buy(57, { payment: { red: 3, gold: 1 }, cardsSpent: [] });
  assert.ok(paid.kind.case === "purchaseCard");
  assert.equal(paid.kind.value.payment?.red, 3);
  assert.equal(paid.kind.value.payment?.gold, 1);
  assert.deepEqual(paid.kind.value.cardsSpent?.cardIds, []);
});

test("returnTokens refuses unknown colours and negative counts", () => {
  const move = actions.returnTokens({ red: 1, gold: 1 });
  assert.ok(move.kind.case === "returnTokens");
  assert.equal(move.kind.value.tokens?.gold, 1);
  assert.throws(() => actions.returnTokens({ red: -1 }), RangeError);
  assert.throws(() => actions.returnTokens({ purple: 1 } as never), RangeError);
});

test("ids must be non-negative integers; 0 is an id like any other", () => {
  assert.throws(() => actions.reserve(-1), RangeError);
  assert.throws(() => actions.chooseNoble(1.5), RangeError);
  const move = actions.reserve(0);
  assert.ok(move.kind.case === "reserveCard");
  assert.equal(move.kind.value.cardId, 0);
});

test("placeStronghold places from the supply unless a card to move from is given", () => {
  const fromSupply = actions.placeStronghold(12);
  assert.ok(fromSupply.kind.case === "placeStronghold");
  assert.equal(fromSupply.kind.value.fromCardId, undefined);
  const moved = actions.placeStronghold(12, 0);
  assert.ok(moved.kind.case === "placeStronghold");
  assert.equal(moved.kind.value.fromCardId, 0);
});

test("every decision answer builds its own kind", () => {
  assert.equal(actions.kind(actions.passTurn()), "pass");
  assert.equal(actions.kind(actions.pass()), "pass");
  assert.equal(actions.kind(actions.chooseNoble(1)), "chooseNoble");
  assert.equal(actions.kind(actions.chooseCity(1)), "chooseCity");
  assert.equal(actions.kind(actions.takeGem("red")), "takeGem");
  assert.equal(actions.kind(actions.removeStronghold(3)), "removeStronghold");
  assert.equal(actions.kind(actions.decline()), "decline");
  assert.equal(actions.kind(actions.pairCard(3)), "pairCard");
  assert.equal(actions.kind(actions.takeFreeCard(3)), "takeFreeCard");
  assert.equal(actions.kind(actions.reserveNoble(3)), "reserveNoble");
});

test("asAction takes an Action, a LegalAction (its action, else its id) or an action id", () => {
  const move = actions.takeTwo("red");
  assert.equal(actions.asAction(move), move);
  assert.equal(actions.asAction(create(LegalActionSchema, { actionId: 7, action: move })), move);
  assert.deepEqual(actions.asAction(create(LegalActionSchema, { actionId: 7 })), actions.byId(7));
  const byId = actions.asAction(0);
  assert.ok(byId.kind.case === "actionId");
  assert.equal(byId.kind.value, 0);
});
