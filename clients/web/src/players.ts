/**
 * The players' places: each seat's tableau grouped by colour (bonuses as a stack of cards of
 * that colour, tokens as chips, with their counts), its reserved cards, nobles, cities, shields
 * and strongholds, and its last move drawn as pieces (the cards it took, the tokens it took and
 * paid, the noble or city that came). The viewer's own blind reserves are face up, other seats'
 * face down.
 */
import { countsOf, GEM_NAMES, type PlayerState, TOKEN_NAMES, type TokenName } from "splendor-engine-client";
import { deckName, plural } from "./catalog.js";
import { type Child, h } from "./dom.js";
import type { LastMove, Tokens } from "./lastmove.js";
import { cardElement, cityElement, faceDownCard, nobleElement, seatMarker, section, srOnly, token } from "./pieces.js";
import type { TableContext } from "./table.js";

/** Every player's place. `animate`: the last move has just happened (its pieces arrive). */
export function renderPlayers(context: TableContext, animate: boolean): HTMLElement {
  return section(
    "Players",
    `players count-${context.view.players.length}`,
    context.view.players.map((player, seat) => renderPlayer(context, player, seat, animate)),
  );
}

function tokenTotal(player: PlayerState): number {
  const held = countsOf(player.tokens);
  return TOKEN_NAMES.reduce((sum, name) => sum + held[name], 0);
}

/** Per colour: the bonuses as a card stack, the tokens as a chip; gold alone at the end. */
function tableau(context: TableContext, player: PlayerState, seat: number, move: LastMove | undefined): HTMLElement {
  const bonuses = countsOf(player.bonuses);
  const tokens = countsOf(player.tokens);
  const gained = new Set(
    (move?.bought ?? [])
      .map((id) => context.catalog.cards.get(id))
      .flatMap((card) => (card === undefined ? [] : [card.bonus])),
  );
  const changed = (name: TokenName): boolean => move !== undefined && (move.taken[name] > 0 || move.paid[name] > 0);
  const columns = TOKEN_NAMES.map((name) => {
    const cards = name === "gold" ? 0 : bonuses[name];
    const grew = name !== "gold" && [...gained].some((value) => GEM_NAMES[value - 1] === name);
    return h(
      "li",
      {
        class: `column col-${name}${cards === 0 && tokens[name] === 0 ? " nothing" : ""}`,
        "data-colour": name,
        "data-bonus": cards,
        "data-tokens": tokens[name],
      },
      srOnly(
        name === "gold"
          ? `gold: ${plural(tokens[name], "token")}`
          : `${name}: ${plural(cards, "bonus", "bonuses")}, ${plural(tokens[name], "token")}`,
      ),
      name === "gold"
        ? h("span", { class: "stack none", "aria-hidden": "true" })
        : h(
            "span",
            { class: `stack stack-${name}${grew ? " grew" : ""}`, "aria-hidden": "true" },
            h("span", { class: "n" }, cards),
          ),
      h(
        "span",
        { class: `held${tokens[name] === 0 ? " zero" : ""}`, "aria-hidden": "true" },
        token(name, tokens[name], changed(name) ? "changed" : ""),
      ),
    );
  });
  return h("ul", { class: "tableau", "aria-label": `Player ${seat + 1}'s bonuses and tokens by colour` }, columns);
}

/** Counts as chips with a sign: `+` taken, `−` paid or given back. */
function signedTokens(counts: Tokens, sign: "+" | "−", className: string): HTMLElement | null {
  const names = TOKEN_NAMES.filter((name) => counts[name] > 0);
  if (names.length === 0) return null;
  return h(
    "span",
    { class: `moved-tokens ${className}`, "data-moved": className },
    h("span", { class: "sign", "aria-hidden": "true" }, sign),
    names.map((name) => token(name, counts[name], "tiny")),
  );
}

