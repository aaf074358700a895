/**
 * What the page asks of the engine, in sealed mode only: the page holds the game token, the
 * seat keys and the view of one seat (or a spectator's), never the plain state. Bots play on
 * the server (`ApplyActionRequest.bot`), so the page never lists another seat's legal actions.
 *
 * Seat keys: a sealed request that names a seat, or acts, carries that seat's key. The page is
 * the platform of its own games, so it keeps every seat's key: its humans' keys for their moves,
 * legal actions and views, the bot seats' keys for the server-side bot moves it asks for.
 */
import type { Action, Catalog, Event, GameConfig, GameView, LegalAction } from "splendor-engine-client";

/** A server-side bot's choice: policy name, seed, search iterations (0: the policy's default). */
export interface BotMove {
  readonly policy: string;
  readonly seed: bigint;
  readonly iterations?: number;
}

/** A game after a call: the new token and what the request's seat (or a spectator) may see. */
export interface SealedTurn {
  readonly token: Uint8Array;
  readonly view: GameView;
  readonly events: readonly Event[];
  /** The request's seat's legal actions, when it must act next and they were asked for. */
  readonly legal: readonly LegalAction[];
  /** The action applied (the bot's choice), after ApplyAction. */
  readonly applied?: LegalAction | undefined;
}

/** A dealt (or replayed) game: its first turn and one key per seat, in seat order. */
export interface DealtGame extends SealedTurn {
  readonly seatKeys: readonly string[];
}

/** A seat and its key, for a request that looks or acts as that seat. */
export interface KeyedSeat {
  readonly seat: number;
  readonly key: string;
}

export interface Engine {
  catalog(): Promise<Catalog>;
  /**
   * Deal a sealed game; the view and events are `seat`'s (a spectator's when undefined). The
   * server draws the seed unless `publicDeal`: then it deals from `config.seed`, which anyone
   * may know.
   */
  create(config: GameConfig, seat: number | undefined, publicDeal: boolean): Promise<DealtGame>;
  /** Play `as`'s action; the answer holds its view and, if it still acts, its legal actions. */
  play(token: Uint8Array, action: Action, as: KeyedSeat): Promise<SealedTurn>;
  /** Let a server-side bot play the acting seat (`key` is its key); the answer holds a spectator's view. */
  bot(token: Uint8Array, move: BotMove, key: string): Promise<SealedTurn>;
  /** `as`'s view (a spectator's when undefined). */
  view(token: Uint8Array, as: KeyedSeat | undefined): Promise<GameView>;
  /** Events redacted again for a spectator: a hot-seat log shows every human the same. */
  redactForSpectator(token: Uint8Array, events: readonly Event[]): Promise<readonly Event[]>;
  /** The legal actions of `as`, which must act: ask only when the acting seat is the page's own. */
  legal(token: Uint8Array, as: KeyedSeat): Promise<LegalAction[]>;
  /** Replay a config and action log; the answer is `seat`'s view of the game after the last action. */
  replay(config: GameConfig, actions: readonly Action[], seat: number | undefined): Promise<DealtGame>;
}
