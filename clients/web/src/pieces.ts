/**
 * The table's pieces as elements: gem chips, cards (face up or down), nobles, cities, posts.
 * Every card carries `data-card-id`, every move button `data-action-id`; colours are named in text.
 */
import { colorName, countsOf, type GemCounts, type LegalAction, type TokenCounts } from "splendor-engine-client";
import { type CatalogIndex, countsText, deckName } from "./catalog.js";
import { offerChoices } from "./choices.js";
import { type Child, h } from "./dom.js";
import type { Choice } from "./moves.js";

/** A move offered to the player: a button that plays its legal action. */
export type Play = (action: LegalAction) => void;

/** `3 white` chips, one per colour held (zero counts left out unless `all`). */
export function chips(counts: TokenCounts | GemCounts | undefined, label: string, all = false): HTMLElement {
  const tokens = counts !== undefined && "gold" in counts;
  const entries = Object.entries(countsOf(counts)).filter(([name, count]) =>
    all ? name !== "gold" || tokens : count > 0,
  );
  return h(
    "ul",
    { class: "chips", "aria-label": `${label}: ${countsText(counts)}` },
    entries.length === 0 ? h("li", { class: "chip none" }, "none") : null,
    entries.map(([name, count]) =>
      h(
        "li",
        { class: `chip gem-${name}` },
        h("span", { class: "count" }, count),
        " ",
        h("span", { class: "name" }, name),
      ),
    ),
  );
}

/** A move button. `kind` is the action's oneof case, for styling and tests. */
export function moveButton(action: LegalAction, label: string, play: Play, short?: string): HTMLButtonElement {
  return h(
    "button",
    {
      type: "button",
      class: `move move-${action.action?.kind.case ?? "unknown"}`,
      "data-action-id": action.actionId,
      "data-action-kind": action.action?.kind.case ?? "",
      "aria-label": short === undefined ? undefined : label,
      title: short === undefined ? undefined : label,
      onclick: () => play(action),
    },
    short ?? label,
  );
}

export interface CardOptions {
  /** The choices about this card (buy, reserve, a stronghold, pair, take for free). */
  readonly choices?: readonly Choice[];
  readonly play?: Play;
  /** Extra lines under the card (strongholds on it, a pair). */
  readonly notes?: readonly string[];
  readonly compact?: boolean;
}

/** A face-up card: points, bonus, cost, ability; clicking it makes the choices about it. */
export function cardElement(catalog: CatalogIndex, cardId: number, options: CardOptions = {}): HTMLElement {
  const card = catalog.cards.get(cardId);
  if (card === undefined) return h("div", { class: "card", "data-card-id": cardId }, "an unknown card");
  const bonus = card.bonusCount > 0 ? colorName(card.bonus) : "none";
  const ability = catalog.abilityText(card);
  const element = h(
    "article",
    {
      class: `card bonus-${bonus}${options.compact === true ? " compact" : ""}`,
      "data-card-id": cardId,
      "aria-label": catalog.cardLabel(cardId),
    },
    h(
      "header",
      { class: "card-head" },
      h("span", { class: "points", title: "prestige points" }, card.points > 0 ? card.points : ""),
      h("span", { class: "bonus" }, `${catalog.bonusText(card)} bonus`),
    ),
    ability === "" ? null : h("p", { class: "ability" }, ability),
    options.compact === true
      ? null
      : h("div", { class: "cost" }, h("span", { class: "sr-hidden" }, "cost"), chips(card.cost, "cost")),
    (options.notes ?? []).map((note) => h("p", { class: "note" }, note)),
  );
  return options.play === undefined ? element : offerChoices(element, options.choices ?? [], options.play);
}

/** A card seen from its back: only its deck is known. */
export function faceDownCard(deck: number, note: string): HTMLElement {
  return h(
    "article",
    { class: "card face-down", "aria-label": `a face-down ${deckName(deck)} card (${note})` },
    h("span", { class: "back" }, deckName(deck)),
    h("p", { class: "note" }, note),
  );
}

export function nobleElement(
  catalog: CatalogIndex,
  nobleId: number,
  note?: string,
  choices: readonly Choice[] = [],
  play?: Play,
): HTMLElement {
  const noble = catalog.nobles.get(nobleId);
  const element = h(
    "article",
    { class: "noble", "data-noble-id": nobleId, "aria-label": catalog.nobleName(nobleId) },
    h("span", { class: "points" }, `${noble?.points ?? 0} points`),
    chips(noble?.requirement, "needs bonuses"),
    note === undefined ? null : h("p", { class: "note" }, note),
  );
  return play === undefined ? element : offerChoices(element, choices, play);
}

export function cityElement(
  catalog: CatalogIndex,
  cityId: number,
  note?: string,
  choices: readonly Choice[] = [],
  play?: Play,
): HTMLElement {
  const city = catalog.cities.get(cityId);
  const element = h(
    "article",
    { class: "city", "data-city-id": cityId, "aria-label": catalog.cityName(cityId) },
    h("span", { class: "tile-name" }, "City"),
    h("p", {}, city === undefined ? "" : catalog.cityRequirement(city)),
    note === undefined ? null : h("p", { class: "note" }, note),
  );
  return play === undefined ? element : offerChoices(element, choices, play);
}

export function section(title: string, className: string, ...children: Child[]): HTMLElement {
  const id = `h-${className}`;
  return h("section", { class: className, "aria-labelledby": id }, h("h2", { id }, title), ...children);
}
