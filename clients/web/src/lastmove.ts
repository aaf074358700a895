/**
 * Each seat's last move, gathered from the events as the viewer receives them (already redacted
 * by the engine): the cards it took, the tokens it took and paid, the nobles, cities, shields and
 * strongholds that came, and the cards turned face up in the slots it emptied. A seat's move
 * runs from its first event after its previous turn ended to its own `turnEnded`, decisions
 * included; events that name no seat (a card revealed) belong to the move in progress.
 */
import { colorName, countsOf, type Event, TOKEN_NAMES, type TokenName } from "splendor-engine-client";

export type Tokens = Record<TokenName, number>;

export interface LastMove {
  readonly seat: number;
  /** Bought (from the market or the reserve), conquered or taken for free. */
  readonly bought: number[];
  /** Reserved: a card id, or a deck number for another seat's face-down reserve. */
  readonly reserved: { readonly cardId?: number; readonly deck: number }[];
  readonly taken: Tokens;
  readonly paid: Tokens;
  readonly nobles: number[];
  readonly reservedNobles: number[];
  readonly cities: number[];
  readonly shields: number[];
  readonly strongholds: number[];
  readonly paired: number[];
  readonly discarded: number[];
  /** Cards turned face up in the market during the move. */
  readonly revealed: number[];
  passed: boolean;
  /** The move's order among all moves seen (higher is later). */
  readonly order: number;
}

function emptyTokens(): Tokens {
  return { white: 0, blue: 0, green: 0, red: 0, black: 0, gold: 0 };
}

function addTokens(into: Tokens, counts: Parameters<typeof countsOf>[0]): void {
  const more = countsOf(counts);
  for (const name of TOKEN_NAMES) into[name] += more[name];
}

/** A card counted once, though a conquest or a free card may also be reported as a purchase. */
function addOnce(list: number[], cardId: number): void {
  if (!list.includes(cardId)) list.push(cardId);
}

/** The seat an event is about, or undefined for one that names none (or is bookkeeping). */
function seatOf(event: Event): number | undefined {
  const kind = event.kind;
  switch (kind.case) {
    case "gemsTaken":
    case "gemsReturned":
    case "cardReserved":
    case "goldReceived":
    case "cardPurchased":
    case "nobleVisited":
    case "passed":
    case "cityClaimed":
    case "powerGemTaken":
    case "shieldPlaced":
    case "strongholdPlaced":
    case "strongholdRemoved":
    case "cardConquered":
    case "cardPaired":
    case "freeCardTaken":
    case "nobleReserved":
    case "cardsDiscarded":
      return kind.value.seat;
    default:
      return undefined;
  }
}

export class LastMoves {
  private readonly moves = new Map<number, LastMove>();
  private readonly open = new Set<number>();
  private current: number | undefined;
  private count = 0;

  /** The number of moves seen so far: it changes when a new move begins. */
  get version(): number {
    return this.count;
  }

  of(seat: number): LastMove | undefined {
    return this.moves.get(seat);
  }

  /** The seat whose move came last. */
  get latest(): number | undefined {
    let best: LastMove | undefined;
    for (const move of this.moves.values()) if (best === undefined || move.order > best.order) best = move;
    return best?.seat;
  }

  /** Take in events in the order they happened. */
  take(events: readonly Event[]): void {
    for (const event of events) this.takeOne(event);
  }

  private moveOf(seat: number): LastMove {
    const known = this.moves.get(seat);
    if (known !== undefined && this.open.has(seat)) return known;
    this.count += 1;
    const fresh: LastMove = {
      seat,
      bought: [],
      reserved: [],
      taken: emptyTokens(),
      paid: emptyTokens(),
      nobles: [],
      reservedNobles: [],
      cities: [],
      shields: [],
      strongholds: [],
      paired: [],
      discarded: [],
      revealed: [],
      passed: false,
      order: this.count,
    };
    this.moves.set(seat, fresh);
    this.open.add(seat);
    return fresh;
  }

  private takeOne(event: Event): void {
    const kind = event.kind;
    if (kind.case === "turnEnded") {
      this.open.delete(kind.value.seat);
      return;
    }
    if (kind.case === "cardRevealed") {
      if (this.current !== undefined && this.open.has(this.current))
        this.moves.get(this.current)?.revealed.push(kind.value.cardId);
      return;
    }
    const seat = seatOf(event);
    if (seat === undefined) return;
    this.current = seat;
    const move = this.moveOf(seat);
    switch (kind.case) {
      case "gemsTaken":
        addTokens(move.taken, kind.value.tokens);
        break;
      case "goldReceived":
        move.taken.gold += kind.value.amount;
        break;
      case "powerGemTaken":
        move.taken[colorName(kind.value.color) as TokenName] += 1;
        break;
      case "gemsReturned":
        addTokens(move.paid, kind.value.tokens);
        break;
      case "cardPurchased":
        addOnce(move.bought, kind.value.cardId);
        addTokens(move.paid, kind.value.payment);
        break;
      case "cardReserved":
        move.reserved.push(
          kind.value.cardId === undefined
            ? { deck: kind.value.deck }
            : { cardId: kind.value.cardId, deck: kind.value.deck },
        );
        break;
      case "cardConquered":
      case "freeCardTaken":
        addOnce(move.bought, kind.value.cardId);
        break;
      case "nobleVisited":
        move.nobles.push(kind.value.nobleId);
        break;
      case "nobleReserved":
        move.reservedNobles.push(kind.value.nobleId);
        break;
      case "cityClaimed":
        move.cities.push(kind.value.cityId);
        break;
      case "shieldPlaced":
        move.shields.push(kind.value.postId);
        break;
      case "strongholdPlaced":
        move.strongholds.push(kind.value.cardId);
        break;
      case "cardPaired":
        move.paired.push(kind.value.cardId);
        break;
      case "cardsDiscarded":
        move.discarded.push(...kind.value.cardIds);
        break;
      case "passed":
        move.passed = true;
        break;
      default:
        break;
    }
  }
}
