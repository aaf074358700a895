/**
 * `EngineClient`: one method per call of the `splendor.v1.EngineService`, with typed errors.
 *
 *     const client = new EngineClient(grpcTransport("127.0.0.1:50051"));
 *     let game = await client.newGame({ numPlayers: 2, seed: 7 });
 *     const legal = await client.legalActions(game.game);
 *     game = await client.apply(game.game, legal[0]!);
 *
 * Every call takes the game the previous call returned (`result.game`). Every failed call
 * throws an `EngineError` (see `errors.ts`). The transport decides the protocol: gRPC,
 * Connect or gRPC-Web (see `node.ts` and `web.ts`).
 *
 * A sealed game is a token dealt from a seed the server draws, with one key per seat: the
 * `SealedGame` keeps the keys and each call sends the key of the seat it names or acts as.
 *
 *     let game = await client.createSealed(gameConfig({ numPlayers: 2 }), { seat: 0 });
 *     game = await client.applySealed(game, (await client.legalActions(game, { seat: 0 }))[0]!, { seat: 0 });
 *     const mine = await client.join(game.token, { seat: 1, seatKey: game.seatKeys.get(1)! }); // a player's handle
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type CallOptions, type Client, createClient, type Transport } from "@connectrpc/connect";
import { type ActionLike, asAction } from "./actions.js";
import { type EngineError, fromConnectError, fromStatus } from "./errors.js";
import { type Game, gameOf, isFinished, type SealedToken, stateSource } from "./game.js";
import {
  keysBySeat,
  keysOf,
  type SealedGameLike,
  type SealedHandle,
  type SeatKeys,
  seatFields,
  tokenOf,
} from "./seat_keys.js";
import type { LegalAction } from "./gen/splendor/v1/actions_pb.js";
import type { Catalog } from "./gen/splendor/v1/catalog_pb.js";
import { type GameConfig, GameConfigSchema, Module } from "./gen/splendor/v1/config_pb.js";
import {
  type ApplyActionRequestSchema,
  type ApplyActionResponse,
  type BatchApplyActionsRequestSchema,
  type BatchApplyActionsResponse,
  type BatchApplyActionsResult,
  type AudienceSchema,
  type AudienceView,
  EngineService,
  type ListLegalActionsResponse,
  type SimulateResponse,
} from "./gen/splendor/v1/engine_service_pb.js";
import type { Event } from "./gen/splendor/v1/events_pb.js";
import type { GameState } from "./gen/splendor/v1/state_pb.js";
import type { SealedStateBinding } from "./gen/splendor/v1/sealing_pb.js";
import type { GameView } from "./gen/splendor/v1/view_pb.js";
import { readTokenHeader } from "./tokens.js";

/**
 * The header carrying a sealed game's id (public in its binding) with each call about it: a proxy can
 * hash on it (nginx `hash`, Envoy's ring hash) so that a game's calls meet the replica that served its
 * previous call, whose memo of states already checked makes the call cheaper.
 */
export const ROUTING_KEY_HEADER = "splendor-game-id";

/** The default deadline of each call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** A module name (`"cities"`, `"trading_posts"`, `"MODULE_ORIENT"`) or a `Module` value. */
export type ModuleLike = string | Module;

/** A game after a call: what to send back next, the full state, and the events that led to it. */
export interface GameResult {
  /** The game to send back with the next call. */
  readonly game: Game;
  /** The full state: the whole truth, for the platform (pass it through `view` before showing it). */
  readonly state: GameState;
  /** What the call caused, in order. */
  readonly events: readonly Event[];
  /** True once the game has ended. */
  readonly finished: boolean;
  /** After `apply`: the action applied with its id. */
  readonly applied?: LegalAction | undefined;
  /** After `apply` with `audiences`: each audience's view and the move's events as it may see them, in order. */
  readonly audienceViews?: readonly AudienceView[];
}

/**
 * A sealed game after a call: the new token to send back, what it is bound to, the game and
 * events as the request's seat (or a spectator) may see them, and the seat keys its holder was
 * given. Never the plain state. Pass it back to the next call: it sends the right key itself.
 */
