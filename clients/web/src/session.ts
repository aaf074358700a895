/**
 * One game in progress: the sealed token, every seat's key, the view of the seat the page shows,
 * that seat's legal actions while it must act, the log, and the action log for export. Human
 * seats play by clicking; bot seats are played by the server, one call a move, each with a fresh
 * seed (never derived from the deal's, which the page does not know).
 */
import {
  type Action,
  actingSeat,
  type Event,
  type GameConfig,
  type GameView,
  isFinished,
  type LegalAction,
} from "splendor-engine-client";
import type { Engine, KeyedSeat, SealedTurn } from "./engine.js";
import { botSeed, HUMAN, type Setup } from "./setup.js";

export interface SessionState {
  readonly view: GameView;
  /** The seat whose view is shown; undefined for a spectator (no human seat). */
  readonly viewer: number | undefined;
  /** The viewer's legal actions while it must act; empty otherwise. */
  readonly legal: readonly LegalAction[];
  readonly busy: boolean;
  /** A hot-seat game passed to another human: hide the table until they take over. */
  readonly handover: boolean;
  /** A call failed after the token moved on (a bot's move, a view): `resume` tries again from here. */
  readonly stalled: boolean;
}

export type Listener = (events: readonly Event[]) => void;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class Session {
  private token: Uint8Array = new Uint8Array();
  /** One key per seat, from CreateGame: the page is the platform of its own game. */
  private seatKeys: readonly string[] = [];
  private stateNow: SessionState | undefined;
  /** Every action applied, bots' included, in order: with the config, the game's record. */
  readonly actions: Action[] = [];
  private stopped = false;

  constructor(
    private readonly engine: Engine,
    readonly setup: Setup,
    readonly config: GameConfig,
    /** Whether a policy searches (the catalog's `searchPolicies`), and so takes the setup's `iterations`. */
    private readonly searches: (policy: string) => boolean,
    private readonly onChange: Listener,
  ) {}

  get state(): SessionState {
    if (this.stateNow === undefined) throw new Error("the game has not started");
    return this.stateNow;
  }

  isHuman(seat: number): boolean {
    return this.setup.seats[seat] === HUMAN;
  }

  /** The hot-seat player has taken over: show the table. */
  takeOver(): void {
    if (this.stateNow !== undefined) this.stateNow = { ...this.stateNow, handover: false };
  }

  /** Stop playing bots (the page is leaving this game). */
  stop(): void {
    this.stopped = true;
  }

  /** `seat` with its key, for a request that looks or acts as that seat. */
  private keyed(seat: number): KeyedSeat {
    return { seat, key: this.seatKeys[seat] ?? "" };
  }

  async start(): Promise<void> {
    const viewer = this.setup.seats.indexOf(HUMAN);
    const dealt = await this.engine.create(
      this.config,
      viewer < 0 ? undefined : viewer,
      this.setup.publicSeed !== undefined,
    );
    this.seatKeys = dealt.seatKeys;
    await this.settle(dealt, viewer < 0 ? undefined : viewer);
  }

  /** Play the viewer's chosen legal action, then let the bots move. */
  async play(action: LegalAction): Promise<void> {
    const state = this.state;
    if (state.busy || state.viewer === undefined || action.action === undefined) return;
    this.stateNow = { ...state, busy: true, legal: [], handover: false, stalled: false };
    let turn: SealedTurn;
    try {
      turn = await this.engine.play(this.token, action.action, this.keyed(state.viewer));
    } catch (error) {
      this.stateNow = { ...state, busy: false }; // refused: nothing changed
      throw error;
    }
    this.actions.push(turn.applied?.action ?? action.action);
    await this.settle(turn, state.viewer);
  }

  /** A call could not reach the engine: wait on the last token until `resume`. */
  stall(): void {
    if (this.stateNow !== undefined) this.stateNow = { ...this.stateNow, legal: [], busy: false, stalled: true };
  }

  /** After a failed call: carry on from the last token the engine handed out. */
  async resume(): Promise<void> {
    const state = this.state;
    if (!state.stalled) return;
    await this.settle({ token: this.token, view: state.view, events: [], legal: [] }, state.viewer);
  }

  /**
   * Take in a call's answer, then play bots until a human must act or the game ends. A failed
   * call leaves the session stalled on the last token (see `resume`) and is rethrown.
   */
  private async settle(turn: SealedTurn, viewer: number | undefined): Promise<void> {
    try {
      await this.playBots(turn, viewer);
    } catch (error) {
      if (this.stateNow !== undefined) {
        this.stateNow = { ...this.stateNow, legal: [], busy: false, handover: false, stalled: true };
        this.onChange([]);
      }
      throw error;
    }
  }

  private async playBots(turn: SealedTurn, viewer: number | undefined): Promise<void> {
    this.token = turn.token;
    let events = turn.events;
    if (this.setup.seats.filter((kind) => kind === HUMAN).length > 1 && events.length > 0) {
      // Hot seat: the log is on one screen for every human, so it shows a spectator's events.
      events = await this.engine.redactForSpectator(turn.token, events);
    }
    this.stateNow = { view: turn.view, viewer, legal: turn.legal, busy: true, handover: false, stalled: false };
    this.onChange(events);
    let view = turn.view;
    let legal = turn.legal;
    let handover = false;
    while (!isFinished(view) && !this.stopped) {
      const seat = actingSeat(view);
      if (this.isHuman(seat)) {
        if (seat !== viewer) {
          // Another human's turn (hot seat): that seat's view, behind a hand-over screen.
          handover = viewer !== undefined;
          viewer = seat;
          view = await this.engine.view(this.token, this.keyed(seat));
        }
        if (legal.length === 0) legal = await this.engine.legal(this.token, this.keyed(seat));
        break;
      }
      if (this.setup.delayMs > 0) await sleep(this.setup.delayMs);
      if (this.stopped) return;
      const policy = this.setup.seats[seat] ?? "random";
      // Only a search bot takes a number of iterations; the engine refuses one for the others.
      const move = { policy, seed: botSeed(), iterations: this.searches(policy) ? this.setup.iterations : 0 };
      const played = await this.engine.bot(this.token, move, this.keyed(seat).key);
      if (played.applied?.action !== undefined) this.actions.push(played.applied.action);
      this.token = played.token;
      // The bot's answer is a spectator's view: the viewer's own view shows its hidden cards too.
      view = viewer === undefined ? played.view : await this.engine.view(this.token, this.keyed(viewer));
      legal = [];
      this.stateNow = { view, viewer, legal, busy: true, handover: false, stalled: false };
      this.onChange(played.events);
    }
    this.stateNow = { view, viewer, legal: isFinished(view) ? [] : legal, busy: false, handover, stalled: false };
    this.onChange([]);
  }
}
