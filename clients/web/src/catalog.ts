/**
 * The catalog indexed by id, and the words for its cards, nobles, cities and trading posts.
 * Every colour is written out by name, so nothing depends on seeing the colour.
 */
import {
  CardKind,
  type CardInfo,
  type Catalog,
  type CityInfo,
  colorName,
  countsOf,
  type GemCounts,
  type NobleInfo,
  type TokenCounts,
  TradingPostPower,
  type TradingPostInfo,
} from "splendor-engine-client";

export const BASE_DECKS = 3;

/** `"level 1"` for deck 0 ... `"Orient level 1"` for deck 3 ... */
export function deckName(deck: number): string {
  return deck < BASE_DECKS ? `level ${deck + 1}` : `Orient level ${deck - BASE_DECKS + 1}`;
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** `"3 white, 2 blue"` (zero counts left out; `"nothing"` when all are zero). */
export function countsText(counts: TokenCounts | GemCounts | undefined): string {
  const parts = Object.entries(countsOf(counts))
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${count} ${name}`);
  return parts.length > 0 ? parts.join(", ") : "nothing";
}

const ABILITIES: Partial<Record<CardKind, string>> = {
  [CardKind.GOLD_X2]: "worth 2 gold once",
  [CardKind.PAIRED]: "pairs with one of your cards",
  [CardKind.PAIRED_TAKE_LEVEL1]: "pairs, then a free level 1 card",
  [CardKind.DOUBLE_BONUS]: "double bonus",
  [CardKind.RESERVE_NOBLE]: "reserves a noble",
  [CardKind.TAKE_LEVEL2]: "a free level 2 card",
};

const POWERS: Record<TradingPostPower, string> = {
  [TradingPostPower.UNSPECIFIED]: "no power",
  [TradingPostPower.GEM_AFTER_PURCHASE]: "a gem after each purchase",
  [TradingPostPower.EXTRA_GEM_WITH_TWO]: "an extra gem with two of a colour",
  [TradingPostPower.GOLD_WORTH_TWO]: "gold worth two gems",
  [TradingPostPower.FIVE_PRESTIGE]: "5 prestige",
  [TradingPostPower.PRESTIGE_PER_SHIELD]: "1 prestige per shield",
};

export class CatalogIndex {
  readonly cards: ReadonlyMap<number, CardInfo>;
  readonly nobles: ReadonlyMap<number, NobleInfo>;
  readonly cities: ReadonlyMap<number, CityInfo>;
  readonly posts: ReadonlyMap<number, TradingPostInfo>;

  constructor(readonly catalog: Catalog) {
    this.cards = new Map(catalog.cards.map((card) => [card.id, card]));
    this.nobles = new Map(catalog.nobles.map((noble) => [noble.id, noble]));
    this.cities = new Map(catalog.cities.map((city) => [city.id, city]));
    this.posts = new Map(catalog.tradingPosts.map((post) => [post.id, post]));
  }

  /** The server-side bot policies, weakest first: the catalog's own list. */
  botPolicies(): string[] {
    return [...this.catalog.botPolicies];
  }

  /** The policies that search at every move, and so take a number of iterations: the catalog's own list. */
  searchPolicies(): string[] {
    return [...this.catalog.searchPolicies];
  }

  /** The colour word of a card's bonus: `"red"`, `"2 red"`, or `"no"` bonus for Orient gold and paired cards. */
  bonusText(card: CardInfo): string {
    if (card.bonusCount === 0) return card.kind === CardKind.STANDARD ? colorName(card.bonus) : "no";
    return card.bonusCount > 1 ? `${card.bonusCount} ${colorName(card.bonus)}` : colorName(card.bonus);
  }

  /** What a card does beyond its bonus and points, or `""`. */
  abilityText(card: CardInfo): string {
    if (card.kind === CardKind.SACRIFICE)
      return `discards ${plural(card.sacrificeCount, `${colorName(card.sacrificeColor)} bonus`, `${colorName(card.sacrificeColor)} bonuses`)}`;
    return ABILITIES[card.kind] ?? "";
  }

  /**
   * A card as people tell it apart, never by its id: `"a level 2 red card, 2 points (cost 3 white,
   * 2 blue)"`. Two cards of one level, bonus and points differ in their cost.
   */
  cardName(cardId: number): string {
    const card = this.cards.get(cardId);
    if (card === undefined) return "an unknown card";
    const bonus = this.bonusText(card);
    const kind =
      bonus === "no"
        ? `${deckName(card.deck)} card with no bonus`
        : card.bonusCount > 1
          ? `${deckName(card.deck)} card with ${card.bonusCount} ${colorName(card.bonus)} bonuses`
          : `${deckName(card.deck)} ${bonus} card`;
    const parts = [`${/^[aeiouAEIOU]/.test(kind) ? "an" : "a"} ${kind}`];
    const ability = this.abilityText(card);
    // "2 green bonuses" already says what a double bonus is.
    if (ability !== "" && card.kind !== CardKind.DOUBLE_BONUS) parts.push(ability);
    if (card.points > 0) parts.push(plural(card.points, "point"));
    return `${parts.join(", ")} (cost ${countsText(card.cost)})`;
  }

  /** The whole card for a screen reader: what it is and what it costs. */
  cardLabel(cardId: number): string {
    const card = this.cards.get(cardId);
    if (card === undefined) return "an unknown card";
    const name = this.cardName(cardId);
    return `${name.slice(0, name.lastIndexOf(" (cost"))}, costs ${countsText(card.cost)}`;
  }

  /** `"the noble for 4 red, 4 green bonuses (3 points)"`. */
  nobleName(nobleId: number): string {
    const noble = this.nobles.get(nobleId);
    if (noble === undefined) return "an unknown noble";
    return `the noble for ${countsText(noble.requirement)} bonuses (${plural(noble.points, "point")})`;
  }

  /** `"the city for 13 prestige, 4 red bonuses"`. */
  cityName(cityId: number): string {
    const city = this.cities.get(cityId);
    if (city === undefined) return "an unknown city";
    return `the city for ${this.cityRequirement(city)}`;
  }

  cityRequirement(city: CityInfo): string {
    const parts = [`${city.prestige} prestige`];
    if (countsText(city.requirement) !== "nothing") parts.push(`${countsText(city.requirement)} bonuses`);
    if (city.sameColorCount > 0)
      parts.push(
        `${city.sameColorCount} bonuses of one ${city.sameColorExcludesListed ? "other " : ""}colour of your choice`,
      );
    return parts.join(", ");
  }

  postName(postId: number): string {
    const post = this.posts.get(postId);
    return post === undefined ? `trading post ${postId}` : `trading post ${postId + 1} (${POWERS[post.power]})`;
  }

  postRequirement(post: TradingPostInfo): string {
    const parts = [`${countsText(post.requirement)} bonuses`];
    if (post.noblesRequired > 0) parts.push(plural(post.noblesRequired, "noble"));
    return parts.join(" and ");
  }
}
