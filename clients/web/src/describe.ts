/**
 * Events and actions in words, as the viewing seat may see them: the events come already
 * redacted by the engine, so a blind reservation by another seat names no card.
 */
import {
  type Action,
  CardSource,
  colorName,
  DecisionKind,
  EndReason,
  type Event,
  type PendingDecision,
} from "splendor-engine-client";
import { type CatalogIndex, countsText, deckName, plural } from "./catalog.js";

/** How a seat is called: `"you"`, `"Player 2"`. */
export type SeatNamer = (seat: number) => string;

export const END_REASONS: Record<EndReason, string> = {
  [EndReason.UNSPECIFIED]: "the game is still on",
  [EndReason.FINAL_ROUND_COMPLETED]: "a player reached the goal and the final round was completed",
  [EndReason.ALL_PLAYERS_PASSED]: "every player passed for a whole round",
  [EndReason.TURN_LIMIT_REACHED]: "the turn limit was reached",
};

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class Describer {
  constructor(
    private readonly catalog: CatalogIndex,
    private readonly name: SeatNamer,
  ) {}

  /** One event as a sentence, or `undefined` for the bookkeeping events the log leaves out. */
  event(event: Event): string | undefined {
    const c = this.catalog;
    const kind = event.kind;
    switch (kind.case) {
      case "gameStarted":
        return `The game starts with ${kind.value.numPlayers} players. First to play: ${this.name(kind.value.firstSeat)}.`;
      case "gemsTaken":
        return `${capital(this.name(kind.value.seat))} took ${countsText(kind.value.tokens)}.`;
      case "gemsReturned":
        return `${capital(this.name(kind.value.seat))} returned ${countsText(kind.value.tokens)}.`;
      case "cardReserved": {
        const what =
          kind.value.cardId === undefined
            ? `a face-down ${deckName(kind.value.deck)} card`
            : kind.value.blind
              ? `${c.cardName(kind.value.cardId)} from the top of the deck`
              : c.cardName(kind.value.cardId);
        return `${capital(this.name(kind.value.seat))} reserved ${what}.`;
      }
      case "goldReceived":
        return `${capital(this.name(kind.value.seat))} received ${kind.value.amount} gold.`;
      case "cardPurchased": {
        const from = kind.value.source === CardSource.RESERVE ? " from the reserve" : "";
        const paid = countsText(kind.value.payment);
        const price = paid === "nothing" ? "with bonuses alone" : `paying ${paid}`;
        return `${capital(this.name(kind.value.seat))} bought ${c.cardName(kind.value.cardId)}${from}, ${price}.`;
      }
      case "cardRevealed":
        return undefined; // the market shows it
      case "marketSlotEmptied":
        return `The ${deckName(kind.value.deck)} deck is empty: a slot stays empty.`;
      case "nobleVisited":
        return `${capital(c.nobleName(kind.value.nobleId))} visited ${this.name(kind.value.seat)}.`;
      case "decisionRequired":
        return undefined; // the moves panel asks
      case "passed":
        return `${capital(this.name(kind.value.seat))} could not move and passed.`;
      case "finalRoundTriggered":
        return `Final round! ${capital(this.name(kind.value.seat))} reached ${plural(kind.value.prestige, "prestige point")}.`;
      case "turnEnded":
        return undefined;
      case "gameEnded":
        return `Game over: ${END_REASONS[kind.value.reason]}.`;
      case "cityClaimed":
        return `${capital(this.name(kind.value.seat))} took ${c.cityName(kind.value.cityId)}.`;
      case "powerGemTaken":
        return `${capital(this.name(kind.value.seat))} took 1 ${colorName(kind.value.color)} with ${c.postName(kind.value.postId)}.`;
      case "shieldPlaced":
        return `${capital(this.name(kind.value.seat))} placed a shield on ${c.postName(kind.value.postId)}${kind.value.prestigeGained > 0 ? ` (+${kind.value.prestigeGained} prestige)` : ""}.`;
      case "strongholdPlaced":
        return kind.value.fromCardId === undefined
          ? `${capital(this.name(kind.value.seat))} placed a stronghold on ${c.cardName(kind.value.cardId)}.`
          : `${capital(this.name(kind.value.seat))} moved a stronghold from ${c.cardName(kind.value.fromCardId)} to ${c.cardName(kind.value.cardId)}.`;
      case "strongholdRemoved":
        return `${capital(this.name(kind.value.seat))} gave ${this.name(kind.value.owner)} back the stronghold on ${c.cardName(kind.value.cardId)}.`;
      case "strongholdsReturned":
        return `${capital(this.name(kind.value.owner))} got ${plural(kind.value.count, "stronghold")} back from ${c.cardName(kind.value.cardId)}.`;
      case "cardConquered":
        return `${capital(this.name(kind.value.seat))} conquered ${c.cardName(kind.value.cardId)}.`;
      case "cardPaired":
        return `${capital(this.name(kind.value.seat))} paired ${c.cardName(kind.value.cardId)} with ${c.cardName(kind.value.partnerCardId)}: one more ${colorName(kind.value.color)} bonus.`;
      case "freeCardTaken":
        return `${capital(this.name(kind.value.seat))} took ${c.cardName(kind.value.cardId)} for free.`;
      case "nobleReserved":
        return `${capital(this.name(kind.value.seat))} reserved ${c.nobleName(kind.value.nobleId)}.`;
      case "cardsDiscarded":
        return `${capital(this.name(kind.value.seat))} gave up ${kind.value.cardIds.map((id) => c.cardName(id)).join(", ")}.`;
      case undefined:
        return undefined;
    }
  }

  /** A card in words (see `CatalogIndex.cardName`). */
  cardName(cardId: number): string {
    return this.catalog.cardName(cardId);
  }

  /** An action as a sentence: `"Take 1 white, 1 blue, 1 red"`, `"Buy a level 2 red card (...)"`. */
  action(action: Action | undefined): string {
    const c = this.catalog;
    const kind = action?.kind;
    switch (kind?.case) {
      case "takeGems":
        return `Take ${kind.value.colors.map((value) => `1 ${colorName(value)}`).join(", ")}`;
      case "takeTwoGems":
        return `Take 2 ${colorName(kind.value.color)}`;
      case "reserveCard":
        return `Reserve ${c.cardName(kind.value.cardId)}`;
      case "reserveFromDeck":
        return `Reserve the top card of the ${deckName(kind.value.deck)} deck, face down`;
      case "purchaseCard":
        return `Buy ${c.cardName(kind.value.cardId)}`;
      case "pass":
        return "Pass (no other move is possible)";
      case "returnTokens":
        return `Return ${countsText(kind.value.tokens)}`;
      case "chooseNoble":
        return `Choose ${c.nobleName(kind.value.nobleId)}`;
      case "chooseCity":
        return `Choose ${c.cityName(kind.value.cityId)}`;
      case "takeGem":
        return `Take 1 ${colorName(kind.value.color)}`;
      case "placeStronghold":
        return kind.value.fromCardId === undefined
          ? `Place a stronghold on ${c.cardName(kind.value.cardId)}`
          : `Move a stronghold from ${c.cardName(kind.value.fromCardId)} to ${c.cardName(kind.value.cardId)}`;
      case "removeStronghold":
        return `Give back the opponent's stronghold on ${c.cardName(kind.value.cardId)}`;
      case "decline":
        return "Decline";
      case "pairCard":
        return `Pair with ${c.cardName(kind.value.cardId)}`;
      case "takeFreeCard":
        return `Take ${c.cardName(kind.value.cardId)} for free`;
      case "reserveNoble":
        return `Reserve ${c.nobleName(kind.value.nobleId)}`;
      case "actionId":
        return `Action ${kind.value}`;
      case undefined:
        return "No action";
    }
  }

  /** What a pending decision asks, as a heading for its choices. */
  decision(decision: PendingDecision): string {
    switch (decision.kind) {
      case DecisionKind.RETURN_TOKENS:
        return `You hold more than 10 tokens: click ${plural(decision.amount, "token")} of yours below to give back, then confirm.`;
      case DecisionKind.CHOOSE_NOBLE:
        return "Several nobles would visit you: click the one you choose.";
      case DecisionKind.CHOOSE_CITY:
        return "You qualify for several cities: click the one you choose.";
      case DecisionKind.TAKE_GEM:
        return "A trading post gives you a gem: click its colour in the bank, then confirm.";
      case DecisionKind.PLACE_STRONGHOLD:
        return "Click a card to place or move one of your strongholds there, or to give an opponent's back.";
      case DecisionKind.CONQUER:
        return "Your three strongholds stand on one card: click it to conquer (buy) it, or decline.";
      case DecisionKind.PAIR_CARD:
        return "Click the card of yours your new card pairs with.";
      case DecisionKind.TAKE_FREE_CARD:
        return "Click the card you take for free.";
      case DecisionKind.RESERVE_NOBLE:
        return "Click the noble to reserve.";
      case DecisionKind.UNSPECIFIED:
        return "";
    }
  }
}
