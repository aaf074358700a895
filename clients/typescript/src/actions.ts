/**
 * Builders of `Action` messages, so a move reads like the rules (mirroring the Python
 * client's `splendor_client.actions`).
 *
 *     takeGems("red", "blue", "green")
 *     purchase(57, { payment: { red: 3, gold: 1 } })
 *     reserveFromDeck(0)          // deck 0 is the level 1 deck
 *     takeGem("red")              // the answer to a Trading Posts TAKE_GEM decision
 *
 * The builders check only what they need to build a message (colour names, ids and counts
 * that are non-negative integers); whether the move is legal is for the engine to say.
 * Everything that takes an action (`EngineClient.apply`, `EngineClient.replay`) also
 * accepts a `LegalAction` or a bare action id: see `asAction`.
 */
import { create, isMessage } from "@bufbuild/protobuf";
import {
  type Action,
  ActionSchema,
  type LegalAction,
  LegalActionSchema,
  PurchaseCardSchema,
  SpentCardsSchema,
} from "./gen/splendor/v1/actions_pb.js";
import { color, type ColorLike, type Counts, tokenCounts } from "./colors.js";
import type { TokenCounts } from "./gen/splendor/v1/common_pb.js";

/** An `Action`, a `LegalAction` (its `action` is used) or a stable action id. */
export type ActionLike = Action | LegalAction | number;
/** The kind of an action: the case of its `kind` oneof (`"takeGems"`, `"pass"`...). */
export type ActionKind = NonNullable<Action["kind"]["case"]>;

