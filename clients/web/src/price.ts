/**
 * What a purchase the engine lists would cost, in words, before it is made: "Buy for 2 red + 1 gold".
 *
 * Which cards can be bought is never decided here: only the engine's legal actions offer a
 * purchase, and the move sent is that legal action (with the engine's default payment). This
 * only describes that default payment from the seat's view: coloured tokens first, gold for the
 * rest; a Trading Posts gold worth two gems of one colour with the gold-worth-two shield; the
 * Orient's gold tokens before its gold cards (each worth two, the fewest needed); a sacrifice
 * card paid with bonuses of its colour. The browser tests check every purchase they make
 * against the payment the engine reports in its event.
 */
import {
  CardKind,
  type CardInfo,
  countsOf,
  GEM_NAMES,
  type GameView,
  type PlayerState,
  TOKEN_NAMES,
  type TokenName,
  TradingPostPower,
  colorName,
} from "splendor-engine-client";
import type { CatalogIndex } from "./catalog.js";

export interface Price {
  /** The tokens paid into the bank, gold included. */
  readonly tokens: Readonly<Record<TokenName, number>>;
  /** Orient gold cards given up (each worth two gold). */
  readonly goldCards: number;
  /** A sacrifice card's price: bonuses of one colour given up with their cards. */
  readonly sacrifice?: { readonly color: string; readonly count: number };
}

const NONE: Readonly<Record<TokenName, number>> = { white: 0, blue: 0, green: 0, red: 0, black: 0, gold: 0 };

/** Whether `seat` holds a shield on the trading post whose gold is worth two gems. */
function goldWorthTwo(catalog: CatalogIndex, view: GameView, seat: number): boolean {
  const posts = view.tradingPosts?.shields[seat]?.postIds ?? [];
  return posts.some((id) => catalog.posts.get(id)?.power === TradingPostPower.GOLD_WORTH_TWO);
}

/** The seat's Orient gold cards still in play. */
function goldCardsOf(catalog: CatalogIndex, view: GameView, seat: number, player: PlayerState): number {
  const discarded = new Set(view.orient?.discarded[seat]?.cardIds ?? []);
  return player.purchasedCardIds.filter((id) => !discarded.has(id) && catalog.cards.get(id)?.kind === CardKind.GOLD_X2)
    .length;
}

/** The default payment of `card` by `seat` (whom the engine lists the purchase for). */
export function priceOf(catalog: CatalogIndex, view: GameView, seat: number, card: CardInfo): Price {
  const player = view.players[seat];
  if (player === undefined) return { tokens: NONE, goldCards: 0 };
  if (card.kind === CardKind.SACRIFICE)
    return {
      tokens: NONE,
      goldCards: 0,
      sacrifice: { color: colorName(card.sacrificeColor), count: card.sacrificeCount },
    };
  const held = countsOf(player.tokens);
  const bonuses = countsOf(player.bonuses);
  const cost = countsOf(card.cost);
  const tokens: Record<TokenName, number> = { ...NONE };
  let rest = 0;
  let halves = 0;
  for (const name of GEM_NAMES) {
    const due = Math.max(0, cost[name] - bonuses[name]);
    tokens[name] = Math.min(due, held[name]);
    rest += due - tokens[name];
    halves += Math.ceil((due - tokens[name]) / 2);
  }
  if (goldWorthTwo(catalog, view, seat)) return { tokens: { ...tokens, gold: halves }, goldCards: 0 };
  if (view.orient !== undefined && rest > held.gold && goldCardsOf(catalog, view, seat, player) > 0)
    return { tokens: { ...tokens, gold: held.gold }, goldCards: Math.ceil((rest - held.gold) / 2) };
  return { tokens: { ...tokens, gold: rest }, goldCards: 0 };
}

/** `"2 red + 1 gold"`, `"1 gold card"`, or `""` when it costs nothing. */
function priceText(price: Price): string {
  const parts = TOKEN_NAMES.filter((name) => price.tokens[name] > 0).map((name) => `${price.tokens[name]} ${name}`);
  if (price.goldCards > 0) parts.push(`${price.goldCards} gold card${price.goldCards === 1 ? "" : "s"}`);
  return parts.join(" + ");
}

/** The purchase as its menu states it: `"Buy for 2 red + 1 gold"`. */
export function buyText(price: Price): string {
  if (price.sacrifice !== undefined)
    return `Buy by giving up ${price.sacrifice.count} ${price.sacrifice.color} bonus${price.sacrifice.count === 1 ? "" : "es"}`;
  const text = priceText(price);
  return text === "" ? "Buy for free (your bonuses pay)" : `Buy for ${text}`;
}

/** The gold a purchase spends (tokens, and gold cards counted as two each). */
export function goldOf(price: Price): number {
  return price.tokens.gold + 2 * price.goldCards;
}
