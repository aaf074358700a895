/**
 * The page: the setup form, a game in progress, the final ranking, and the replay of a record.
 * Everything is re-rendered from the session's state after each change; the log only grows.
 */
import {
  actingSeat,
  create,
  type Event as GameEvent,
  type GameConfig,
  GameConfigSchema,
  type GameView,
  isFinished,
  type LegalAction,
  EngineError,
  type TokenName,
} from "splendor-engine-client";
import { type CatalogIndex, plural } from "./catalog.js";
import { Describer, END_REASONS } from "./describe.js";
import { type Child, h, replaceChildren } from "./dom.js";
import type { Engine } from "./engine.js";
import { closeMenu } from "./choices.js";
import { LastMoves } from "./lastmove.js";
import { type Moves, NO_MOVES, sortMoves } from "./moves.js";
import { moveButton, section } from "./pieces.js";
import { type Picking, pickPanel } from "./pick.js";
import { without } from "./picker.js";
import { renderPlayers } from "./players.js";
import { priceOf } from "./price.js";
import { type GameRecord, recordFromJson, recordToJson, replayableConfig } from "./record.js";
import { Session } from "./session.js";
import { botName, HUMAN, linkOf, MODULES, moduleValues, type Setup, SetupError, setupFromLink } from "./setup.js";
import { setupForm } from "./setup-form.js";
import { renderTable, type TableContext } from "./table.js";

/**
 * Whether the engine could not be reached at all (no answer: the browser's fetch failed, or a
 * gateway said UNAVAILABLE), as opposed to an answer that refused the request.
 */
export function unreachable(error: unknown): boolean {
  if (error instanceof EngineError)
    return error.codeName === "UNAVAILABLE" || (error.reason === "" && error.cause.cause instanceof TypeError);
  return error instanceof TypeError;
}

/** How long to wait before the `attempt`th try to reach the engine again: 1, 2, 4, 8, then 10 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(10_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

/** The game's classes for its layout: its module and number of players. */
function gameClasses(config: GameConfig, view: GameView): string {
  const module =
    MODULES.find((entry) => entry.value !== undefined && config.modules.includes(entry.value))?.key ?? "none";
  return `module-${module} players-${view.players.length}`;
}