function nonNegative(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer, not ${value}`);
  return value;
}

/** Take one gem of each colour: three different colours (or every colour left when fewer remain). */
export function takeGems(...colors: ColorLike[]): Action {
  return create(ActionSchema, { kind: { case: "takeGems", value: { colors: colors.map(color) } } });
}

/** Take two gems of one colour (the bank must hold at least four of it). */
export function takeTwo(gem: ColorLike): Action {
  return create(ActionSchema, { kind: { case: "takeTwoGems", value: { color: color(gem) } } });
}

/** Reserve a face-up card of the market (and take a gold if any is left). */
export function reserve(cardId: number): Action {
  return create(ActionSchema, { kind: { case: "reserveCard", value: { cardId: nonNegative("cardId", cardId) } } });
}

/**
 * Reserve the top card of a deck, unseen by the others. `deck` is the deck id as in the
 * protocol: **0, 1, 2 for levels 1, 2, 3** (3-5 for the Orient decks); or pass `{ level: 1..3 }`
 * for the base decks: `reserveFromDeck({ level: 1 })` equals `reserveFromDeck(0)`.
 */
export function reserveFromDeck(deck: number | { level: 1 | 2 | 3 }): Action {
  let id: number;
  if (typeof deck === "number") {
    id = nonNegative("deck", deck);
  } else {
    if (![1, 2, 3].includes(deck.level)) throw new RangeError(`level must be 1, 2 or 3, not ${deck.level}`);
    id = deck.level - 1;
  }
  return create(ActionSchema, { kind: { case: "reserveFromDeck", value: { deck: id } } });
}

/** How to pay for a purchase; everything omitted is left to the engine. */
export interface PurchaseOptions {
  /** What to pay after bonuses; omitted: coloured tokens first, gold for the rest. */
  readonly payment?: Counts | TokenCounts;
  /**
   * The Orient: owned cards given up for this purchase (gold cards spent, or the bonus cards
   * a sacrifice discards). Omitted or empty lets the engine choose; a list is sent as given.
   */
  readonly cardsSpent?: readonly number[];
}

/** Buy a face-up card or one of your reserved cards. */
export function purchase(cardId: number, options: PurchaseOptions = {}): Action {
  const move = create(PurchaseCardSchema, { cardId: nonNegative("cardId", cardId) });
  if (options.payment !== undefined) move.payment = tokenCounts(options.payment);
  if (options.cardsSpent !== undefined) {
    // Present even when empty: sent exactly as given.
    move.cardsSpent = create(SpentCardsSchema, {
      cardIds: options.cardsSpent.map((id) => nonNegative("cardsSpent", id)),
    });
  }
  return create(ActionSchema, { kind: { case: "purchaseCard", value: move } });
}

/** The same as `purchase`. */
export const buy = purchase;

/** Do nothing; legal only when no other main action is. */
export function passTurn(): Action {
  return create(ActionSchema, { kind: { case: "pass", value: {} } });
}

/** The same as `passTurn`. */
export { passTurn as pass };

/** Answer a return-tokens decision: `returnTokens({ red: 1, gold: 1 })`. */
export function returnTokens(tokens: Counts | TokenCounts): Action {
  return create(ActionSchema, { kind: { case: "returnTokens", value: { tokens: tokenCounts(tokens) } } });
}

/** Answer a choose-noble decision with one of the qualifying nobles. */
export function chooseNoble(nobleId: number): Action {
  return create(ActionSchema, { kind: { case: "chooseNoble", value: { nobleId: nonNegative("nobleId", nobleId) } } });
}

/** Answer a choose-city decision (the Cities) with one of the qualifying cities. */
export function chooseCity(cityId: number): Action {
  return create(ActionSchema, { kind: { case: "chooseCity", value: { cityId: nonNegative("cityId", cityId) } } });
}

/** Answer a take-gem decision (the Trading Posts) with the colour of the gem a power grants. */
export function takeGem(gem: ColorLike): Action {
  return create(ActionSchema, { kind: { case: "takeGem", value: { color: color(gem) } } });
}

/**
 * Answer a place-stronghold decision (the Strongholds): put one of your strongholds on a
 * face-up card; `fromCardId` moves the one standing on that card, omitted places one from your supply.
 */
export function placeStronghold(cardId: number, fromCardId?: number): Action {
  const value = {
    cardId: nonNegative("cardId", cardId),
    ...(fromCardId === undefined ? {} : { fromCardId: nonNegative("fromCardId", fromCardId) }),
  };
  return create(ActionSchema, { kind: { case: "placeStronghold", value } });
}

/** Answer a place-stronghold decision (the Strongholds) by giving back an opponent's stronghold on a card. */
export function removeStronghold(cardId: number): Action {
  return create(ActionSchema, { kind: { case: "removeStronghold", value: { cardId: nonNegative("cardId", cardId) } } });
}

/** Answer a conquer decision (the Strongholds): do not buy the card. */
export function decline(): Action {
  return create(ActionSchema, { kind: { case: "decline", value: {} } });
}

/** Answer a pair-card decision (the Orient) with the owned card the paired card attaches to. */
export function pairCard(cardId: number): Action {
  return create(ActionSchema, { kind: { case: "pairCard", value: { cardId: nonNegative("cardId", cardId) } } });
}

/** Answer a take-free-card decision (the Orient) with the face-up card to take. */
export function takeFreeCard(cardId: number): Action {
  return create(ActionSchema, { kind: { case: "takeFreeCard", value: { cardId: nonNegative("cardId", cardId) } } });
}

/** Answer a reserve-noble decision (the Orient) with the noble only you can then be visited by. */
export function reserveNoble(nobleId: number): Action {
  return create(ActionSchema, { kind: { case: "reserveNoble", value: { nobleId: nonNegative("nobleId", nobleId) } } });
}

/** Any action by its stable id (see `Catalog.actionIdRanges`); purchases use the default payment. */
export function byId(actionId: number): Action {
  return create(ActionSchema, { kind: { case: "actionId", value: nonNegative("actionId", actionId) } });
}

/** The `Action` of an `Action`, a `LegalAction` or an action id. */
export function asAction(action: ActionLike): Action {
  if (typeof action === "number") return byId(action);
  if (isMessage(action, LegalActionSchema)) return action.action ?? byId(action.actionId);
  if (isMessage(action, ActionSchema)) return action;
  throw new TypeError("expected an Action, a LegalAction or an action id");
}

/** The kind of an action (`"takeGems"`, `"pass"`, `"actionId"`...), or `undefined` if it is empty. */
export function kind(action: ActionLike): ActionKind | undefined {
  return asAction(action).kind.case;
}
