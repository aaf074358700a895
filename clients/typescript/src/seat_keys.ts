/**
 * Seat keys: which seat a sealed call names and which key it sends.
 *
 * A sealed game's CreateGame (or ReplayGame) hands out one key per seat. A sealed request that
 * names a seat, or acts (ApplyAction without a seat acts as the seat that must act, a server-side
 * bot's move included), must carry that seat's key, else the engine refuses it with
 * PERMISSION_DENIED; a request that only looks and names no seat is a spectator's and needs none.
 * This file is the one place that picks the seat and the key of a call.
 */
import { actingSeat, type SealedToken } from "./game.js";
import type { SealedStateBinding } from "./gen/splendor/v1/sealing_pb.js";
import type { GameView } from "./gen/splendor/v1/view_pb.js";

/** The keys a handle holds, by seat: every seat's for the game's creator, one for a player. */
export type SeatKeys = ReadonlyMap<number, string>;

/** A sealed game handle: its token and binding, the view that came with it, and the seat keys its holder was given. */
export interface SealedHandle {
  readonly token: SealedToken;
  readonly binding?: SealedStateBinding | undefined;
  readonly view: GameView;
  readonly seatKeys: SeatKeys;
}

/**
 * A sealed game to send: a bare token (its keys given with each call), or a handle holding its keys
 * (the `SealedGame` a call returned, or one of your own).
 */
export type SealedGameLike = SealedToken | SealedHandle;

/** The seat and key fields of a sealed request. */
export interface SeatFields {
  seat?: number;
  seatKey?: string;
}

/** The token of a sealed game. */
export function tokenOf(game: SealedGameLike): SealedToken {
  return game instanceof Uint8Array ? game : game.token;
}

/** The keys a sealed game holds (none for a bare token). */
export function keysOf(game: SealedGameLike): SeatKeys {
  return game instanceof Uint8Array ? new Map() : game.seatKeys;
}

/** The seat of a handle holding exactly one key (a player's), which its calls name by default. */
export function ownSeat(game: SealedGameLike): number | undefined {
  const keys = keysOf(game);
  return keys.size === 1 ? keys.keys().next().value : undefined;
}

/**
 * The seat a call names and the key it sends. The seat: the caller's, else a one-key handle's
 * own. The key: the caller's, else the handle's key of that seat or, for a call that `acts`
 * without naming a seat, of the seat that must act. No key field when there is none to send.
 */
export function seatFields(
  game: SealedGameLike,
  options: { readonly seat?: number | undefined; readonly seatKey?: string | undefined },
  acts: boolean,
): SeatFields {
  const seat = options.seat ?? ownSeat(game);
  const keySeat = seat ?? (acts && !(game instanceof Uint8Array) ? actingSeat(game.view) : undefined);
  const key = options.seatKey ?? (keySeat === undefined ? undefined : keysOf(game).get(keySeat));
  return { ...(seat === undefined ? {} : { seat }), ...(key === undefined || key === "" ? {} : { seatKey: key }) };
}

/** The keys of a CreateGame or ReplayGame response, by seat. */
export function keysBySeat(seatKeys: readonly string[]): SeatKeys {
  return new Map(seatKeys.map((key, seat) => [seat, key]));
}
