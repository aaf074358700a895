/** Picking tokens one at a time: only picks on the way to a legal set can be made, and only a legal set is played. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { create, LegalActionSchema, type TokenName } from "splendor-engine-client";
import { canAdd, matching, type TokenOption, without } from "../src/picker.js";

const option = (actionId: number, ...tokens: TokenName[]): TokenOption => ({
  tokens,
  action: create(LegalActionSchema, { actionId }),
});

// Three different of white, blue, green (the bank has no other colour), or two blue.
const OPTIONS = [option(0, "white", "blue", "green"), option(25, "blue", "blue")];

test("a colour can be added only while some legal take still holds the pick", () => {
  assert.equal(canAdd(OPTIONS, [], "red"), false, "red is in no legal take");
  assert.equal(canAdd(OPTIONS, [], "blue"), true);
  assert.equal(canAdd(OPTIONS, ["blue"], "blue"), true, "two blue");
  assert.equal(canAdd(OPTIONS, ["white"], "white"), false, "two white is not legal here");
  assert.equal(canAdd(OPTIONS, ["blue", "blue"], "white"), false, "two of a colour ends the pick");
  assert.equal(canAdd(OPTIONS, ["white", "blue", "green"], "green"), false);
});

test("only a pick that is exactly a legal take is played", () => {
  assert.equal(matching(OPTIONS, ["white", "blue"]), undefined, "two different while three are possible");
  assert.equal(matching(OPTIONS, ["green", "white", "blue"])?.actionId, 0, "in any order");
  assert.equal(matching(OPTIONS, ["blue", "blue"])?.actionId, 25);
  assert.equal(matching(OPTIONS, []), undefined);
});

test("a token taken back out of the pick leaves the others", () => {
  assert.deepEqual(without(["blue", "white", "blue"], "blue"), ["white", "blue"]);
  assert.deepEqual(without(["white"], "red"), ["white"]);
});
