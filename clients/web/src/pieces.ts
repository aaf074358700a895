/**
 * The table's pieces as elements, drawn as the game's pieces: gem tokens, cards (the bonus gem,
 * the cost as gem pips, points large, the level as the back colour), card backs for decks and
 * face-down reserves, noble, city and trading-post tiles, stronghold and shield markers.
 * Drawings are decorative; every piece carries its meaning in words (`aria-label`, or text for
 * screen readers only), and every card `data-card-id`.
 */
import {
  CardKind,
  colorName,
  countsOf,
  GEM_NAMES,
  type GemCounts,
  type LegalAction,
  type TokenCounts,
  type TokenName,
} from "splendor-engine-client";
import { type CatalogIndex, deckName } from "./catalog.js";
import { offerChoices } from "./choices.js";
import { type Child, h } from "./dom.js";
import type { Choice } from "./moves.js";
import { goldOf } from "./price.js";
import { drawing, gem } from "./svg.js";

/** A move offered to the player: plays its legal action. */
export type Play = (action: LegalAction) => void;

const ROMAN = ["I", "II", "III"];

/** Text only a screen reader reads. */
export function srOnly(text: string): HTMLElement {
  return h("span", { class: "sr-only" }, text);
}

/** One token: a round chip with its gem and a count (no count: just the chip). */
export function token(name: TokenName, count?: number, className = ""): HTMLElement {
  return h(
    "span",
    { class: `token token-${name}${className === "" ? "" : ` ${className}`}`, "data-token": name },
    gem(name),
    count === undefined ? null : h("span", { class: "n" }, count),
  );
}

/** A cost or requirement as gem pips (a round pip per colour with its number). */
function pips(counts: GemCounts | TokenCounts | undefined, className: string): HTMLElement {
  const all = countsOf(counts);
  return h(
    "ul",
    { class: className, "aria-hidden": "true" },
    GEM_NAMES.filter((name) => all[name] > 0).map((name) =>
      h("li", { class: `pip pip-${name}` }, gem(name), h("span", { class: "n" }, all[name])),
    ),
  );
}

/** A requirement in bonuses, as small cards of each colour with the number needed. */
export function bonusNeeds(counts: GemCounts | undefined, extra: Child = null): HTMLElement {
  const all = countsOf(counts);
  return h(
    "ul",
    { class: "needs", "aria-hidden": "true" },
    GEM_NAMES.filter((name) => all[name] > 0).map((name) =>
      h("li", { class: `need need-${name}` }, h("span", { class: "n" }, all[name])),
    ),
    extra,
  );
}

/** A marker of a seat: a stronghold (tower) or a shield, in the seat's colour with its number. */
export function seatMarker(kind: "tower" | "shield", seat: number, count = 1): HTMLElement {
  return h(
    "span",
    { class: `marker marker-${kind} seat-${seat}`, "data-seat": seat },
    drawing(kind, "marker-drawing"),
    h("span", { class: "n" }, count > 1 ? `${seat + 1}×${count}` : seat + 1),
  );
}

/** A move button (pass, decline). `kind` is the action's oneof case, for styling and tests. */
export function moveButton(action: LegalAction, label: string, play: Play): HTMLButtonElement {
  return h(
    "button",
    {
      type: "button",
      class: `move move-${action.action?.kind.case ?? "unknown"}`,
      "data-action-id": action.actionId,
      "data-action-kind": action.action?.kind.case ?? "",
      onclick: () => play(action),
    },
    label,
  );
}

/** What is drawn on a card besides points, bonus and cost: the Orient's abilities, in short. */
const ABILITY_MARKS: Partial<Record<CardKind, string>> = {
  [CardKind.GOLD_X2]: "2 gold",
  [CardKind.PAIRED]: "pairs",
  [CardKind.PAIRED_TAKE_LEVEL1]: "pairs + free I",
  [CardKind.RESERVE_NOBLE]: "noble",
  [CardKind.TAKE_LEVEL2]: "free II",
};

export interface CardOptions {
  /** The choices about this card (buy, reserve, a stronghold, pair, take for free). */
  readonly choices?: readonly Choice[];
  readonly play?: Play;
  /** Extra words about the card (strongholds on it, a pair), read and shown. */
  readonly notes?: readonly string[];
  /** Markers drawn on the card (strongholds). */
  readonly markers?: readonly HTMLElement[];
  readonly size?: "market" | "small" | "mini";
  /** Turned face up by the last move. */
  readonly fresh?: boolean;
}

/** The bonus a card gives, drawn: its gem (twice for a double bonus), a gold coin for a gold card. */
function bonusMark(kind: CardKind, bonus: string, count: number): HTMLElement {
  if (kind === CardKind.GOLD_X2) return h("span", { class: "bonus" }, token("gold"), token("gold"));
  if (count === 0 || bonus === "none") return h("span", { class: "bonus" });
  const name = bonus as TokenName;
  return h("span", { class: "bonus" }, gem(name), count > 1 ? gem(name) : null);
}

/** What the choices on a card say at a glance: buy (with the gold it takes), or another choice. */
function offerBadge(choices: readonly Choice[]): HTMLElement | null {
  const buy = choices.find((choice) => choice.action.action?.kind.case === "purchaseCard");
  if (buy !== undefined) {
    const gold = buy.price === undefined ? 0 : goldOf(buy.price);
    return h(
      "span",
      { class: "offer offer-buy", "data-gold": gold },
      "Buy",
      gold > 0 ? [" ", token("gold", gold, "tiny")] : null,
    );
  }
  // A card you can only reserve is told by its dashed ring: "Reserve" on nearly every card would drown the buys.
  if (choices.some((choice) => choice.action.action?.kind.case === "reserveCard")) return null;
  return choices.length > 0 ? h("span", { class: "offer offer-other" }, "Choose") : null;
}

