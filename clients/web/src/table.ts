/**
 * The table from one seat's view (or a spectator's) and the catalog, drawn as the game's pieces:
 * the nobles or cities, the trading posts, the market rows with their decks, and the bank. The
 * last move shows on it: the cards it turned face up are marked new, the bank's tokens it moved
 * are ringed. The players' places are in `players.ts`.
 */
import { type GameView, TOKEN_NAMES, TradingPostPower } from "splendor-engine-client";
import { BASE_DECKS, type CatalogIndex, deckName, plural } from "./catalog.js";
import { offerChoices } from "./choices.js";
import { h } from "./dom.js";
import type { LastMoves } from "./lastmove.js";
import type { Moves } from "./moves.js";
import {
  bonusNeeds,
  cardBack,
  cardElement,
  cityElement,
  nobleElement,
  type Play,
  seatMarker,
  section,
} from "./pieces.js";
import { leftOf, type Picking, tokenButton } from "./pick.js";
import { drawing } from "./svg.js";

export interface TableContext {
  readonly catalog: CatalogIndex;
  readonly view: GameView;
  /** Seat names: `"Player 2 (greedy bot)"`, `"Player 1 (you)"`. */
  readonly seatLabel: (seat: number) => string;
  readonly moves: Moves;
  readonly play: Play;
  readonly picking: Picking;
  readonly lastMoves: LastMoves;
}

/** The powers of the trading posts, as the post tile says them. */
const POWER_MARKS: Record<TradingPostPower, string> = {
  [TradingPostPower.UNSPECIFIED]: "",
  [TradingPostPower.GEM_AFTER_PURCHASE]: "+1 gem after a purchase",
  [TradingPostPower.EXTRA_GEM_WITH_TWO]: "+1 gem with two of a colour",
  [TradingPostPower.GOLD_WORTH_TWO]: "gold counts as two",
  [TradingPostPower.FIVE_PRESTIGE]: "5 prestige",
  [TradingPostPower.PRESTIGE_PER_SHIELD]: "1 prestige per shield",
};

/** The strongholds standing on each card: card id -> [seat, count] pairs. */
function strongholdsOn(view: GameView): Map<number, [number, number][]> {
  const on = new Map<number, [number, number][]>();
  view.strongholds?.placed.forEach((placed, seat) => {
    const counts = new Map<number, number>();
    for (const cardId of placed.cardIds) counts.set(cardId, (counts.get(cardId) ?? 0) + 1);
    for (const [cardId, count] of counts) on.set(cardId, [...(on.get(cardId) ?? []), [seat, count]]);
  });
  return on;
}

/** Cards the latest move turned face up. */
function freshCards(context: TableContext): Set<number> {
  const latest = context.lastMoves.latest;
  return new Set(latest === undefined ? [] : (context.lastMoves.of(latest)?.revealed ?? []));
}

export function renderTable(context: TableContext): HTMLElement {
  return h(
    "div",
    { class: "table" },
    h("div", { class: "tiles-row" }, renderTiles(context), renderPosts(context)),
    renderMarket(context),
    renderBank(context),
  );
}

function renderTiles(context: TableContext): HTMLElement {
  const { catalog, view, moves, play } = context;
  if (view.cities !== undefined)
    return section(
      "Cities",
      "cities",
      h(
        "div",
        { class: "tiles" },
        view.cities.availableCityIds.map((cityId) =>
          cityElement(catalog, cityId, { choices: moves.onCities.get(cityId) ?? [], play }),
        ),
      ),
    );
  return section(
    "Nobles",
    "nobles",
    h(
      "div",
      { class: "tiles" },
      view.nobleIds.length === 0 ? h("p", { class: "none" }, "No noble left.") : null,
      view.nobleIds.map((nobleId) =>
        nobleElement(catalog, nobleId, { choices: moves.onNobles.get(nobleId) ?? [], play }),
      ),
    ),
  );
}

function renderPosts(context: TableContext): HTMLElement | null {
  const { catalog, view } = context;
  const posts = view.tradingPosts;
  if (posts === undefined) return null;
  const holders = (postId: number): number[] =>
    posts.shields.flatMap((shields, seat) => (shields.postIds.includes(postId) ? [seat] : []));
  return section(
    "Trading posts",
    "posts",
    h(
      "ol",
      { class: "posts-list" },
      catalog.catalog.tradingPosts.map((post) => {
        const seats = holders(post.id);
        const shields = seats.map((seat) => context.seatLabel(seat)).join(", ");
        return h(
          "li",
          {
            class: "post tile",
            "data-post-id": post.id,
            "aria-label": `${catalog.postName(post.id)}: needs ${catalog.postRequirement(post)}; ${shields === "" ? "no shield yet" : `shields of ${shields}`}`,
          },
          h("span", { class: "post-number", "aria-hidden": "true" }, post.id + 1),
          h("span", { class: "power", "aria-hidden": "true" }, POWER_MARKS[post.power]),
          bonusNeeds(
            post.requirement,
            post.noblesRequired > 0
              ? h(
                  "li",
                  { class: "need need-noble" },
                  drawing("crown", "crown"),
                  h("span", { class: "n" }, post.noblesRequired),
                )
              : null,
          ),
          h(
            "span",
            { class: "shields", "aria-hidden": "true" },
            seats.map((seat) => seatMarker("shield", seat)),
          ),
        );
      }),
    ),
  );
}