/** A seat's last move in words, for its label. */
function lastMoveWords(context: TableContext, move: LastMove): string {
  const { catalog } = context;
  const parts: string[] = [];
  if (move.passed) parts.push("passed");
  if (move.bought.length > 0) parts.push(`took ${move.bought.map((id) => catalog.cardName(id)).join(" and ")}`);
  for (const reserved of move.reserved)
    parts.push(
      `reserved ${reserved.cardId === undefined ? `a face-down ${deckName(reserved.deck)} card` : catalog.cardName(reserved.cardId)}`,
    );
  if (tokensText(move.taken) !== "") parts.push(`received ${tokensText(move.taken)}`);
  if (tokensText(move.paid) !== "") parts.push(`paid or gave back ${tokensText(move.paid)}`);
  for (const id of move.nobles) parts.push(`was visited by ${catalog.nobleName(id)}`);
  for (const id of move.reservedNobles) parts.push(`reserved ${catalog.nobleName(id)}`);
  for (const id of move.cities) parts.push(`took ${catalog.cityName(id)}`);
  for (const id of move.shields) parts.push(`placed a shield on ${catalog.postName(id)}`);
  if (move.strongholds.length > 0) parts.push(`placed ${plural(move.strongholds.length, "stronghold")}`);
  if (move.discarded.length > 0) parts.push(`gave up ${plural(move.discarded.length, "card")}`);
  return parts.length === 0 ? "nothing yet" : parts.join(", ");
}

/** `"1 red, 2 gold"`, or `""` for none. */
function tokensText(tokens: Tokens): string {
  return TOKEN_NAMES.filter((name) => tokens[name] > 0)
    .map((name) => `${tokens[name]} ${name}`)
    .join(", ");
}

/** The last move drawn as pieces. */
function lastMoveStrip(context: TableContext, move: LastMove, latest: boolean, animate: boolean): HTMLElement {
  const { catalog } = context;
  const pieces: Child[] = [
    move.passed ? h("span", { class: "word" }, "passed") : null,
    move.bought.map((id) => cardElement(catalog, id, { size: "mini" })),
    move.reserved.map((reserved) =>
      reserved.cardId === undefined
        ? faceDownCard(reserved.deck, "reserved face down", "mini")
        : h("span", { class: "reserved-mark" }, cardElement(catalog, reserved.cardId, { size: "mini" })),
    ),
    signedTokens(move.taken, "+", "taken"),
    signedTokens(move.paid, "−", "paid"),
    move.nobles.map((id) => nobleElement(catalog, id, { size: "mini" })),
    move.reservedNobles.map((id) => nobleElement(catalog, id, { size: "mini", note: "reserved" })),
    move.cities.map((id) => cityElement(catalog, id, { size: "mini" })),
    move.shields.map((id) => h("span", { class: "word" }, seatMarker("shield", move.seat), ` post ${id + 1}`)),
    move.strongholds.length > 0
      ? h("span", { class: "word" }, seatMarker("tower", move.seat, move.strongholds.length))
      : null,
  ];
  return h(
    "div",
    {
      class: `last-move${latest ? " latest" : ""}${latest && animate ? " arriving" : ""}`,
      "data-last-move": move.seat,
      "aria-label": `Last move of ${context.seatLabel(move.seat)}: ${lastMoveWords(context, move)}`,
    },
    h("span", { class: "last-label", "aria-hidden": "true" }, latest ? "Last move" : "Previous"),
    h("span", { class: "pieces", "aria-hidden": "true" }, pieces),
  );
}

