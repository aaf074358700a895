/**
 * The `Engine` the page uses, over Connect JSON on the page's own origin: every game call sends
 * and receives the sealed token, never a plain state, and carries the seat key of the seat it
 * names or acts as. The requests are built from the generated messages and sent through the
 * client's transport (the TypeScript client's `EngineClient` has no seat keys yet); errors become
 * the client's `SplendorError`.
 */
import { EngineService, type Event, fromConnectError, type GameView, type LegalAction } from "splendor-engine-client";
import type { webConnectTransport } from "splendor-engine-client/web";
import type { DealtGame, Engine, KeyedSeat, SealedTurn } from "./engine.js";

type Transport = ReturnType<typeof webConnectTransport>;

interface SealedResponse {
  readonly sealedState: Uint8Array;
  readonly view?: GameView | undefined;
  readonly events: Event[];
  readonly legalActions?: LegalAction[];
  readonly applied?: LegalAction | undefined;
}

function turnOf(response: SealedResponse): SealedTurn {
  if (response.sealedState.length === 0) throw new TypeError("the engine's response carries no game token");
  if (response.view === undefined) throw new TypeError("the engine's response carries no view");
  return {
    token: response.sealedState,
    view: response.view,
    events: response.events,
    legal: response.legalActions ?? [],
    applied: response.applied,
  };
}

function dealtOf(response: SealedResponse & { readonly seatKeys: string[] }): DealtGame {
  return { ...turnOf(response), seatKeys: response.seatKeys };
}

/** The request fields naming `as` (none for a spectator). */
function seatFields(as: KeyedSeat | undefined): { seat?: number; seatKey?: string } {
  return as === undefined ? {} : { seat: as.seat, seatKey: as.key };
}

function seatField(seat: number | undefined): { seat?: number } {
  return seat === undefined ? {} : { seat };
}

const sealed = (token: Uint8Array) => ({ case: "sealedState" as const, value: token });

export function connectEngine(transport: Transport, timeoutMs: number): Engine {
  const methods = EngineService.method;
  /** Run one call; a failure becomes a `SplendorError` carrying the engine's reason. */
  const guard = async <T>(run: () => Promise<{ readonly message: T }>): Promise<T> => {
    try {
      return (await run()).message;
    } catch (error) {
      throw fromConnectError(error);
    }
  };
  const unary = transport.unary.bind(transport);
  return {
    catalog: async () => {
      const response = await guard(() => unary(methods.getCatalog, undefined, timeoutMs, undefined, {}));
      if (response.catalog === undefined) throw new TypeError("the engine's response carries no catalog");
      return response.catalog;
    },
    create: async (config, seat, publicDeal) =>
      dealtOf(
        await guard(() =>
          unary(methods.createGame, undefined, timeoutMs, undefined, {
            config,
            sealed: true,
            publicDeal,
            ...seatField(seat),
          }),
        ),
      ),
    play: async (token, action, as) =>
      turnOf(
        await guard(() =>
          unary(methods.applyAction, undefined, timeoutMs, undefined, {
            stateSource: sealed(token),
            action,
            includeLegalActions: true,
            ...seatFields(as),
          }),
        ),
      ),
    // No seat: the answer is a spectator's view, so a bot's hidden cards never reach the page;
    // the key is the acting bot seat's, as the move acts for it.
    bot: async (token, move, key) =>
      turnOf(
        await guard(() =>
          unary(methods.applyAction, undefined, timeoutMs, undefined, {
            stateSource: sealed(token),
            bot: { policy: move.policy, seed: move.seed, iterations: move.iterations ?? 0 },
            seatKey: key,
          }),
        ),
      ),
    view: async (token, as) => {
      const response = await guard(() =>
        unary(methods.getPlayerView, undefined, timeoutMs, undefined, {
          stateSource: sealed(token),
          ...seatFields(as),
        }),
      );
      if (response.view === undefined) throw new TypeError("the engine's response carries no view");
      return response.view;
    },
    redactForSpectator: async (token, events) =>
      (
        await guard(() =>
          unary(methods.getPlayerView, undefined, timeoutMs, undefined, {
            stateSource: sealed(token),
            events: [...events],
          }),
        )
      ).events,
    legal: async (token, as) =>
      (
        await guard(() =>
          unary(methods.listLegalActions, undefined, timeoutMs, undefined, {
            stateSource: sealed(token),
            ...seatFields(as),
          }),
        )
      ).actions,
    replay: async (config, actions, seat) =>
      dealtOf(
        await guard(() =>
          unary(methods.replayGame, undefined, timeoutMs, undefined, {
            config,
            actions: [...actions],
            sealed: true,
            ...seatField(seat),
          }),
        ),
      ),
  };
}
