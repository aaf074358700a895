/**
 * The whole table from one seat's view (or a spectator's) and the catalog: nobles or cities,
 * trading posts, the market rows with their decks, the bank, and every player.
 */
import { type GameView, type PlayerState, TOKEN_NAMES } from "splendor-engine-client";
import { BASE_DECKS, type CatalogIndex, deckName, plural } from "./catalog.js";
import { offerChoices } from "./choices.js";
import { h } from "./dom.js";
import type { Moves } from "./moves.js";
import { cardElement, chips, cityElement, faceDownCard, nobleElement, type Play, section } from "./pieces.js";
import { leftOf, type Picking, tokenButton } from "./pick.js";

export interface TableContext {
  readonly catalog: CatalogIndex;
  readonly view: GameView;
  /** Seat names: `"Player 2 (greedy bot)"`, `"You (player 1)"`. */
  readonly seatLabel: (seat: number) => string;
  readonly moves: Moves;
  readonly play: Play;
  readonly picking: Picking;
}

/** The strongholds standing on each card: card id -> "Player 1: 2". */
function strongholdNotes(context: TableContext): Map<number, string[]> {
  const notes = new Map<number, string[]>();
  context.view.strongholds?.placed.forEach((placed, seat) => {
    const counts = new Map<number, number>();
    for (const cardId of placed.cardIds) counts.set(cardId, (counts.get(cardId) ?? 0) + 1);
    for (const [cardId, count] of counts) {
      const list = notes.get(cardId) ?? [];
      list.push(`${plural(count, "stronghold")} of ${context.seatLabel(seat)}`);
      notes.set(cardId, list);
    }
  });
  return notes;
}

export function renderTable(context: TableContext): HTMLElement {
  return h("div", { class: "table" }, renderTiles(context), renderMarket(context), renderBank(context));
}

function renderTiles(context: TableContext): HTMLElement[] {
  const { catalog, view } = context;
  const parts: HTMLElement[] = [];
  if (view.cities !== undefined) {
    parts.push(
      section(
        "Cities",
        "cities",
        h(
          "div",
          { class: "tiles" },
          view.cities.availableCityIds.map((cityId) =>
            cityElement(catalog, cityId, undefined, context.moves.onCities.get(cityId), context.play),
          ),
        ),
      ),
    );
  } else {
    parts.push(
      section(
        "Nobles",
        "nobles",
        h(
          "div",
          { class: "tiles" },
          view.nobleIds.length === 0 ? h("p", {}, "No noble left on the table.") : null,
          view.nobleIds.map((nobleId) =>
            nobleElement(catalog, nobleId, undefined, context.moves.onNobles.get(nobleId), context.play),
          ),
        ),
      ),
    );
  }
  if (view.tradingPosts !== undefined) {
    const holders = (postId: number): string[] =>
      view.tradingPosts!.shields.flatMap((shields, seat) =>
        shields.postIds.includes(postId) ? [context.seatLabel(seat)] : [],
      );
    parts.push(
      section(
        "Trading posts",
        "posts",
        h(
          "ol",
          { class: "posts-list" },
          catalog.catalog.tradingPosts.map((post) =>
            h(
              "li",
              { class: "post", "data-post-id": post.id },
              h("strong", {}, catalog.postName(post.id)),
              h("span", {}, ` needs ${catalog.postRequirement(post)}. `),
              h(
                "span",
                { class: "shields" },
                holders(post.id).length > 0 ? `Shields: ${holders(post.id).join(", ")}` : "No shield yet",
              ),
            ),
          ),
        ),
      ),
    );
  }
  return parts;
}

function renderMarket(context: TableContext): HTMLElement {
  const { view } = context;
  const notes = strongholdNotes(context);
  const rows = view.market.map((row, deck) => ({ row, deck }));
  const base = rows.filter(({ deck }) => deck < BASE_DECKS).reverse();
  const orient = rows.filter(({ deck }) => deck >= BASE_DECKS).reverse();
  const rowElement = ({ row, deck }: (typeof rows)[number]): HTMLElement => {
    const deckMove = context.moves.onDecks.get(deck);
    const deckElement = h(
      "div",
      {
        class: "deck",
        "data-deck": deck,
        "aria-label": `${deckName(deck)} deck: ${plural(view.deckSizes[deck] ?? 0, "card")} left`,
      },
      h("span", { class: "deck-name" }, deckName(deck)),
      h("span", { class: "deck-size" }, plural(view.deckSizes[deck] ?? 0, "card")),
    );
    return h(
      "div",
      { class: "market-row", role: "group", "aria-label": `${deckName(deck)} row` },
      offerChoices(deckElement, deckMove === undefined ? [] : [deckMove], context.play),
      row.slots.map((slot) =>
        slot.cardId === undefined
          ? h("div", { class: "card empty", "aria-label": "empty slot" }, "empty")
          : cardElement(context.catalog, slot.cardId, {
              choices: context.moves.onCards.get(slot.cardId) ?? [],
              play: context.play,
              notes: notes.get(slot.cardId) ?? [],
            }),
      ),
    );
  };
  return h(
    "div",
    { class: "markets" },
    section("Market", "market", base.map(rowElement)),
    orient.length > 0 ? section("The Orient", "market orient", orient.map(rowElement)) : null,
  );
}

/** Every player's holdings; the viewer's own blind reserves face up, other seats' face down. */
export function renderPlayers(context: TableContext): HTMLElement {
  return section(
    "Players",
    "players",
    context.view.players.map((player, seat) => renderPlayer(context, player, seat)),
  );
}