export interface SealedGame extends SealedHandle {
  /** The game token to send back with the next call. */
  readonly token: SealedToken;
  /** What the token is bound to (game id, turn, step), in clear. */
  readonly binding: SealedStateBinding | undefined;
  /** The game as the request's seat (or a spectator) may see it. */
  readonly view: GameView;
  /** What the call caused, redacted for the same viewer. */
  readonly events: readonly Event[];
  /** True once the game has ended. */
  readonly finished: boolean;
  /** After ApplyAction: the action applied with its id (the bot's choice for a bot move). */
  readonly applied?: LegalAction | undefined;
  /** After ApplyAction with `includeLegalActions`: the legal actions of the request's seat if it must act next. */
  readonly legalActions: readonly LegalAction[];
  /** The seat that must act next; undefined once the game is over. */
  readonly actingSeat?: number | undefined;
  /** After ApplyAction with `audiences`: each audience's view and the move's events as it may see them, in order. */
  readonly audienceViews: readonly AudienceView[];
  /**
   * The seat keys this handle holds, by seat: every seat's after `createSealed` and `replaySealed`
   * (hand each player only its own), one after `join` (a player's handle, whose calls name its
   * seat by default), none after a call made with a bare token.
   */
  readonly seatKeys: SeatKeys;
}

/** @deprecated The old name of `SealedGame`. */
export type SealedResult = SealedGame;

/** One item's result in a batch: its `ApplyActionResponse`, or the `EngineError` its own `ApplyAction` call would throw. */
export type BatchOutcome = ApplyActionResponse | EngineError;

/** A batch item's response, or the `EngineError` for its refusal. */
export function outcome(result: BatchApplyActionsResult): BatchOutcome {
  switch (result.outcome.case) {
    case "response":
      return result.outcome.value;
    case "error":
      return fromStatus(result.outcome.value);
    default:
      throw new TypeError("the engine's batch result carries neither a response nor an error");
  }
}

/** A server-side bot's move: the policy (see `EngineClient.botPolicies`) chooses the acting seat's action. */
export interface BotMove {
  /** The policy's name, one of the server's `botPolicies()` (`"random"`, `"greedy"`, `"ismcts"` on this engine). */
  readonly policy: string;
  /** Seeds the policy's choices: the same game, policy and seed choose the same action. */
  readonly seed?: bigint | number;
  /** For search policies (the catalog's `searchPolicies`), the number of iterations (0: the policy's default). */
  readonly iterations?: number;
}

/** Whose view a sealed call returns, and with which key. */
export interface SealedOptions {
  /** The seat whose view (and events) the response carries; omitted for a spectator (or a one-key handle's seat). */
  readonly seat?: number | undefined;
  /** The key of that seat (or of the acting seat, for a move naming none); by default the one the handle holds. */
  readonly seatKey?: string | undefined;
}

/** How to deal a sealed game. */
export interface CreateSealedOptions {
  /** The seat whose view (and events) the response carries; omitted for a spectator. */
  readonly seat?: number | undefined;
  /**
   * Deal from `config.seed` as given, although whoever knows the seed knows every deck order
   * (tests, replays of known deals). Without it the server draws the seed, and a config with a
   * seed other than 0 is refused (`InvalidRequest`, reason `SEED_NOT_ALLOWED`).
   */
  readonly publicDeal?: boolean;
  /**
   * The game's tokens are refused (`InvalidRequest`, reason `SEALED_STATE_EXPIRED`) this many
   * seconds after the deal (`binding.expiresAt`); 0 or omitted: never.
   */
  readonly expiresInSeconds?: number;
}

/** What one seat (or a spectator) may see: the redacted game and the redacted events. */
export interface ViewResult {
  readonly view: GameView;
  readonly events: readonly Event[];
}

/** A replayed game: the final state, every event, and the SHA-256 hex digest of the state after each action. */
export interface ReplayResult {
  readonly state: GameState;
  readonly events: readonly Event[];
  readonly stateDigests: readonly string[];
}

