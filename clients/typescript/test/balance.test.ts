/**
 * Several replicas behind one client (`balancedTransport`): calls go round robin, a call no engine
 * answered is retried on the next replica, an answer and the caller's own cancellation never are, and
 * a call about a sealed game carries its id as the routing key a proxy may hash on. Stand-in engines
 * served by connect-node on loopback ports, each counting what it got.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, afterEach, describe, test } from "node:test";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";
import {
  balancedTransport,
  DEFAULT_RETRY_POLICY,
  DEFAULT_RETRY_THROTTLE,
  DEFAULT_SET_ASIDE,
  isRetryable,
} from "../src/balance.js";
import { EngineClient, ROUTING_KEY_HEADER } from "../src/client.js";
import { InvalidRequest, EngineError } from "../src/errors.js";
import { EngineService } from "../src/gen/splendor/v1/engine_service_pb.js";
import { connectGrpc, connectTransport } from "../src/node.js";
import { type EngineServer, startEngine } from "./support/server.js";

interface StandIn {
  readonly address: string;
  /** The routing key of each call it got, "" when none. */
  readonly keys: string[];
  close(): Promise<void>;
}

const servers: StandIn[] = [];

/** A stand-in engine: its first `failures` calls fail with `code`, the rest are answered. */
async function standIn(failures = 0, code = Code.Unavailable): Promise<StandIn> {
  const keys: string[] = [];
  let left = failures;
  const routes = (router: ConnectRouter): void => {
    router.service(EngineService, {
      getCatalog: (_request, context) => {
        keys.push(context.requestHeader.get(ROUTING_KEY_HEADER) ?? "");
        if (left-- > 0) throw new ConnectError("scripted", code);
        return { catalog: {} };
      },
      listLegalActions: (_request, context) => {
        keys.push(context.requestHeader.get(ROUTING_KEY_HEADER) ?? "");
        return { seat: 0, actions: [] };
      },
    });
  };
  const server: Server = createServer(connectNodeAdapter({ routes }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const started = {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(started);
  return started;
}

function clientOf(...addresses: string[]): EngineClient {
  return new EngineClient(balancedTransport(addresses.map((address) => connectTransport(address))));
}

/** `transport`, counting the calls sent through it in `sent`. */
function counted(transport: Transport, sent: { calls: number }): Transport {
  return {
    unary: (...args) => {
      sent.calls++;
      return transport.unary(...args);
    },
    stream: (...args) => transport.stream(...args),
  };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("balancedTransport", () => {
  test("calls go round robin over the replicas", async () => {
    const [first, second] = [await standIn(), await standIn()];
    const client = clientOf(first.address, second.address);
    for (let n = 0; n < 10; n++) await client.getCatalog();
    client.close();
    assert.equal(first.keys.length, 5);
    assert.equal(second.keys.length, 5);
  });

  for (const code of [Code.Unavailable, Code.Canceled]) {
    test(`a call answered ${Code[code]} by the server is retried on the next replica`, async () => {
      const [failing, working] = [await standIn(1, code), await standIn()];
      const client = clientOf(failing.address, working.address);
      await client.getCatalog();
      client.close();
      assert.equal(failing.keys.length, 1);
      assert.equal(working.keys.length, 1);
    });
  }

  test("a replica that refuses connections is skipped", async () => {
    const working = await standIn();
    const gone = await standIn();
    await gone.close();
    const client = clientOf(gone.address, working.address);
    for (let n = 0; n < 4; n++) await client.getCatalog();
    client.close();
    assert.equal(working.keys.length, 4);
  });

  test("a replica that refuses connections is set aside: the calls after its first failure skip it", async () => {
    const working = await standIn();
    const gone = await standIn();
    await gone.close();
    const toGone = { calls: 0 };
    const setAside = { initialMs: 60_000, maxMs: 60_000 }; // far longer than the test
    const client = new EngineClient(
      balancedTransport([counted(connectTransport(gone.address), toGone), connectTransport(working.address)], {
        setAside,
      }),
    );
    for (let n = 0; n < 10; n++) await client.getCatalog();
    client.close();
    assert.equal(working.keys.length, 10);
    assert.equal(toGone.calls, 1);
  });

  test("a replica set aside gets calls again once its time is up, and its answer brings it back", async () => {
    const flaky = await standIn(1);
    const working = await standIn();
    const setAside = { initialMs: 1, maxMs: 1 };
    const client = new EngineClient(
      balancedTransport([connectTransport(flaky.address), connectTransport(working.address)], { setAside }),
    );
    await client.getCatalog(); // flaky fails, set aside for 1 ms; the retry goes to working
    const deadline = Date.now() + 10_000;
    while (flaky.keys.length < 3 && Date.now() < deadline) await client.getCatalog();
    client.close();
    assert.ok(flaky.keys.length >= 3, "the flaky replica answers calls again");
    assert.equal(DEFAULT_SET_ASIDE.initialMs, 1_000);
  });

  test("when every replica is set aside, calls still go out (to the one due back first)", async () => {
    const only = await standIn(1);
    const client = clientOf(only.address);
    await client.getCatalog(); // its first try fails (set aside), the retry goes to it all the same
    await client.getCatalog();
    client.close();
    assert.equal(only.keys.length, 3);
  });

  test("retries stop while failures outrun answers (gRPC's retry throttling), one try a call", async () => {
    const failing = await standIn(1_000);
    const sent = { calls: 0 };
    const retry = { ...DEFAULT_RETRY_POLICY, initialBackoffMs: 1, maxBackoffMs: 1 };
    const client = new EngineClient(balancedTransport([counted(connectTransport(failing.address), sent)], { retry }));
    const calls = 20;
    for (let n = 0; n < calls; n++) await assert.rejects(client.getCatalog());
    client.close();
    // Half the budget (50 tokens) goes in ten calls of five tries; every call after that is tried once.
    const budgetCalls = DEFAULT_RETRY_THROTTLE.maxTokens / 2 / DEFAULT_RETRY_POLICY.maxAttempts;
    assert.equal(sent.calls, budgetCalls * DEFAULT_RETRY_POLICY.maxAttempts + (calls - budgetCalls));
  });

  test("retries stop after the policy's attempts", async () => {
    const failing = await standIn(10);
    const client = clientOf(failing.address);
    await assert.rejects(
      client.getCatalog(),
      (error: unknown) => error instanceof EngineError && error.code === Code.Unavailable,
    );
    client.close();
    assert.equal(failing.keys.length, DEFAULT_RETRY_POLICY.maxAttempts);
  });

  test("an answer is never retried", async () => {
    const refusing = await standIn(1, Code.InvalidArgument);
    const client = clientOf(refusing.address);
    await assert.rejects(client.getCatalog(), (error: unknown) => error instanceof InvalidRequest);
    client.close();
    assert.equal(refusing.keys.length, 1);
  });

  test("the caller's own cancellation is never retried", () => {
    const aborted = new AbortController();
    aborted.abort();
    assert.equal(isRetryable(new ConnectError("gone", Code.Canceled), aborted.signal), false);
    assert.equal(isRetryable(new ConnectError("gone", Code.Canceled), undefined), true);
    assert.equal(isRetryable(new ConnectError("deadline", Code.DeadlineExceeded), undefined), false);
    const broken = new ConnectError("write EPIPE", Code.Internal, undefined, undefined, systemError("EPIPE"));
    assert.equal(isRetryable(broken, undefined), true, "a connection that broke under the call: no answer");
    assert.equal(isRetryable(new ConnectError("a bug", Code.Internal), undefined), false);
  });

  test("a call about a sealed game carries its id as the routing key, unless told not to; a plain one does not", async () => {
    const engine = await standIn();
    const client = clientOf(engine.address);
    const token = new Uint8Array([2, 1, 65]);
    const handle = { token, binding: { gameId: "0123456789abcdef0123456789abcdef" }, view: {}, seatKeys: new Map() };
    await client.listLegalActions(handle as never, { seat: 0 });
    await client.listLegalActions(token, { seat: 0 });
    client.close();
    const quiet = new EngineClient(connectTransport(engine.address), { routingKey: false });
    await quiet.listLegalActions(handle as never, { seat: 0 });
    quiet.close();
    assert.deepEqual(engine.keys, ["0123456789abcdef0123456789abcdef", "", ""]);
  });

  test("connectGrpc over two real engines: every call answered while one of them stops", async () => {
    // Started inside the try: an engine that fails to start must not leave the other running (its pipes would
    // keep the test process alive).
    const engines: EngineServer[] = [];
    let client: EngineClient | undefined;
    try {
      engines.push(await startEngine(), await startEngine());
      client = connectGrpc(engines.map((engine) => engine.grpcAddress));
      for (let n = 0; n < 4; n++) await client.newGame({ numPlayers: 2, seed: n });
      await engines[0]!.stop();
      for (let n = 0; n < 6; n++) await client.newGame({ numPlayers: 2, seed: n });
    } finally {
      client?.close();
      await Promise.all(engines.map((engine) => engine.stop()));
    }
  });
});

after(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function systemError(code: string): Error {
  return Object.assign(new Error(code), { code });
}
