/**
 * Several replicas behind one transport: calls go round robin over the replicas that answer, and a
 * call no engine answered is retried on the next replica.
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
 * As gRPC's `round_robin` does with a replica it cannot reach, a replica that left a call unanswered
 * is set aside: no call goes to it for a while (1 s, doubling with each failure in a row up to 30 s:
 * `DEFAULT_SET_ASIDE`), then it gets calls again, and its next answer brings it back for good. When
 * every replica is set aside, a call goes to the one due back first. And as gRPC's retry throttling
 * does (the Python client's service config says the same numbers), retries stop while failures outrun
 * answers, so a fleet that is down gets each call once, not five times (`DEFAULT_RETRY_THROTTLE`).
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

/** How long a replica that left a call unanswered gets no calls. */
export interface SetAsidePolicy {
  /** After its first failure in a row; each next one in a row doubles it, up to `maxMs`. */
  readonly initialMs: number;
  readonly maxMs: number;
}

export const DEFAULT_SET_ASIDE: SetAsidePolicy = { initialMs: 1_000, maxMs: 30_000 };

/**
 * gRPC's retry throttling: a budget of `maxTokens` that each unanswered call spends 1 of and each answer
 * earns `tokenRatio` back; retries are made only while more than half the budget is left.
 */
export interface RetryThrottle {
  readonly maxTokens: number;
  readonly tokenRatio: number;
}

/** The Python client's `retryThrottling`. */
export const DEFAULT_RETRY_THROTTLE: RetryThrottle = { maxTokens: 100, tokenRatio: 0.1 };

/** Options of `balancedTransport`. */
export interface BalanceOptions {
  /** The retry policy; `false`: none (round robin only). */
  readonly retry?: RetryPolicy | false;
  /** How long an unanswering replica is set aside; `false`: never (plain round robin). */
  readonly setAside?: SetAsidePolicy | false;
  /** When retries stop for a while; `false`: never (every call gets its policy's tries). */
  readonly throttle?: RetryThrottle | false;
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
 * A transport that sends each call to the next of `transports` in turn (those set aside skipped) and
 * retries a call no engine answered on the following ones (`DEFAULT_RETRY_POLICY`), within the call's
 * own deadline. `close()` closes every transport that can be closed.
 */
export function balancedTransport(
  transports: readonly (Transport | ClosableTransport)[],
  options: BalanceOptions = {},
): ClosableTransport {
  if (transports.length === 0) throw new RangeError("balancedTransport needs at least one transport");
  const policy =
    options.retry === false ? { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 } : (options.retry ?? DEFAULT_RETRY_POLICY);
  const replicas = new Replicas(transports, options.setAside ?? DEFAULT_SET_ASIDE);
  const budget = new RetryBudget(options.throttle ?? DEFAULT_RETRY_THROTTLE);
  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const deadline = timeoutMs === undefined || timeoutMs <= 0 ? undefined : Date.now() + timeoutMs;
      let bound = policy.initialBackoffMs;
      for (let attempt = 1; ; attempt++) {
        const remaining = deadline === undefined ? timeoutMs : Math.max(1, deadline - Date.now());
        const replica = replicas.pick();
        try {
          const response = await replica.transport.unary(method, signal, remaining, header, input, contextValues);
          replicas.answered(replica);
          budget.answered();
          return response;
        } catch (error) {
          const unanswered = isRetryable(error, signal);
          if (unanswered) {
            replicas.unanswered(replica);
            budget.unanswered();
          } else if (signal?.aborted !== true) {
            replicas.answered(replica); // an answer (a refusal is one): the replica is there
            budget.answered();
          }
          if (attempt >= policy.maxAttempts || !unanswered || !budget.allowsRetry()) throw error;
          const wait = Math.random() * bound;
          if (deadline !== undefined && Date.now() + wait >= deadline) throw error;
          await sleep(wait, signal);
          bound = Math.min(bound * policy.multiplier, policy.maxBackoffMs);
        }
      }
    },
    // The engine has no streaming method: a stream goes to the next transport, never retried.
    stream(method, signal, timeoutMs, header, input, contextValues) {
      return replicas.pick().transport.stream(method, signal, timeoutMs, header, input, contextValues);
    },
    close() {
      for (const transport of transports) if ("close" in transport) transport.close();
    },
  };
}

interface Replica {
  readonly transport: Transport;
  /** Calls it left unanswered in a row. */
  failures: number;
  /** `Date.now()` before which it gets no call (0: none). */
  asideUntil: number;
}

/** The replicas in round-robin order, with those set aside (see the module's comment). */
class Replicas {
  private readonly replicas: Replica[];
  private next = 0;

  constructor(
    transports: readonly Transport[],
    private readonly policy: SetAsidePolicy | false,
  ) {
    this.replicas = transports.map((transport) => ({ transport, failures: 0, asideUntil: 0 }));
  }

  pick(): Replica {
    const now = Date.now();
    const count = this.replicas.length;
    for (let tried = 0; tried < count; tried++) {
      const replica = this.replicas[this.next++ % count]!;
      if (replica.asideUntil <= now) return replica;
    }
    // All set aside: the one due back first (it may well be back).
    return this.replicas.reduce((first, replica) => (replica.asideUntil < first.asideUntil ? replica : first));
  }

  answered(replica: Replica): void {
    replica.failures = 0;
    replica.asideUntil = 0;
  }

  unanswered(replica: Replica): void {
    if (this.policy === false) return;
    const period = Math.min(this.policy.initialMs * 2 ** replica.failures, this.policy.maxMs);
    replica.failures++;
    replica.asideUntil = Date.now() + period;
  }
}

/** gRPC's retry throttling (`RetryThrottle`). */
class RetryBudget {
  private tokens: number;

  constructor(private readonly throttle: RetryThrottle | false) {
    this.tokens = throttle === false ? 0 : throttle.maxTokens;
  }

  answered(): void {
    if (this.throttle !== false)
      this.tokens = Math.min(this.throttle.maxTokens, this.tokens + this.throttle.tokenRatio);
  }

  unanswered(): void {
    if (this.throttle !== false) this.tokens = Math.max(0, this.tokens - 1);
  }

  allowsRetry(): boolean {
    return this.throttle === false || this.tokens > this.throttle.maxTokens / 2;
  }
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