function renderPlayer(context: TableContext, player: PlayerState, seat: number): HTMLElement {
  const { catalog, view } = context;
  const acting = (view.pendingDecision?.kind ?? 0) !== 0 ? view.pendingDecision!.seat : view.seat;
  const ended = view.endReason !== 0;
  const pairs = new Map((view.orient?.pairs[seat]?.pairs ?? []).map((pair) => [pair.cardId, pair.partnerCardId]));
  const cities = view.cities?.held[seat]?.cityIds ?? [];
  const reservedNobles = view.orient?.reservedNobles[seat]?.nobleIds ?? [];
  const discarded = view.orient?.discarded[seat]?.cardIds ?? [];
  const supply = view.strongholds === undefined ? undefined : 3 - (view.strongholds.placed[seat]?.cardIds.length ?? 0);
  const tokenTotal = Object.values(player.tokens ?? {}).reduce<number>(
    (sum, value) => sum + (typeof value === "number" ? value : 0),
    0,
  );
  return h(
    "article",
    {
      class: `player${!ended && seat === acting ? " acting" : ""}${seat === view.viewerSeat ? " viewer" : ""}`,
      "data-seat": seat,
      "aria-labelledby": `player-${seat}`,
    },
    h(
      "h3",
      { id: `player-${seat}` },
      context.seatLabel(seat),
      h("span", { class: "prestige" }, ` ${plural(player.prestige, "prestige point")}`),
      !ended && seat === acting ? h("span", { class: "badge" }, " to play") : null,
    ),
    h(
      "div",
      { class: "holding" },
      h("span", { class: "label" }, `Tokens (${tokenTotal})`),
      chips(player.tokens, "tokens"),
    ),
    h("div", { class: "holding" }, h("span", { class: "label" }, "Bonuses"), chips(player.bonuses, "bonuses")),
    player.nobleIds.length > 0
      ? h(
          "div",
          { class: "holding" },
          h("span", { class: "label" }, "Nobles"),
          h(
            "div",
            { class: "tiles small" },
            player.nobleIds.map((id) => nobleElement(catalog, id)),
          ),
        )
      : null,
    reservedNobles.length > 0
      ? h(
          "div",
          { class: "holding" },
          h("span", { class: "label" }, "Reserved nobles"),
          h(
            "div",
            { class: "tiles small" },
            // A reserved noble may be among the nobles a seat chooses from (the Orient): offered here.
            reservedNobles.map((id) =>
              nobleElement(catalog, id, "reserved", context.moves.onNobles.get(id), context.play),
            ),
          ),
        )
      : null,
    cities.length > 0
      ? h(
          "div",
          { class: "holding" },
          h("span", { class: "label" }, "Cities"),
          h(
            "div",
            { class: "tiles small" },
            cities.map((id) => cityElement(catalog, id)),
          ),
        )
      : null,
    view.tradingPosts !== undefined
      ? h(
          "p",
          { class: "holding" },
          h("span", { class: "label" }, "Shields "),
          (view.tradingPosts.shields[seat]?.postIds ?? []).map((id) => catalog.postName(id)).join(", ") || "none",
        )
      : null,
    supply !== undefined
      ? h("p", { class: "holding" }, h("span", { class: "label" }, "Strongholds in supply "), String(supply))
      : null,
    h(
      "div",
      { class: "holding" },
      h("span", { class: "label" }, `Reserved (${player.reserved.length} of 3)`),
      h(
        "div",
        { class: "cards small" },
        player.reserved.length === 0 ? h("p", {}, "none") : null,
        player.reserved.map((reserved) =>
          reserved.cardId === undefined
            ? faceDownCard(reserved.deck, "reserved face down")
            : cardElement(catalog, reserved.cardId, {
                choices: context.moves.onCards.get(reserved.cardId) ?? [],
                play: context.play,
                notes: reserved.blind ? ["drawn face down"] : [],
              }),
        ),
      ),
    ),
    h(
      "details",
      {
        class: "holding purchased",
        // A choice about a purchased card (pairing) keeps the cards in sight.
        open: player.purchasedCardIds.some((cardId) => context.moves.onCards.has(cardId)),
        "data-must-open": player.purchasedCardIds.some((cardId) => context.moves.onCards.has(cardId)),
      },
      h("summary", {}, `Purchased cards (${player.purchasedCardIds.length})`),
      h(
        "div",
        { class: "cards small" },
        player.purchasedCardIds.map((cardId) =>
          cardElement(catalog, cardId, {
            compact: true,
            choices: context.moves.onCards.get(cardId) ?? [],
            play: context.play,
            notes: pairs.has(cardId) ? [`paired with ${catalog.cardName(pairs.get(cardId)!)}`] : [],
          }),
        ),
      ),
    ),
    discarded.length > 0
      ? h(
          "p",
          { class: "holding" },
          h("span", { class: "label" }, "Given up "),
          discarded.map((id) => catalog.cardName(id)).join(", "),
        )
      : null,
  );
}

/**
 * The bank. While gems are to be taken, each colour is a button that adds one gem of it to the
 * pick, enabled only while the pick can still become a legal take.
 */
function renderBank(context: TableContext): HTMLElement {
  const { view, moves, picking } = context;
  const pick = moves.pick;
  if (pick?.source !== "bank") return section("Bank", "bank", chips(view.bank, "tokens in the bank", true));
  return section(
    "Bank",
    "bank picking",
    h("p", { class: "hint" }, "Click the gems to take, then confirm."),
    h(
      "div",
      { class: "gem-buttons", role: "group", "aria-label": "gems in the bank" },
      TOKEN_NAMES.map((token) => {
        const left = leftOf(view.bank, picking, token);
        const label = `Take a ${token} ${token === "gold" ? "token" : "gem"} (${left} in the bank)`;
        return tokenButton(pick, picking, token, left, "data-gem", label);
      }),
    ),
  );
}