/** What a replay leaves out; without both it costs little more than its moves. */
export interface ReplayOptions {
  /** false: no digest after each action (`stateDigests` empty); default true. */
  readonly stateDigests?: boolean;
  /** false: no events (`events` empty); default true. */
  readonly events?: boolean;
}

/** A game to deal; everything omitted takes the engine's default. */
export interface NewGameOptions {
  /** 2 to 4; default 2. */
  readonly numPlayers?: number;
  /** The seed of every shuffle, a uint64 (a bigint, or a safe integer or decimal string); default 0. */
  readonly seed?: bigint | number | string;
  /** The seat that plays first; omitted, it is drawn from the seed. */
  readonly firstSeat?: number;
  /** At most one module: they are played one at a time. */
  readonly modules?: readonly ModuleLike[];
  /** Turns (all seats together) after which the game ends; 0 (the default) means no limit. */
  readonly turnLimit?: number;
}

/** How to apply an action. */
export interface ApplyOptions {
  /** The sender: refused with `NOT_YOUR_TURN` unless it must act. */
  readonly seat?: number;
  /** Only check: the result holds the unchanged game and no events. */
  readonly validateOnly?: boolean;
  /** Refused with `STALE_STATE` unless the game is at this turn. */
  readonly expectedTurn?: number;
  /**
   * Sealed games: refused with `STEP_MISMATCH` unless the token is at this step (`binding.step`).
   * A platform sends the step of the newest token it handed out, so rewinds and the loser of two
   * concurrent moves are refused.
   */
  readonly expectedStep?: bigint | number;
  /**
   * Also return the game after the move and its events as each of these audiences may see them
   * (`audienceViews`): seats, `undefined` for a spectator, or `"all"` for every seat and a
   * spectator. A sealed handle sends each seat's key it holds.
   */
  readonly audiences?: "all" | readonly (number | undefined)[];
}

/** How to play a game out on the server (`simulate`). */
export interface SimulateOptions {
  /** One policy for every seat, or one per seat in seat order; only policies that do not search. */
  readonly policies: BotMove | readonly BotMove[];
  /** Number of playouts, 1 to 1000. */
  readonly playouts: number;
  /** The most actions a playout may take before it is cut off (unfinished); 0 or omitted: 1000. */
  readonly maxActions?: number;
  /** Seeds the whole simulation (plain mode: the same request gives the same outcomes). */
  readonly seed?: bigint | number;
  /**
   * Play from fresh samples of what this seat sees instead of the state itself; required for a
   * sealed game (its key: `seatKey`, by default the one the handle holds).
   */
  readonly seat?: number | undefined;
  readonly seatKey?: string | undefined;
}

/** Which samples of the hidden cards to draw (`determinize`). */
export interface DeterminizeOptions {
  /** The seat whose knowledge the samples keep (with a sealed game, its key: `seatKey` or the handle's). */
  readonly seat: number;
  /** Number of samples, 1 to 64. */
  readonly count: number;
  /** Seeds the sampling (plain mode: the same request gives the same samples). */
  readonly seed?: bigint | number;
  readonly seatKey?: string | undefined;
}

/** Whose view to take. */
export interface ViewOptions {
  /** The seat to see the game as; omitted (or undefined) for a spectator (or a one-key handle's seat). */
  readonly seat?: number | undefined;
  /** With a sealed game: the key of that seat; by default the one the handle holds. */
  readonly seatKey?: string | undefined;
  /** Events to redact for the same viewer, typically those `apply` returned. */
  readonly events?: readonly Event[];
}

/** Options of every call of a client. */
export interface ClientOptions {
  /** Each call's deadline in milliseconds (`DEFAULT_TIMEOUT_MS` by default; 0: no deadline). */
  readonly timeoutMs?: number;
  /** Headers (gRPC metadata) sent with every call. */
  readonly headers?: HeadersInit;
  /**
   * Send a sealed game's id with each call about it (`ROUTING_KEY_HEADER`); default true. A browser
   * page calling an engine on another origin sends it only if the engine's CORS policy allows the
   * header: pass false otherwise.
   */
  readonly routingKey?: boolean;
}

/** A transport the client can release when it closes (see `node.ts`). */
export interface ClosableTransport extends Transport {
  close(): void;
}