function renderPlayer(context: TableContext, player: PlayerState, seat: number, animate: boolean): HTMLElement {
  const { catalog, view, moves, play } = context;
  const acting = (view.pendingDecision?.kind ?? 0) !== 0 ? view.pendingDecision!.seat : view.seat;
  const ended = view.endReason !== 0;
  const pairs = new Map((view.orient?.pairs[seat]?.pairs ?? []).map((pair) => [pair.cardId, pair.partnerCardId]));
  const cities = view.cities?.held[seat]?.cityIds ?? [];
  const reservedNobles = view.orient?.reservedNobles[seat]?.nobleIds ?? [];
  const discarded = view.orient?.discarded[seat]?.cardIds ?? [];
  const shields = view.tradingPosts?.shields[seat]?.postIds ?? [];
  const supply = view.strongholds === undefined ? undefined : 3 - (view.strongholds.placed[seat]?.cardIds.length ?? 0);
  const move = context.lastMoves.of(seat);
  const latest = context.lastMoves.latest === seat;
  const choosing = player.purchasedCardIds.some((cardId) => moves.onCards.has(cardId));
  const total = tokenTotal(player);
  return h(
    "article",
    {
      class: `player seat-${seat}${!ended && seat === acting ? " acting" : ""}${seat === view.viewerSeat ? " viewer" : ""}`,
      "data-seat": seat,
      "aria-labelledby": `player-${seat}`,
    },
    h(
      "header",
      { class: "player-head" },
      h("h3", { id: `player-${seat}` }, context.seatLabel(seat)),
      !ended && seat === acting ? h("span", { class: "badge" }, "to play") : null,
      h(
        "span",
        { class: `token-total${total > 10 ? " over" : ""}`, title: "tokens held" },
        srOnly("tokens: "),
        `${total}/10`,
      ),
      h(
        "span",
        { class: "prestige", "aria-label": plural(player.prestige, "prestige point") },
        h("span", { "aria-hidden": "true" }, `★ ${player.prestige}`),
      ),
    ),
    h(
      "div",
      { class: "player-body" },
      tableau(context, player, seat, latest ? move : undefined),
      h(
        "div",
        { class: "holdings" },
        h(
          "div",
          { class: "reserved", "aria-label": `Reserved: ${player.reserved.length} of 3` },
          player.reserved.length === 0 ? h("span", { class: "none" }, "no reserve") : null,
          player.reserved.map((reserved) =>
            reserved.cardId === undefined
              ? faceDownCard(reserved.deck, "reserved face down")
              : cardElement(catalog, reserved.cardId, {
                  size: "small",
                  choices: moves.onCards.get(reserved.cardId) ?? [],
                  play,
                  notes: reserved.blind ? ["drawn face down"] : [],
                }),
          ),
        ),
        player.nobleIds.length + reservedNobles.length + cities.length > 0
          ? h(
              "div",
              { class: "tiles small" },
              player.nobleIds.map((id) =>
                nobleElement(catalog, id, { size: "small", fresh: latest && (move?.nobles.includes(id) ?? false) }),
              ),
              // A reserved noble may be among the nobles a seat chooses from (the Orient): offered here.
              reservedNobles.map((id) =>
                nobleElement(catalog, id, {
                  size: "small reserved",
                  note: "reserved",
                  choices: moves.onNobles.get(id) ?? [],
                  play,
                }),
              ),
              cities.map((id) =>
                cityElement(catalog, id, { size: "small", fresh: latest && (move?.cities.includes(id) ?? false) }),
              ),
            )
          : null,
        shields.length > 0 || supply !== undefined
          ? h(
              "div",
              { class: "pieces-held" },
              shields.length > 0
                ? h(
                    "span",
                    { "aria-label": `shields on ${shields.map((id) => catalog.postName(id)).join(", ")}` },
                    shields.map(() => seatMarker("shield", seat)),
                  )
                : null,
              supply !== undefined
                ? h(
                    "span",
                    { "aria-label": `${plural(supply, "stronghold")} in supply` },
                    supply > 0 ? seatMarker("tower", seat, supply) : "no stronghold left",
                  )
                : null,
            )
          : null,
      ),
    ),
    move === undefined ? null : lastMoveStrip(context, move, latest, animate),
    h(
      "details",
      { class: "purchased", open: choosing, "data-must-open": choosing },
      h(
        "summary",
        {},
        `Cards bought (${player.purchasedCardIds.length})${discarded.length > 0 ? `, ${discarded.length} given up` : ""}`,
      ),
      h(
        "div",
        { class: "cards-list" },
        player.purchasedCardIds.map((cardId) =>
          cardElement(catalog, cardId, {
            size: "small",
            choices: moves.onCards.get(cardId) ?? [],
            play,
            notes: pairs.has(cardId) ? [`paired with ${catalog.cardName(pairs.get(cardId)!)}`] : [],
          }),
        ),
      ),
    ),
  );
}