/** The engine's refusal (or any failure) in words. */
export function errorText(error: unknown): string {
  if (unreachable(error)) return `The engine cannot be reached at ${location.origin}: no answer.`;
  if (error instanceof EngineError) {
    const reason = error.reason === "" ? "" : ` (${error.reason})`;
    return `The engine refused: ${error.rawMessage}${reason}`;
  }
  if (error instanceof SetupError) return `This link cannot start a game: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export class App {
  private session: Session | undefined;
  private replay: { record: GameRecord; step: number; seat: number | undefined } | undefined;
  /** The log, one element for a whole game: lines are only added, so a screen reader hears each once. */
  private readonly logList = h("ol", { class: "log-lines", "aria-live": "polite", "aria-relevant": "additions" });
  /** Each seat's last move, from the events of the game on screen. */
  private lastMoves = new LastMoves();
  /** The moves already drawn arriving once the page settled: their pieces move in then, not on every redraw. */
  private animated = 0;
  /** The pending retry after the engine could not be reached, and how many tries have failed. */
  private retry: { timer: ReturnType<typeof setTimeout> | undefined; attempts: number } = {
    timer: undefined,
    attempts: 0,
  };
  private readonly openHoldings = new Set<number>();
  /** The tokens picked so far on this turn (gems to take, tokens to give back); emptied by every move. */
  private picked: TokenName[] = [];

  constructor(
    private readonly root: HTMLElement,
    private readonly status: HTMLElement,
    private readonly alert: HTMLElement,
    private readonly engine: Engine,
    private readonly catalog: CatalogIndex,
  ) {}

  /** Start from the page's link: a game when it asks for one, else the setup form. */
  async begin(search: string): Promise<void> {
    try {
      const setup = setupFromLink(search, this.catalog.botPolicies());
      if (setup === undefined) this.showSetup();
      else
        await this.startGame(setup).catch((error: unknown) => {
          if (!unreachable(error)) throw error;
          this.failed(error, () => this.startGame(setup));
        });
    } catch (error) {
      this.showSetup();
      this.showError(error);
    }
  }

  private seatLabel(seat: number, setup: readonly string[], viewer: number | undefined): string {
    const kind = setup[seat];
    return `Player ${seat + 1} (${this.seatKind(kind, seat === viewer)})`;
  }

  /** `"you"`, `"human"` or `"strong bot"`: who plays a seat. */
  private seatKind(kind: string | undefined, viewer: boolean): string {
    if (kind === HUMAN) return viewer ? "you" : "human";
    return `${botName(kind ?? "?", this.catalog.botPolicies())} bot`;
  }

  private showError(error: unknown): void {
    replaceChildren(this.alert, errorText(error));
    delete this.alert.dataset["retryIn"];
    this.alert.hidden = false;
  }

  private clearError(): void {
    this.alert.hidden = true;
    replaceChildren(this.alert);
    delete this.alert.dataset["retryIn"];
    if (this.retry.timer !== undefined) clearTimeout(this.retry.timer);
    this.retry = { timer: undefined, attempts: 0 };
  }

  /**
   * Show a failure; when the engine could not be reached, say so and try `again` after a growing
   * delay (and at once from the banner's button), until it answers or the player does something else.
   */
  private failed(error: unknown, again: () => Promise<void>): void {
    if (!unreachable(error)) {
      this.showError(error);
      return;
    }
    if (this.retry.timer !== undefined) clearTimeout(this.retry.timer);
    const attempts = this.retry.attempts + 1;
    const delay = retryDelayMs(attempts);
    const tryNow = async (): Promise<void> => {
      if (this.retry.timer !== undefined) clearTimeout(this.retry.timer);
      this.retry = { timer: undefined, attempts };
      try {
        await again();
      } catch (next) {
        this.failed(next, again);
        return;
      }
      this.clearError();
    };
    this.retry = { timer: setTimeout(() => void tryNow(), delay), attempts };
    replaceChildren(
      this.alert,
      `${errorText(error)} Trying again in ${Math.round(delay / 1000)} s… `,
      h("button", { type: "button", "data-retry-now": "", onclick: () => void tryNow() }, "Try now"),
    );
    this.alert.dataset["retryIn"] = String(delay);
    this.alert.hidden = false;
  }

  // The setup form.

  showSetup(): void {
    document.body.dataset["state"] = "setup";
    this.session?.stop();
    this.session = undefined;
    this.replay = undefined;
    this.clearError();
    replaceChildren(this.status, "Choose the players and a module, then start.");
    replaceChildren(
      this.root,
      setupForm(
        this.catalog.botPolicies(),
        (setup) => {
          history.pushState(null, "", linkOf(setup));
          void this.startGame(setup).catch((error: unknown) => this.failed(error, () => this.startGame(setup)));
        },
        (text) => void this.startReplay(text),
      ),
    );
  }

  // A game in progress.

  async startGame(setup: Setup): Promise<void> {
    this.clearError();
    this.session?.stop();
    this.replay = undefined;
    this.clearLog(true);
    this.lastMoves = new LastMoves();
    // Seed 0 lets the engine draw the deal's seed; a public deal names its own.
    const config = create(GameConfigSchema, {
      numPlayers: setup.players,
      seed: setup.publicSeed ?? 0n,
      modules: moduleValues(setup),
    });
    replaceChildren(this.status, "Dealing…");
    document.body.dataset["state"] = "busy"; // until the deal is on the table
    const searching = this.catalog.searchPolicies();
    const session = new Session(
      this.engine,
      setup,
      config,
      (policy) => searching.includes(policy),
      (events) => {
        if (this.session !== session) return;
        this.picked = [];
        this.lastMoves.take(events);
        this.logEvents(this.describer(setup.seats, session.state.viewer), events);
        this.renderGame();
      },
    );
    this.session = session;
    try {
      await session.start();
    } catch (error) {
      // Not dealt: the setup form (or the link's) is still what the page shows.
      if (this.session === session && document.body.dataset["state"] === "busy")
        document.body.dataset["state"] = "setup";
      throw error;
    }
  }

  /** Seats in the log: "you" for the viewer, unless several humans share the screen (hot seat). */
  private describer(seats: readonly string[], viewer: number | undefined): Describer {
    const hotSeat = seats.filter((kind) => kind === HUMAN).length > 1;
    return new Describer(this.catalog, (seat) => {
      if (seat === viewer && !hotSeat) return "you";
      return seats[seat] === HUMAN || seats[seat] === undefined
        ? `Player ${seat + 1}`
        : `Player ${seat + 1} (${botName(seats[seat], this.catalog.botPolicies())} bot)`;
    });
  }

  /** The log's lines for these events, numbered (the number in a box of its own, never clipped). */
  private logEvents(describer: Describer, events: readonly GameEvent[]): void {
    for (const event of events) {
      const line = describer.event(event);
      if (line === undefined) continue;
      const number = this.logList.children.length + 1;
      this.logList.append(
        h("li", {}, h("span", { class: "n", "aria-hidden": "true" }, number), h("span", { class: "text" }, line)),
      );
    }
  }

  private async play(action: LegalAction): Promise<void> {
    this.clearError();
    this.picked = [];
    const session = this.session;
    try {
      await session?.play(action);
    } catch (error) {
      // Not reached: nothing was played; the session waits on its last token and tries again.
      if (unreachable(error) && session !== undefined && session === this.session) session.stall();
      this.failed(error, () => this.resumeSession());
      this.renderGame();
    }
  }

  private async resumeSession(): Promise<void> {
    await this.session?.resume();
  }

  private async resume(): Promise<void> {
    this.clearError();
    try {
      await this.session?.resume();
    } catch (error) {
      this.failed(error, () => this.resumeSession());
    }
  }

  private renderGame(): void {
    const session = this.session;
    if (session === undefined) return;
    const { view, viewer, legal, busy, handover } = session.state;
    const seats = session.setup.seats;
    const label = (seat: number): string => this.seatLabel(seat, seats, viewer);
    const describer = this.describer(seats, viewer);
    const moves =
      busy || handover || viewer === undefined
        ? NO_MOVES
        : sortMoves(legal, describer, {
            priceOf: (cardId) => {
              const card = this.catalog.cards.get(cardId);
              return card === undefined ? undefined : priceOf(this.catalog, view, viewer, card);
            },
            bankGold: view.bank?.gold ?? 0,
          });
    closeMenu();
    const play = (action: LegalAction): void => void this.play(action);
    replaceChildren(this.status, this.statusText(view, viewer, seats, busy));
    // For tests and assistive tools: "busy" while the engine or a bot is moving.
    const stalled = session.state.stalled;
    document.body.dataset["state"] = isFinished(view)
      ? "over"
      : busy
        ? "busy"
        : handover
          ? "handover"
          : stalled
            ? "stalled"
            : "ready";
    if (handover && viewer !== undefined) {
      replaceChildren(
        this.root,
        h(
          "section",
          { class: "handover", "aria-labelledby": "handover-title" },
          h("h2", { id: "handover-title" }, `Player ${viewer + 1}: your turn`),
          h("p", {}, "Pass the device to this player, then show the table."),
          h(
            "button",
            { type: "button", class: "primary", onclick: () => (session.takeOver(), this.renderGame()) },
            "Show my table",
          ),
        ),
      );
      return;
    }
    const context: TableContext = {
      catalog: this.catalog,
      view,
      seatLabel: label,
      moves,
      play,
      picking: this.picking(),
      lastMoves: this.lastMoves,
    };
    // A new move arrives while the page is busy and once more when it settles; not again on every redraw.
    const animate = this.lastMoves.version !== this.animated;
    if (!busy) this.animated = this.lastMoves.version;
    replaceChildren(
      this.root,
      h(
        "div",
        { class: `game ${gameClasses(session.config, view)}${animate ? " arriving" : ""}` },
        h(
          "div",
          { class: "side" },
          this.movesPanel(moves, describer, view, viewer, busy),
          this.finalPanel(session, view, label),
          this.dealNote(session.setup),
          this.logPanel(),
        ),
        h("div", { class: "board" }, renderTable(context), renderPlayers(context, animate)),
      ),
    );
    this.keepHoldingsOpen();
    if (!busy && moves.count > 0) document.getElementById("moves-title")?.focus({ preventScroll: true });
  }

  /** What the viewer may click this turn, in words. */
  private moveHint(moves: Moves): string {
    const parts: string[] = [];
    if (moves.onCards.size > 0) parts.push("a card or a deck for its moves");
    else if (moves.onDecks.size > 0) parts.push("a deck to reserve its top card");
    if (moves.pick?.source === "bank") parts.push("the bank's gems to take them");
    const marks = moves.onCards.size > 0 ? " Green ring: you can buy it; dashed: you can reserve it." : "";
    return parts.length === 0 ? "" : `Click ${parts.join(", or ")}.${marks}`;
  }

  /** The pick in progress, with your own tokens when giving some back. */
  private pickPanel(moves: Moves, describer: Describer, play: (action: LegalAction) => void): HTMLElement | null {
    const state = this.session?.state;
    if (moves.pick === undefined || state === undefined) return null;
    // Gems from the bank: the pick shows from the first gem on (the hint says where to click).
    if (moves.pick.source === "bank" && this.picked.length === 0) return null;
    const held = state.viewer === undefined ? undefined : state.view.players[state.viewer]?.tokens;
    return pickPanel(moves.pick, this.picking(), held, describer, play);
  }

  /** The pick's changes, each followed by a fresh rendering of the table. */
  private picking(): Picking {
    return {
      picked: this.picked,
      add: (token) => {
        this.picked = [...this.picked, token];
        this.renderGame();
        // Keep the keyboard where it was while that colour can be picked again, else on Confirm.
        const again = `[data-gem="${token}"]:not([disabled]), [data-own-gem="${token}"]:not([disabled])`;
        (document.querySelector<HTMLElement>(again) ?? document.querySelector<HTMLElement>("[data-confirm]"))?.focus();
      },
      remove: (token) => {
        this.picked = token === "all" ? [] : without(this.picked, token);
        this.renderGame();
      },
    };
  }

  private statusText(view: GameView, viewer: number | undefined, seats: readonly string[], busy: boolean): string {
    const turn = `Turn ${view.turn + 1}, round ${view.round + 1}${view.finalRound ? " (final round)" : ""}. `;
    if (isFinished(view)) return `Game over after ${plural(view.turn, "turn")}.`;
    const seat = actingSeat(view);
    if (seat === viewer && !busy) return `${turn}Your move, Player ${seat + 1}.`;
    const who =
      seats[seat] === HUMAN
        ? `Player ${seat + 1}`
        : `Player ${seat + 1} (${botName(seats[seat] ?? "?", this.catalog.botPolicies())} bot)`;
    return `${turn}${who} is playing…`;
  }

  private movesPanel(
    moves: Moves,
    describer: Describer,
    view: GameView,
    viewer: number | undefined,
    busy: boolean,
  ): HTMLElement | null {
    if (isFinished(view)) return null;
    const play = (action: LegalAction): void => void this.play(action);
    const decision = view.pendingDecision;
    const mine = viewer !== undefined && actingSeat(view) === viewer && !busy;
    const body: Child[] = [];
    const stalled = this.session?.state.stalled ?? false;
    if (stalled) {
      body.push(
        h("p", { class: "waiting" }, "The last call failed (see the message above)."),
        h(
          "button",
          { type: "button", class: "primary", "data-resume": "", onclick: () => void this.resume() },
          "Try again",
        ),
      );
    } else if (!mine) {
      body.push(
        h(
          "p",
          { class: "waiting" },
          viewer === undefined ? "You are watching the bots play." : "Waiting for the other players…",
        ),
      );
    } else {
      if (decision !== undefined && decision.kind !== 0)
        body.push(h("p", { class: "decision" }, describer.decision(decision)));
      else body.push(h("p", { class: "hint" }, this.moveHint(moves)));
      body.push(this.pickPanel(moves, describer, play));
      if (moves.prompts.length > 0)
        body.push(
          h(
            "div",
            { class: "move-list" },
            moves.prompts.map((choice) => moveButton(choice.action, choice.label, play)),
          ),
        );
    }
    return h(
      "section",
      { class: "moves", id: "moves", "aria-labelledby": "moves-title" },
      h("h2", { id: "moves-title", tabindex: "-1" }, mine ? "Your move" : "Moves"),
      body,
    );
  }

  private finalPanel(
    session: Session | undefined,
    view: GameView,
    label: (seat: number) => string,
  ): HTMLElement | null {
    if (!isFinished(view)) return null;
    const winners = view.winners.map((seat) => label(seat)).join(" and ");
    return section(
      "Final ranking",
      "final",
      h(
        "p",
        { class: "end-reason" },
        `Game over: ${END_REASONS[view.endReason]}. ${winners} ${view.winners.length > 1 ? "share the victory" : "wins"}.`,
      ),
      h(
        "table",
        { class: "ranking" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Place"),
            h("th", { scope: "col" }, "Player"),
            h("th", { scope: "col" }, "Prestige"),
            h("th", { scope: "col" }, "Cards bought"),
          ),
        ),
        h(
          "tbody",
          {},
          view.ranking.map((standing) =>
            h(
              "tr",
              { "data-seat": standing.seat },
              h("td", {}, standing.place),
              h("th", { scope: "row" }, label(standing.seat)),
              h("td", {}, standing.prestige),
              h("td", {}, standing.purchasedCards),
            ),
          ),
        ),
      ),
      this.seedNote(session, view),
      this.replay === undefined && session !== undefined
        ? h(
            "p",
            { class: "actions" },
            this.exportButton(session, view),
            " ",
            h("a", { href: linkOf(session.setup) }, "Play again"),
          )
        : null,
    );
  }

  /** The deal's seed, revealed now the game is over, and the replay of this game from its start. */
  private seedNote(session: Session | undefined, view: GameView): HTMLElement | null {
    if (view.revealedSeed === undefined) return null;
    const config = session === undefined ? undefined : replayableConfig(session.config, view);
    return h(
      "p",
      { class: "seed-note", "data-revealed-seed": String(view.revealedSeed) },
      "The deal's seed, revealed now the game is over: ",
      h("code", {}, String(view.revealedSeed)),
      ". ",
      config === undefined || session === undefined
        ? null
        : h(
            "a",
            {
              href: "#replay",
              "data-replay-link": "",
              onclick: (event: Event) => {
                event.preventDefault();
                void this.openReplay({ config, seats: session.setup.seats, actions: [...session.actions] });
              },
            },
            "Replay this game from the start",
          ),
    );
  }

  /** A public deal says so: whoever knows its seed knows every deck's order. */
  private dealNote(setup: Setup): HTMLElement | null {
    if (setup.publicSeed === undefined) return null;
    return h(
      "p",
      { class: "deal-note", "data-public-deal": String(setup.publicSeed) },
      `Public deal from seed ${setup.publicSeed} (from the link): whoever knows the seed knows every deck's order.`,
    );
  }

  private logPanel(): HTMLElement {
    return section("What happened", "log", this.logList);
  }

  /** Empty the log; `live` says whether new lines are announced (not while replaying). */
  private clearLog(live: boolean): void {
    this.logList.replaceChildren();
    this.logList.setAttribute("aria-live", live ? "polite" : "off");
  }

  private keepHoldingsOpen(): void {
    this.root.querySelectorAll<HTMLDetailsElement>(".player details").forEach((details) => {
      const seat = Number(details.closest<HTMLElement>(".player")?.dataset["seat"]);
      details.open = this.openHoldings.has(seat) || details.dataset["mustOpen"] !== undefined;
      details.addEventListener("toggle", () =>
        details.open ? this.openHoldings.add(seat) : this.openHoldings.delete(seat),
      );
    });
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  /** The export of a finished game, whose final view reveals the deal's seed. */
  private exportButton(session: Session, finalView: GameView): HTMLElement {
    const config = replayableConfig(session.config, finalView);
    if (config === undefined)
      return h("span", { class: "hint" }, "The engine did not reveal this game's seed, so it cannot be exported.");
    return h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-export": "",
        onclick: () => this.exportRecord(config, session),
      },
      "Export the game record",
    );
  }

  private exportRecord(config: GameConfig, session: Session): void {
    const text = recordToJson({ config, seats: session.setup.seats, actions: session.actions });
    const link = h("a", {
      href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
      download: `splendor-game-${config.seed}.json`,
    });
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  // Replay of a record.

  async startReplay(text: string): Promise<void> {
    this.clearError();
    this.session?.stop();
    this.session = undefined;
    let record: GameRecord;
    try {
      record = recordFromJson(text);
    } catch (error) {
      this.showError(error);
      return;
    }
    await this.openReplay(record);
  }

  /** Replay a record from its deal, step by step. */
  private async openReplay(record: GameRecord): Promise<void> {
    this.clearError();
    this.session?.stop();
    this.session = undefined;
    const human = record.seats.indexOf(HUMAN);
    this.replay = { record, step: 0, seat: human < 0 ? undefined : human };
    await this.showStep().catch((error: unknown) => this.failed(error, () => this.showStep()));
  }

  private async showStep(): Promise<void> {
    const replay = this.replay;
    if (replay === undefined) return;
    const { record, step, seat } = replay;
    const turn = await this.engine.replay(record.config, record.actions.slice(0, step), seat);
    if (this.replay !== replay) return;
    const seats = record.seats.length > 0 ? record.seats : Array.from({ length: record.config.numPlayers }, () => "?");
    const describer = this.describer(seats, seat);
    this.clearLog(false);
    this.logEvents(describer, turn.events);
    const lastMoves = new LastMoves();
    lastMoves.take(turn.events);
    const label = (index: number): string => this.seatLabel(index, seats, seat);
    const context: TableContext = {
      catalog: this.catalog,
      view: turn.view,
      seatLabel: label,
      moves: NO_MOVES,
      play: () => undefined,
      picking: this.picking(),
      lastMoves,
    };
    const go = (next: number): void => {
      replay.step = Math.max(0, Math.min(record.actions.length, next));
      void this.showStep().catch((error: unknown) => this.failed(error, () => this.showStep()));
    };
    const last = record.actions[step - 1];
    replaceChildren(this.status, `Replay: action ${step} of ${record.actions.length}.`);
    document.body.dataset["state"] = "replay";
    replaceChildren(
      this.root,
      h(
        "div",
        { class: `game ${gameClasses(record.config, turn.view)}` },
        h(
          "div",
          { class: "side" },
          section(
            "Replay",
            "replay",
            h("p", {}, step === 0 ? "The deal." : `Action ${step}: ${describer.action(last)}.`),
            h(
              "div",
              { class: "replay-controls", role: "group", "aria-label": "replay steps" },
              h(
                "button",
                { type: "button", "data-replay": "start", onclick: () => go(0), disabled: step === 0 },
                "« Start",
              ),
              h(
                "button",
                { type: "button", "data-replay": "back", onclick: () => go(step - 1), disabled: step === 0 },
                "‹ Back",
              ),
              h(
                "button",
                {
                  type: "button",
                  "data-replay": "next",
                  onclick: () => go(step + 1),
                  disabled: step === record.actions.length,
                },
                "Next ›",
              ),
              h(
                "button",
                {
                  type: "button",
                  "data-replay": "end",
                  onclick: () => go(record.actions.length),
                  disabled: step === record.actions.length,
                },
                "End »",
              ),
            ),
            h(
              "label",
              { class: "field" },
              "See the game as ",
              h(
                "select",
                {
                  onchange: (event: Event) => {
                    const value = (event.target as HTMLSelectElement).value;
                    replay.seat = value === "" ? undefined : Number(value);
                    go(replay.step);
                  },
                },
                h("option", { value: "", selected: seat === undefined }, "a spectator"),
                seats.map((_, index) => h("option", { value: index, selected: seat === index }, `Player ${index + 1}`)),
              ),
            ),
          ),
          this.finalPanel(undefined, turn.view, label),
          this.logPanel(),
        ),
        h("div", { class: "board" }, renderTable(context), renderPlayers(context, false)),
      ),
    );
    this.keepHoldingsOpen();
  }
}