/** The `Module` value of a module name or value. Throws `RangeError` for an unknown one. */
export function moduleValue(module: ModuleLike): Module {
  if (typeof module === "number") {
    if (Module[module] === undefined || module === Module.UNSPECIFIED)
      throw new RangeError(`unknown module value ${module}`);
    return module;
  }
  const key = module
    .trim()
    .toUpperCase()
    .replace(/[- ]/g, "_")
    .replace(/^MODULE_/, "");
  const value: unknown = Module[key as keyof typeof Module];
  if (typeof value !== "number" || value === Module.UNSPECIFIED) {
    const known = Object.keys(Module).filter((name) => Number.isNaN(Number(name)) && name !== "UNSPECIFIED");
    throw new RangeError(
      `unknown module ${JSON.stringify(module)}: use one of ${known.map((name) => name.toLowerCase()).join(", ")}`,
    );
  }
  return value as Module;
}

/** A `GameConfig` from plain options (see `NewGameOptions`). */
export function gameConfig(options: NewGameOptions = {}): GameConfig {
  const init: MessageInitShape<typeof GameConfigSchema> = {
    numPlayers: options.numPlayers ?? 2,
    seed: BigInt(options.seed ?? 0),
    modules: (options.modules ?? []).map(moduleValue),
    turnLimit: options.turnLimit ?? 0,
  };
  if (options.firstSeat !== undefined) init.firstSeat = options.firstSeat;
  return create(GameConfigSchema, init);
}

/** A client of the engine service over a Connect transport (gRPC, Connect or gRPC-Web). */
export class EngineClient {
  private readonly service: Client<typeof EngineService>;
  private readonly callOptions: CallOptions;
  private readonly routingKey: boolean;

  constructor(
    private readonly transport: Transport | ClosableTransport,
    options: ClientOptions = {},
  ) {
    this.service = createClient(EngineService, transport);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.callOptions = {
      ...(timeoutMs > 0 ? { timeoutMs } : {}),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
    };
    this.routingKey = options.routingKey ?? true;
  }

  /** Release the transport's connection, if the transport has one to release. */
  close(): void {
    if ("close" in this.transport) this.transport.close();
  }

  /** The static game data: cards, nobles and the action-id layout. */
  async getCatalog(): Promise<Catalog> {
    const response = await this.call(() => this.service.getCatalog({}, this.callOptions));
    if (response.catalog === undefined) throw new TypeError("the engine's response carries no catalog");
    return response.catalog;
  }

  /** The server-side bot policies this server plays (`BotMove.policy`), weakest first: its catalog's list. */
  async botPolicies(): Promise<string[]> {
    return [...(await this.getCatalog()).botPolicies];
  }

  /** Deal a game: its state and the deal's events (`GameStarted`, then each revealed card). */
  async createGame(config: GameConfig): Promise<GameResult> {
    const response = await this.call(() => this.service.createGame({ config }, this.callOptions));
    return gameResult(response);
  }

  /** Deal a game from plain options (see `gameConfig`). */
  async newGame(options: NewGameOptions = {}): Promise<GameResult> {
    return this.createGame(gameConfig(options));
  }

  /**
   * The full `ListLegalActions` response: the legal actions and the seat that must act (`actingSeat`).
   * For a sealed game, pass the asking `seat`: a seat that is not acting is listed no actions; without
   * a seat (a spectator) the acting seat's are listed but the purchases of the cards it reserved blind
   * (they name the hidden card).
   */
  async listLegalActions(game: Game | SealedGameLike, options: SealedOptions = {}): Promise<ListLegalActionsResponse> {
    const request = { ...gameFields(game, options, false) };
    return this.call(() => this.service.listLegalActions(request, this.optionsFor(game)));
  }

  /** Every legal action of the seat that must act (the pending decision's answers while one is pending). */
  async legalActions(game: Game | SealedGameLike, options: SealedOptions = {}): Promise<LegalAction[]> {
    return (await this.listLegalActions(game, options)).actions;
  }

