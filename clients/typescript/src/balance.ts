/**
 * Several replicas behind one transport: calls go round robin, and a call no engine answered is
 * retried on the next replica.
 *
 *     const client = new EngineClient(balancedTransport(replicas.map((address) => connectTransport(address))));
 *
 * Every engine call is a pure function of its request: any replica gives the same answer, and
 * answering changes nothing anywhere. So a call that got no answer can be sent again and the game
 * goes on as if the first try had not happened. Retried: `Unavailable` (refused, unreachable,
 * draining, or a proxy that found no replica), `Canceled` or `Aborted` that the caller did not
 * cause (a replica that stopped before handling the call), and any call whose connection broke
 * under it (closed, reset: whatever code the transport gave it, e.g. `Internal` for EPIPE). Never
 * retried: the caller's own cancellation or deadline, and every answer (an illegal move, a refused
 * token, `ResourceExhausted` from a replica at its limit). What stays the caller's to make safe is
 * its own bookkeeping around a call (recording a move, notifying the other seats): key it by the
 * game id and the token's step, as a retried call may reach it twice if it retries too.
 *
 * Works in browsers too (wrap `webConnectTransport`s). One transport is fine: it gets the retries.
 */
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import type { ClosableTransport } from "./client.js";

/** How a call that got no answer is retried. */
export interface RetryPolicy {
  /** Tries in all, the first included (1: no retry). */
  readonly maxAttempts: number;
  /** The wait before the first retry is random, up to this; each next one's bound grows by `multiplier`. */
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly multiplier: number;
}

/** The clients' documented policy (the Python client's gRPC service config says the same). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  initialBackoffMs: 100,
  maxBackoffMs: 1_000,
  multiplier: 2,
};

/** Options of `balancedTransport`. */
export interface BalanceOptions {
  /** The retry policy; `false`: none (round robin only). */
  readonly retry?: RetryPolicy | false;
}

/** Did no engine answer `error` (so sending the call again is safe), given the caller's `signal`? */
export function isRetryable(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted === true) return false; // the caller cancelled, or its deadline passed
  const connectError = ConnectError.from(error);
  const code = connectError.code;
  return code === Code.Unavailable || code === Code.Canceled || code === Code.Aborted || lostOnTheWay(connectError);
}

/**
 * Was the call or its answer lost on the way (a connection closed or reset under it: Node's system and
 * HTTP/2 errors, fetch's network `TypeError`), whatever code the transport gave it?
 */
function lostOnTheWay(error: ConnectError): boolean {
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 8 && cause instanceof Error; depth++, cause = cause.cause) {
    if (cause instanceof TypeError) return true;
    const code: unknown = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^(E[A-Z]+|ERR_HTTP2_[A-Z_]+|ERR_STREAM_[A-Z_]+)$/.test(code)) return true;
  }
  return false;
}

/**
 * A transport that sends each call to the next of `transports` in turn and retries a call no engine
 * answered on the following ones (`DEFAULT_RETRY_POLICY`), within the call's own deadline.
 * `close()` closes every transport that can be closed.
 */
export function balancedTransport(
  transports: readonly (Transport | ClosableTransport)[],
  options: BalanceOptions = {},
): ClosableTransport {
  if (transports.length === 0) throw new RangeError("balancedTransport needs at least one transport");
  const policy =
    options.retry === false ? { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 } : (options.retry ?? DEFAULT_RETRY_POLICY);
  let next = 0;
  const pick = (): Transport => transports[next++ % transports.length]!;
  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const deadline = timeoutMs === undefined || timeoutMs <= 0 ? undefined : Date.now() + timeoutMs;
      let bound = policy.initialBackoffMs;
      for (let attempt = 1; ; attempt++) {
        const remaining = deadline === undefined ? timeoutMs : Math.max(1, deadline - Date.now());
        try {
          return await pick().unary(method, signal, remaining, header, input, contextValues);
        } catch (error) {
          if (attempt >= policy.maxAttempts || !isRetryable(error, signal)) throw error;
          const wait = Math.random() * bound;
          if (deadline !== undefined && Date.now() + wait >= deadline) throw error;
          await sleep(wait, signal);
          bound = Math.min(bound * policy.multiplier, policy.maxBackoffMs);
        }
      }
    },
    // The engine has no streaming method: a stream goes to the next transport, never retried.
    stream(method, signal, timeoutMs, header, input, contextValues) {
      return pick().stream(method, signal, timeoutMs, header, input, contextValues);
    },
    close() {
      for (const transport of transports) if ("close" in transport) transport.close();
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve(); // an abort ends the wait: the next try sees the aborted signal and fails at once
    }
  });
}
