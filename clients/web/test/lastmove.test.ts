/** Each seat's last move, from the events in order: a move runs to its seat's turnEnded. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { create, type Event, EventSchema } from "splendor-engine-client";
import { LastMoves } from "../src/lastmove.js";

// The event's oneof from plain values, as the engine's JSON would give them.
const event = (kind: { case: string; value: object }): Event => create(EventSchema, { kind } as never);

test("a purchase with its payment, the card revealed in its slot, a noble: one move until the turn ends", () => {
  const moves = new LastMoves();
  moves.take([
    event({ case: "cardPurchased", value: { seat: 1, cardId: 7, payment: { red: 2, gold: 1 } } }),
    event({ case: "cardRevealed", value: { deck: 0, slot: 2, cardId: 9 } }),
    event({ case: "nobleVisited", value: { seat: 1, nobleId: 4 } }),
    event({ case: "turnEnded", value: { seat: 1, nextSeat: 0, turn: 1 } }),
  ]);
  const move = moves.of(1)!;
  assert.deepEqual([move.bought, move.revealed, move.nobles], [[7], [9], [4]]);
  assert.deepEqual(move.paid, { white: 0, blue: 0, green: 0, red: 2, black: 0, gold: 1 });
  assert.equal(moves.latest, 1);
  // The next move of the same seat replaces it; another seat's is kept beside it.
  moves.take([
    event({ case: "gemsTaken", value: { seat: 0, tokens: { white: 1, blue: 1, green: 1 } } }),
    event({ case: "turnEnded", value: { seat: 0, nextSeat: 1, turn: 2 } }),
    event({ case: "cardReserved", value: { seat: 1, deck: 2, blind: true } }),
    event({ case: "goldReceived", value: { seat: 1, amount: 1 } }),
  ]);
  assert.equal(moves.latest, 1);
  assert.deepEqual(moves.of(1)?.reserved, [{ deck: 2 }]);
  assert.deepEqual([moves.of(1)?.bought, moves.of(1)?.taken.gold], [[], 1]);
  assert.equal(moves.of(0)?.taken.white, 1);
  // A decision later in the same turn belongs to the same move.
  moves.take([event({ case: "gemsReturned", value: { seat: 1, tokens: { gold: 1 } } })]);
  assert.deepEqual([moves.of(1)?.reserved.length, moves.of(1)?.paid.gold], [1, 1]);
});

test("a conquest or a free card reported with a purchase counts once", () => {
  const moves = new LastMoves();
  moves.take([
    event({ case: "cardPurchased", value: { seat: 0, cardId: 3 } }),
    event({ case: "cardConquered", value: { seat: 0, cardId: 3 } }),
    event({ case: "freeCardTaken", value: { seat: 0, cardId: 5 } }),
  ]);
  assert.deepEqual(moves.of(0)?.bought, [3, 5]);
});