  /** Apply an action (an `Action`, a `LegalAction` or an action id). Throws `RuleRejected` for an illegal move. */
  async apply(game: Game, action: ActionLike, options: ApplyOptions = {}): Promise<GameResult> {
    const request = {
      stateSource: stateSource(game),
      action: asAction(action),
      validateOnly: options.validateOnly ?? false,
      ...(options.seat === undefined ? {} : { seat: options.seat }),
      ...moveChecks(options),
      audiences: audiencesOf(options.audiences, game.players.length, new Map()),
    };
    return gameResult(await this.call(() => this.service.applyAction(request, this.callOptions)));
  }

  /**
   * Many independent `ApplyAction` requests in one call (`BatchApplyActions`), each as `applyAction`
   * would send it (plain or sealed with its `seatKey`, an action or a `bot`, the same options): for
   * each, in order, its `ApplyActionResponse` or the `EngineError` its own call would throw,
   * returned in its place (one refused item never fails the others). Throws only when the call
   * itself fails: `BatchTooLarge` (reason `BATCH_TOO_LARGE`) beyond the catalog's
   * `limits.maxBatchItems`, `RESPONSE_TOO_LARGE` for an answer over `limits.maxResponseBytes`, a
   * busy or unreachable engine.
   */
  async applyBatch(requests: readonly MessageInitShape<typeof ApplyActionRequestSchema>[]): Promise<BatchOutcome[]> {
    return (await this.batchRequest({ requests: [...requests] })).results.map(outcome);
  }

  /** The full `BatchApplyActions` response to a batch of your own: one result per item (`outcome` reads each). */
  async batchRequest(
    request: MessageInitShape<typeof BatchApplyActionsRequestSchema>,
  ): Promise<BatchApplyActionsResponse> {
    return this.call(() => this.service.batchApplyActions(request, this.callOptions));
  }

  /** The game (and `events`) as `seat` may see them; no seat for a spectator. */
  async view(game: Game | SealedGameLike, options: ViewOptions = {}): Promise<ViewResult> {
    const request = { ...gameFields(game, options, false), events: [...(options.events ?? [])] };
    const response = await this.call(() => this.service.getPlayerView(request, this.optionsFor(game)));
    if (response.view === undefined) throw new TypeError("the engine's response carries no view");
    return { view: response.view, events: response.events };
  }

  /** Replay an action log from its config: the final state, every event and a digest after each action. */
  async replay(config: GameConfig, actions: Iterable<ActionLike>, options: ReplayOptions = {}): Promise<ReplayResult> {
    const request = {
      config,
      actions: Array.from(actions, asAction),
      skipStateDigests: options.stateDigests === false,
      skipEvents: options.events === false,
    };
    const response = await this.call(() => this.service.replayGame(request, this.callOptions));
    if (response.state === undefined) throw new TypeError("the engine's response carries no state");
    return { state: response.state, events: response.events, stateDigests: response.stateDigests };
  }

  /**
   * Play the game out on the server, `playouts` times, with server-side policies: each playout's
   * outcome and their aggregate (`summary`: wins per seat, mean length, playouts cut off).
   */
  async simulate(game: Game | SealedGameLike, options: SimulateOptions): Promise<SimulateResponse> {
    const policies = "policy" in options.policies ? [options.policies] : options.policies;
    const request = {
      ...gameFields(game, options, false),
      policies: policies.map(botChoice),
      playouts: options.playouts,
      maxActions: options.maxActions ?? 0,
      seed: BigInt(options.seed ?? 0),
    };
    return this.call(() => this.service.simulate(request, this.callOptions));
  }

  /**
   * Full states that `seat` cannot tell apart from the game: every card hidden from it dealt again
   * at random (samples for a search bot, never the truth), in the clear.
   */
  async determinize(game: Game | SealedGameLike, options: DeterminizeOptions): Promise<GameState[]> {
    const request = {
      ...gameFields(game, options, false),
      seat: options.seat,
      count: options.count,
      seed: BigInt(options.seed ?? 0),
    };
    return (await this.call(() => this.service.determinize(request, this.callOptions))).states;
  }

