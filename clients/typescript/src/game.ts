/**
 * The game a client holds between calls, and how it travels in requests and responses.
 *
 * The service is stateless: every call takes the game the previous call returned: the full
 * `GameState` (plain mode), or a sealed game token (`Uint8Array`, sealed mode). This file is
 * the one place that maps it to a request's `state_source` oneof and reads it back from a response.
 */
import type { ListLegalActionsRequest } from "./gen/splendor/v1/engine_service_pb.js";
import { DecisionKind, EndReason, type GameState } from "./gen/splendor/v1/state_pb.js";
import type { GameView } from "./gen/splendor/v1/view_pb.js";

/** A game as the engine handed it out, to send back with the next call. */
export type Game = GameState;

/**
 * The `state_source` oneof of the requests that work on a game: a state or a token in every such request
 * (`ApplyActionRequest`'s also takes a `deal`, which no game held between calls is).
 */
export type StateSource = ListLegalActionsRequest["stateSource"];

/** A sealed game: the game token the engine handed out (`sealed_state`), opaque to its holder. */
export type SealedToken = Uint8Array;

/** The `state_source` of a request about `game`: its full state, or its sealed token. */
export function stateSource(game: Game | SealedToken): StateSource {
  return game instanceof Uint8Array ? { case: "sealedState", value: game } : { case: "state", value: game };
}

/** The game a response hands out; throws if the response carries none. */
export function gameOf(response: { readonly state?: GameState | undefined }): Game {
  if (response.state === undefined) throw new TypeError("the engine's response carries no game state");
  return response.state;
}

/** True once the game (its full state or a seat's view of it) has ended. */
export function isFinished(game: GameState | GameView): boolean {
  return game.endReason !== EndReason.UNSPECIFIED;
}

/** The seat that must act: the deciding seat while a decision is pending, else the seat to play. */
export function actingSeat(game: GameState | GameView): number {
  return game.pendingDecision !== undefined && game.pendingDecision.kind !== DecisionKind.UNSPECIFIED
    ? game.pendingDecision.seat
    : game.seat;
}
