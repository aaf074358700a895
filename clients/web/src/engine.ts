/**
 * What the page asks of the engine, in sealed mode only: the page holds the game token and
 * the view of one seat (or a spectator's), never the plain state. Bots play on the server
 * (`ApplyActionRequest.bot`), so the page never lists another seat's legal actions.
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

export interface Engine {
  catalog(): Promise<Catalog>;
  /** Deal a sealed game; the view and events are `seat`'s (a spectator's when undefined). */
  create(config: GameConfig, seat: number | undefined): Promise<SealedTurn>;
  /** Play `seat`'s action; the answer holds `seat`'s view and, if it still acts, its legal actions. */
  play(token: Uint8Array, action: Action, seat: number): Promise<SealedTurn>;
  /** Let a server-side bot play the acting seat; the answer holds a spectator's view. */
  bot(token: Uint8Array, move: BotMove): Promise<SealedTurn>;
  /** `seat`'s view (a spectator's when undefined). */
  view(token: Uint8Array, seat: number | undefined): Promise<GameView>;
  /** Events redacted again for `seat` (a spectator when undefined): a hot-seat log shows every human the same. */
  redact(token: Uint8Array, events: readonly Event[], seat: number | undefined): Promise<readonly Event[]>;
  /** The legal actions of `seat`, which must act: ask only when the acting seat is the page's own. */
  legal(token: Uint8Array, seat: number): Promise<LegalAction[]>;
  /** Replay a config and action log; the answer is `seat`'s view of the game after the last action. */
  replay(config: GameConfig, actions: readonly Action[], seat: number | undefined): Promise<SealedTurn>;
}