function renderMarket(context: TableContext): HTMLElement {
  const { view, catalog } = context;
  const towers = strongholdsOn(view);
  const fresh = freshCards(context);
  const rows = view.market.map((row, deck) => ({ row, deck }));
  const rowElement = ({ row, deck }: (typeof rows)[number]): HTMLElement => {
    const left = view.deckSizes[deck] ?? 0;
    const deckMove = context.moves.onDecks.get(deck);
    const back =
      left === 0
        ? h(
            "div",
            { class: "card-back empty-deck", "data-deck": deck, "aria-label": `${deckName(deck)} deck: empty` },
            "empty",
          )
        : cardBack(deck, `${deckName(deck)} deck: ${plural(left, "card")} left`, "deck", left);
    back.dataset["deck"] = String(deck);
    return h(
      "div",
      { class: "market-row", role: "group", "aria-label": `${deckName(deck)} row` },
      offerChoices(back, deckMove === undefined ? [] : [deckMove], context.play),
      row.slots.map((slot) => {
        if (slot.cardId === undefined)
          return h(
            "div",
            {
              class: "slot-empty",
              "aria-label":
                left > 0 ? "an empty slot, refilled once the move is over" : "an empty slot: the deck is empty",
            },
            left > 0 ? "refilled after this move" : "no card left",
          );
        const on = towers.get(slot.cardId) ?? [];
        return cardElement(catalog, slot.cardId, {
          choices: context.moves.onCards.get(slot.cardId) ?? [],
          play: context.play,
          notes: on.map(([seat, count]) => `${plural(count, "stronghold")} of ${context.seatLabel(seat)}`),
          markers: on.map(([seat, count]) => seatMarker("tower", seat, count)),
          fresh: fresh.has(slot.cardId),
        });
      }),
    );
  };
  const base = rows.filter(({ deck }) => deck < BASE_DECKS).reverse();
  const orient = rows.filter(({ deck }) => deck >= BASE_DECKS).reverse();
  return h(
    "div",
    { class: `markets${orient.length > 0 ? " with-orient" : ""}` },
    section("Market", "market", base.map(rowElement)),
    orient.length > 0 ? section("The Orient", "market orient", orient.map(rowElement)) : null,
  );
}

/**
 * The bank. While gems are to be taken, each colour is a button that adds one gem of it to the
 * pick, enabled only while the pick can still become a legal take.
 */
function renderBank(context: TableContext): HTMLElement {
  const { view, moves, picking } = context;
  const pick = moves.pick;
  const latest = context.lastMoves.latest;
  const move = latest === undefined ? undefined : context.lastMoves.of(latest);
  const moved = (name: (typeof TOKEN_NAMES)[number]): boolean =>
    move !== undefined && (move.taken[name] > 0 || move.paid[name] > 0);
  return section(
    "Bank",
    `bank${pick?.source === "bank" ? " picking" : ""}`,
    h(
      "div",
      { class: "gem-buttons", role: "group", "aria-label": "gems in the bank" },
      TOKEN_NAMES.map((name) => {
        const left = leftOf(view.bank, picking, name);
        if (pick?.source !== "bank")
          return h(
            "span",
            {
              class: `bank-token token token-${name}${moved(name) ? " moved" : ""}`,
              "data-bank": name,
              "aria-label": `${left} ${name} in the bank${moved(name) ? " (moved by the last move)" : ""}`,
            },
            ...tokenFace(name, left),
          );
        const label = `Take a ${name} ${name === "gold" ? "token" : "gem"} (${left} in the bank)`;
        const button = tokenButton(pick, picking, name, left, "data-gem", label);
        if (moved(name)) button.classList.add("moved");
        return button;
      }),
    ),
  );
}

/** A token's face: its gem and a count. */
function tokenFace(name: (typeof TOKEN_NAMES)[number], count: number): Node[] {
  const face = document.createElement("span");
  face.className = "n";
  face.textContent = String(count);
  return [drawing(`gem-${name}`, `gem gem-${name}`), face];
}
