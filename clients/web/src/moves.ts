/**
 * The human's legal actions, sorted onto what they are about, so each is made by clicking that
 * thing: choices about a card on the card (buy, reserve, place, move or give back a stronghold,
 * pair, take for free), a blind reserve on its deck, a noble or city on its tile, gems by picking
 * the bank's gems (or, to give tokens back, the player's own), and what is about nothing on the
 * table (pass, decline) as prompts. Only the engine's legal actions are ever offered.
 */
import { colorName, countsOf, type LegalAction, TOKEN_NAMES, type TokenName } from "splendor-engine-client";
import { countsText } from "./catalog.js";
import type { Describer } from "./describe.js";
import type { TokenOption } from "./picker.js";
import { buyText, type Price } from "./price.js";

/** One choice: the action, a short label for where it is offered, and the whole sentence. */
export interface Choice {
  readonly action: LegalAction;
  readonly short: string;
  readonly label: string;
  /** A purchase's price, as the menu states it. */
  readonly price?: Price;
}

/** What the menus state about a move before it is made: a purchase's price, a reserve's gold. */
export interface Pricing {
  readonly priceOf: (cardId: number) => Price | undefined;
  /** Gold tokens in the bank: a reserve takes one while any is left. */
  readonly bankGold: number;
}

const NO_PRICING: Pricing = { priceOf: () => undefined, bankGold: 0 };

/** Tokens picked one by one: from the bank (gems to take) or from the player's own (to give back). */
export interface TokenPick {
  readonly source: "bank" | "own";
  readonly options: readonly TokenOption[];
}

export interface Moves {
  readonly onCards: ReadonlyMap<number, readonly Choice[]>;
  readonly onDecks: ReadonlyMap<number, Choice>;
  readonly onNobles: ReadonlyMap<number, readonly Choice[]>;
  readonly onCities: ReadonlyMap<number, readonly Choice[]>;
  readonly pick: TokenPick | undefined;
  /** Choices about nothing on the table: pass, decline. */
  readonly prompts: readonly Choice[];
  readonly count: number;
}

export const NO_MOVES: Moves = {
  onCards: new Map(),
  onDecks: new Map(),
  onNobles: new Map(),
  onCities: new Map(),
  pick: undefined,
  prompts: [],
  count: 0,
};

function add<K>(map: Map<K, Choice[]>, key: K, choice: Choice): void {
  const list = map.get(key) ?? [];
  list.push(choice);
  map.set(key, list);
}

function tokensOf(counts: Parameters<typeof countsOf>[0]): TokenName[] {
  const all = countsOf(counts);
  return TOKEN_NAMES.flatMap((name) => Array.from({ length: all[name] }, () => name));
}

export function sortMoves(actions: readonly LegalAction[], describer: Describer, pricing: Pricing = NO_PRICING): Moves {
  const gold = pricing.bankGold > 0 ? " (+1 gold)" : " (no gold left)";
  const onCards = new Map<number, Choice[]>();
  const onDecks = new Map<number, Choice>();
  const onNobles = new Map<number, Choice[]>();
  const onCities = new Map<number, Choice[]>();
  const bank: TokenOption[] = [];
  const own: TokenOption[] = [];
  const prompts: Choice[] = [];
  for (const action of actions) {
    const kind = action.action?.kind;
    const label = describer.action(action.action);
    const choice = (short: string): Choice => ({ action, short, label });
    switch (kind?.case) {
      case "purchaseCard": {
        // An explicit payment (never listed by the engine, kept for completeness) is stated as sent.
        const price = pricing.priceOf(kind.value.cardId);
        const short =
          kind.value.payment !== undefined
            ? `Buy for ${countsText(kind.value.payment).replace(/, /g, " + ")}`
            : price === undefined
              ? "Buy"
              : buyText(price);
        add(onCards, kind.value.cardId, price === undefined ? choice(short) : { ...choice(short), price });
        break;
      }
      case "reserveCard":
        add(onCards, kind.value.cardId, choice(`Reserve${gold}`));
        break;
      case "placeStronghold":
        add(
          onCards,
          kind.value.cardId,
          choice(
            kind.value.fromCardId === undefined
              ? "Place a stronghold here"
              : `Move a stronghold here from ${describer.cardName(kind.value.fromCardId)}`,
          ),
        );
        break;
      case "removeStronghold":
        add(onCards, kind.value.cardId, choice("Give back the opponent's stronghold"));
        break;
      case "pairCard":
        add(onCards, kind.value.cardId, choice("Pair with this card"));
        break;
      case "takeFreeCard":
        add(onCards, kind.value.cardId, choice("Take for free"));
        break;
      case "reserveFromDeck":
        onDecks.set(kind.value.deck, choice(`Reserve the top card, face down${gold}`));
        break;
      case "chooseNoble":
        add(onNobles, kind.value.nobleId, choice("Choose this noble"));
        break;
      case "reserveNoble":
        add(onNobles, kind.value.nobleId, choice("Reserve this noble"));
        break;
      case "chooseCity":
        add(onCities, kind.value.cityId, choice("Choose this city"));
        break;
      case "takeGems":
        bank.push({ tokens: kind.value.colors.map((value) => colorName(value) as TokenName), action });
        break;
      case "takeTwoGems": {
        const name = colorName(kind.value.color) as TokenName;
        bank.push({ tokens: [name, name], action });
        break;
      }
      case "takeGem":
        bank.push({ tokens: [colorName(kind.value.color) as TokenName], action });
        break;
      case "returnTokens":
        own.push({ tokens: tokensOf(kind.value.tokens), action });
        break;
      default:
        prompts.push(choice(label));
    }
  }
  // On a card, buying comes first and reserving last, whatever order the engine listed them in.
  const rank = (choice: Choice): number => {
    const kind = choice.action.action?.kind.case;
    return kind === "purchaseCard" ? 0 : kind === "reserveCard" ? 2 : 1;
  };
  for (const choices of onCards.values()) choices.sort((a, b) => rank(a) - rank(b));
  const pick: TokenPick | undefined =
    own.length > 0 ? { source: "own", options: own } : bank.length > 0 ? { source: "bank", options: bank } : undefined;
  return { onCards, onDecks, onNobles, onCities, pick, prompts, count: actions.length };
}