  /**
   * Deal a sealed game: a token instead of the state, and `seat`'s view (a spectator's without
   * one). For games whose state goes to players or bots the platform does not trust.
   */
  async createSealed(config: GameConfig, options: CreateSealedOptions = {}): Promise<SealedGame> {
    const request = {
      config,
      sealed: true,
      publicDeal: options.publicDeal ?? false,
      expiresInSeconds: options.expiresInSeconds ?? 0,
      ...seatField(options.seat),
    };
    const response = await this.call(() => this.service.createGame(request, this.callOptions));
    return sealedResult(response, keysBySeat(response.seatKeys));
  }

  /**
   * One player's handle on a sealed game: the token and `seat`'s key only, with that seat's view
   * (what a platform hands a player). Its calls name `seat` and send its key by default. A bare
   * token's `binding` is read from its header. Throws `PermissionDenied` when the key is not that
   * seat's.
   */
  async join(game: SealedGameLike, options: { readonly seat: number; readonly seatKey?: string }): Promise<SealedGame> {
    const key = options.seatKey ?? keysOf(game).get(options.seat) ?? "";
    const request = {
      stateSource: stateSource(tokenOf(game)),
      seat: options.seat,
      ...(key === "" ? {} : { seatKey: key }),
    };
    const response = await this.call(() => this.service.getPlayerView(request, this.optionsFor(game)));
    if (response.view === undefined) throw new TypeError("the engine's response carries no view");
    return {
      token: tokenOf(game),
      binding: game instanceof Uint8Array ? readTokenHeader(game).binding : game.binding, // it opened: it reads
      view: response.view,
      events: [],
      finished: isFinished(response.view),
      legalActions: [],
      actingSeat: response.actingSeat,
      audienceViews: [],
      seatKeys: new Map([[options.seat, key]]),
    };
  }

  /**
   * Apply an action to a sealed game — or let a server-side bot choose it (`{ policy, seed }`) —
   * and get the new token and `seat`'s view. With `includeLegalActions`, the answer also lists
   * `seat`'s legal actions when it must act next.
   */
  async applySealed(
    game: SealedGameLike,
    move: ActionLike | BotMove,
    options: SealedOptions & Omit<ApplyOptions, "seat"> & { readonly includeLegalActions?: boolean } = {},
  ): Promise<SealedGame> {
    const bot = typeof move === "object" && "policy" in move;
    const request = {
      ...gameFields(game, options, true),
      ...(bot ? { bot: botChoice(move) } : { action: asAction(move) }),
      includeLegalActions: options.includeLegalActions ?? false,
      validateOnly: options.validateOnly ?? false,
      ...moveChecks(options),
      audiences: audiencesOf(options.audiences, numPlayersOf(game), keysOf(game)),
    };
    const response = await this.call(() => this.service.applyAction(request, this.optionsFor(game)));
    return sealedResult(response, keysOf(game));
  }

  /** A sealed game (and `events`) as `seat` may see them; no seat for a spectator. */
  async viewSealed(game: SealedGameLike, options: ViewOptions = {}): Promise<ViewResult> {
    return this.view(game, options);
  }

  /**
   * Replay an action log into a sealed game: the final token (a new game id, its binding's
   * `publicDeal` set: the deal came from `config.seed`), `seat`'s view with every event redacted
   * for it, and every seat's new key.
   */
  async replaySealed(
    config: GameConfig,
    actions: Iterable<ActionLike>,
    options: Pick<SealedOptions, "seat"> & Pick<CreateSealedOptions, "expiresInSeconds"> = {},
  ): Promise<SealedGame> {
    const request = {
      config,
      actions: Array.from(actions, asAction),
      sealed: true,
      expiresInSeconds: options.expiresInSeconds ?? 0,
      ...seatField(options.seat),
    };
    const response = await this.call(() => this.service.replayGame(request, this.callOptions));
    return sealedResult(response, keysBySeat(response.seatKeys));
  }

