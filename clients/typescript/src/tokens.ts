/**
 * Read a game token's header: its format version, key id and binding, without any key.
 *
 *     const header = readTokenHeader(game.token);
 *     header.binding.gameId, header.binding.step, header.binding.actingSeat;
 *
 * The header is in clear so that a platform can do its bookkeeping without opening tokens: refuse
 * a rewind (a step other than the newest it handed out), route a game, see whose turn it is or
 * when the game expires. It is authenticated inside the token, so a token whose header was
 * altered does not open; but reading it here checks nothing: only the engine can tell an authentic
 * token. The layout is the one `SealedStateBinding` documents in `splendor/v1/sealing.proto`
 * (format versions 1 to 3).
 */
import { create } from "@bufbuild/protobuf";
import { type SealedStateBinding, SealedStateBindingSchema } from "./gen/splendor/v1/sealing_pb.js";

/** The longest token the engine issues; longer input is refused unread. */
export const MAX_TOKEN_BYTES = 16 * 1024;
const NONCE_BYTES = 12;
const MIN_SEALED_BYTES = 48; // one 32-byte block of ciphertext and the 16-byte tag
const NO_ACTING_SEAT = 255;
const FLAG_PUBLIC_DEAL = 0x01;
const BINDING_BYTES = 16 + 4 + 8; // game id, turn, step
// The bytes each version's header has after the binding: flags (2, 3), then acting seat and expiry (3).
const TAIL_BYTES: Readonly<Record<number, number>> = { 1: 0, 2: 1, 3: 1 + 1 + 8 };
const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;

/** Why bytes are not a token's header: the engine's reason for refusing the same bytes. */
export type TokenHeaderReason =
  "SEALED_STATE_MALFORMED" | "SEALED_STATE_TOO_LARGE" | "SEALED_STATE_VERSION_UNSUPPORTED";

/** Bytes that are not a game token's header. */
export class TokenHeaderError extends Error {
  constructor(
    readonly reason: TokenHeaderReason,
    message: string,
  ) {
    super(message);
    this.name = "TokenHeaderError";
  }
}

/** A token's readable header. */
export interface TokenHeader {
  /** The token format version: 1 to 3. */
  readonly version: number;
  /** The id of the key ring entry that sealed the token. */
  readonly keyId: string;
  /**
   * What the engine returns next to the token (`sealedStateBinding`): game id, turn, step, public
   * deal, acting seat (undefined once the game is over, and in a version 1 or 2 header, which does
   * not record it) and expiry (0n: never).
   */
  readonly binding: SealedStateBinding;
}

/** The header of `token`, unauthenticated; throws `TokenHeaderError` for bytes no engine issued as a token. */
export function readTokenHeader(token: Uint8Array): TokenHeader {
  if (token.length > MAX_TOKEN_BYTES) {
    throw new TokenHeaderError(
      "SEALED_STATE_TOO_LARGE",
      `${token.length} bytes: tokens are at most ${MAX_TOKEN_BYTES}`,
    );
  }
  if (token.length === 0) throw new TokenHeaderError("SEALED_STATE_MALFORMED", "the token is empty");
  const version = token[0]!;
  const tailBytes = TAIL_BYTES[version];
  if (tailBytes === undefined) {
    throw new TokenHeaderError("SEALED_STATE_VERSION_UNSUPPORTED", `token format version ${version} is not 1 to 3`);
  }
  const keyIdEnd = 2 + (token.length > 1 ? token[1]! : 0);
  const tailAt = keyIdEnd + BINDING_BYTES;
  if (token.length < tailAt + tailBytes + NONCE_BYTES + MIN_SEALED_BYTES) {
    throw new TokenHeaderError("SEALED_STATE_MALFORMED", "the token is truncated");
  }
  const keyId = String.fromCharCode(...token.subarray(2, keyIdEnd));
  if (!KEY_ID.test(keyId)) throw new TokenHeaderError("SEALED_STATE_MALFORMED", "the token's key id is malformed");
  const data = new DataView(token.buffer, token.byteOffset, token.byteLength);
  const gameId = Array.from(token.subarray(keyIdEnd, keyIdEnd + 16), (byte) => byte.toString(16).padStart(2, "0"));
  const binding = create(SealedStateBindingSchema, {
    gameId: gameId.join(""),
    turn: data.getUint32(keyIdEnd + 16),
    step: data.getBigUint64(keyIdEnd + 20),
    publicDeal: true, // version 1: dealt from the caller's seed or seed 0
  });
  if (tailBytes > 0) {
    const flags = token[tailAt]!;
    if ((flags & ~FLAG_PUBLIC_DEAL) !== 0) {
      throw new TokenHeaderError("SEALED_STATE_MALFORMED", "the token's flags are not any the engine sets");
    }
    binding.publicDeal = (flags & FLAG_PUBLIC_DEAL) !== 0;
  }
  if (version === 3) {
    const seat = token[tailAt + 1]!;
    if (seat > 3 && seat !== NO_ACTING_SEAT) {
      throw new TokenHeaderError("SEALED_STATE_MALFORMED", "the token's acting seat is not a seat");
    }
    if (seat !== NO_ACTING_SEAT) binding.actingSeat = seat;
    binding.expiresAt = data.getBigUint64(tailAt + 2);
  }
  return { version, keyId, binding };
}