/** A face-up card; with choices, it opens its menu when clicked. */
export function cardElement(catalog: CatalogIndex, cardId: number, options: CardOptions = {}): HTMLElement {
  const card = catalog.cards.get(cardId);
  const size = options.size ?? "market";
  if (card === undefined)
    return h("div", { class: `card ${size}`, "data-card-id": cardId, "aria-label": "an unknown card, costs nothing" });
  const bonus = card.bonusCount > 0 ? colorName(card.bonus) : "none";
  const choices = options.choices ?? [];
  const affordable = choices.some((choice) => choice.action.action?.kind.case === "purchaseCard");
  const reservable = !affordable && choices.some((choice) => choice.action.action?.kind.case === "reserveCard");
  const ability = card.kind === CardKind.SACRIFICE ? `−${card.sacrificeCount}` : (ABILITY_MARKS[card.kind] ?? "");
  const notes = options.notes ?? [];
  const classes = [
    "card",
    size,
    `level-${card.level}`,
    card.deck >= 3 ? "orient-card" : "",
    `bonus-${bonus}`,
    affordable ? "affordable" : "",
    reservable ? "reservable" : "",
    options.fresh === true ? "fresh" : "",
  ];
  const label = [catalog.cardLabel(cardId), ...notes].join("; ");
  const element = h(
    "article",
    { class: classes.filter((name) => name !== "").join(" "), "data-card-id": cardId, "aria-label": label },
    h(
      "header",
      { class: "card-top" },
      h("span", { class: "points" }, card.points > 0 ? card.points : ""),
      bonusMark(card.kind, bonus, card.bonusCount),
    ),
    ability === ""
      ? null
      : h(
          "span",
          {
            class: `ability${card.kind === CardKind.SACRIFICE ? ` sacrifice sacrifice-${colorName(card.sacrificeColor)}` : ""}`,
            "aria-hidden": "true",
          },
          card.kind === CardKind.SACRIFICE ? gem(colorName(card.sacrificeColor) as TokenName) : null,
          ability,
        ),
    size === "mini" ? null : pips(card.cost, "cost"),
    size === "mini" ? null : offerBadge(choices),
    options.markers !== undefined && options.markers.length > 0
      ? h("span", { class: "markers" }, options.markers)
      : null,
    options.fresh === true ? h("span", { class: "fresh-tag", "aria-hidden": "true" }, "new") : null,
  );
  return options.play === undefined ? element : offerChoices(element, choices, options.play);
}

/** A card seen from its back (a deck, or a face-down reserve): the level's colour and numeral. */
export function cardBack(deck: number, label: string, className = "", count?: number): HTMLElement {
  const level = (deck % 3) + 1;
  return h(
    "div",
    {
      class: `card-back level-${level}${deck >= 3 ? " orient-card" : ""}${className === "" ? "" : ` ${className}`}`,
      "aria-label": label,
    },
    h("span", { class: "numeral", "aria-hidden": "true" }, ROMAN[level - 1]),
    count === undefined ? null : h("span", { class: "left", "aria-hidden": "true" }, count),
  );
}

/** A face-down reserve: its deck is all that is known. */
export function faceDownCard(deck: number, note: string, size: "small" | "mini" = "small"): HTMLElement {
  return cardBack(deck, `a face-down ${deckName(deck)} card (${note})`, `${size} face-down`);
}

export function nobleElement(
  catalog: CatalogIndex,
  nobleId: number,
  options: {
    readonly note?: string;
    readonly choices?: readonly Choice[];
    readonly play?: Play;
    readonly size?: string;
    readonly fresh?: boolean;
  } = {},
): HTMLElement {
  const noble = catalog.nobles.get(nobleId);
  const label = [catalog.nobleName(nobleId), options.note].filter((part) => part !== undefined).join(", ");
  const element = h(
    "article",
    {
      class: `noble tile ${options.size ?? ""}${options.fresh === true ? " fresh" : ""}`,
      "data-noble-id": nobleId,
      "aria-label": label,
    },
    drawing("crown", "tile-art"),
    h("span", { class: "points" }, noble?.points ?? 0),
    bonusNeeds(noble?.requirement),
  );
  return options.play === undefined ? element : offerChoices(element, options.choices ?? [], options.play);
}

export function cityElement(
  catalog: CatalogIndex,
  cityId: number,
  options: {
    readonly choices?: readonly Choice[];
    readonly play?: Play;
    readonly size?: string;
    readonly fresh?: boolean;
  } = {},
): HTMLElement {
  const city = catalog.cities.get(cityId);
  const element = h(
    "article",
    {
      class: `city tile ${options.size ?? ""}${options.fresh === true ? " fresh" : ""}`,
      "data-city-id": cityId,
      "aria-label": catalog.cityName(cityId),
    },
    drawing("city", "tile-art"),
    h("span", { class: "points prestige" }, drawing("star", "star"), h("span", { class: "n" }, city?.prestige ?? 0)),
    bonusNeeds(
      city?.requirement,
      city !== undefined && city.sameColorCount > 0
        ? h(
            "li",
            { class: `need need-any${city.sameColorExcludesListed ? " other" : ""}` },
            h("span", { class: "n" }, city.sameColorCount),
          )
        : null,
    ),
  );
  return options.play === undefined ? element : offerChoices(element, options.choices ?? [], options.play);
}

export function section(title: string, className: string, ...children: Child[]): HTMLElement {
  const id = `h-${className.split(" ")[0] ?? className}`;
  return h("section", { class: className, "aria-labelledby": id }, h("h2", { id }, title), ...children);
}