  /**
   * The options of a call about `game`: a sealed handle's game id as the routing key, the header a
   * proxy can hash on to send a game's calls to one replica (see `ROUTING_KEY_HEADER`).
   */
  private optionsFor(game: Game | SealedGameLike): CallOptions {
    const gameId = game instanceof Uint8Array || !("token" in game) ? undefined : game.binding?.gameId;
    if (!this.routingKey || gameId === undefined || gameId === "") return this.callOptions;
    const headers = new Headers(this.callOptions.headers);
    headers.set(ROUTING_KEY_HEADER, gameId);
    return { ...this.callOptions, headers };
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw fromConnectError(error);
    }
  }
}

/** The `BotChoice` of a server-side bot's move. */
function botChoice(move: BotMove): { policy: string; seed: bigint; iterations: number } {
  return { policy: move.policy, seed: BigInt(move.seed ?? 0), iterations: move.iterations ?? 0 };
}

function seatField(seat: number | undefined): { seat?: number } {
  return seat === undefined ? {} : { seat };
}

/** The `expectedTurn` and `expectedStep` fields of a move, when asked for. */
function moveChecks(options: Pick<ApplyOptions, "expectedTurn" | "expectedStep">): {
  expectedTurn?: number;
  expectedStep?: bigint;
} {
  return {
    ...(options.expectedTurn === undefined ? {} : { expectedTurn: options.expectedTurn }),
    ...(options.expectedStep === undefined ? {} : { expectedStep: BigInt(options.expectedStep) }),
  };
}

/** The number of seats of a sealed game, from its view (a bare token holds no key: a spectator's audience only). */
function numPlayersOf(game: SealedGameLike): number {
  return game instanceof Uint8Array ? 0 : game.view.numPlayers;
}

/** A move's audiences, each seat's with the key the handle holds for it (`"all"`: every seat, then a spectator). */
function audiencesOf(
  audiences: ApplyOptions["audiences"],
  numPlayers: number,
  keys: SeatKeys,
): MessageInitShape<typeof AudienceSchema>[] {
  const seats = audiences === "all" ? [...Array.from({ length: numPlayers }, (_, seat) => seat), undefined] : audiences;
  return (seats ?? []).map((seat) =>
    seat === undefined ? {} : { seat, ...(keys.get(seat) === undefined ? {} : { seatKey: keys.get(seat)! }) },
  );
}

/** The `state_source` of a request about `game`, and for a sealed game the seat it names and its key. */
function gameFields(
  game: Game | SealedGameLike,
  options: { readonly seat?: number | undefined; readonly seatKey?: string | undefined },
  acts: boolean,
) {
  if (game instanceof Uint8Array || "token" in game) {
    return { stateSource: stateSource(tokenOf(game)), ...seatFields(game, options, acts) };
  }
  return { stateSource: stateSource(game), ...seatField(options.seat) };
}

function sealedResult(
  response: {
    readonly sealedState: Uint8Array;
    readonly sealedStateBinding?: SealedStateBinding | undefined;
    readonly view?: GameView | undefined;
    readonly events: Event[];
    readonly applied?: LegalAction | undefined;
    readonly legalActions?: LegalAction[];
    readonly actingSeat?: number | undefined;
    readonly audienceViews?: AudienceView[];
  },
  seatKeys: SeatKeys,
): SealedGame {
  if (response.sealedState.length === 0) throw new TypeError("the engine's response carries no sealed state");
  if (response.view === undefined) throw new TypeError("the engine's response carries no view");
  return {
    token: response.sealedState,
    binding: response.sealedStateBinding,
    view: response.view,
    events: response.events,
    finished: isFinished(response.view),
    applied: response.applied,
    legalActions: response.legalActions ?? [],
    actingSeat: response.actingSeat,
    audienceViews: response.audienceViews ?? [],
    seatKeys,
  };
}

function gameResult(response: {
  readonly state?: GameState | undefined;
  readonly events: Event[];
  readonly applied?: LegalAction | undefined;
  readonly audienceViews?: AudienceView[];
}): GameResult {
  const game = gameOf(response);
  // Today the game handed out is the full state itself.
  return {
    game,
    state: game,
    events: response.events,
    finished: isFinished(game),
    ...(response.applied === undefined ? {} : { applied: response.applied }),
    ...(response.audienceViews === undefined ? {} : { audienceViews: response.audienceViews }),
  };
}
