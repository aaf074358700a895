/**
 * Transports for Node.js (`@connectrpc/connect-node`).
 *
 * - `grpcTransport`: gRPC over HTTP/2, what the engine's gRPC port speaks.
 * - `connectTransport` and `grpcWebTransport`: the Connect protocol and gRPC-Web, for an
 *   engine (or a proxy) serving them over HTTP/1.1 (the default) or HTTP/2.
 *
 * Each returns a transport whose `close()` (called by `EngineClient.close()`) ends its
 * connections, so a script can exit as soon as it is done.
 *
 *     const client = connectGrpc("127.0.0.1:50051");
 *     try { ... } finally { client.close(); }
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Transport } from "@connectrpc/connect";
import {
  type ConnectTransportOptions,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
  type GrpcTransportOptions,
  type GrpcWebTransportOptions,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { baseUrl } from "./address.js";
import { balancedTransport } from "./balance.js";
import { type ClientOptions, type ClosableTransport, EngineClient } from "./client.js";
import { JSON_REGISTRY } from "./errors.js";

/** The HTTP version of a Connect or gRPC-Web transport. */
export type HttpVersion = "1.1" | "2";

/** Transport options other than the address and the connection, which these functions own. */
type Extra<Options> = Omit<
  Partial<Extract<Options, { httpVersion?: "2" }>>,
  "baseUrl" | "httpVersion" | "sessionManager" | "nodeOptions"
>;

/** Options of `connectTransport` and `grpcWebTransport`. */
export type HttpTransportOptions<Options> = Extra<Options> & {
  /** `"1.1"` (the default, what any HTTP server speaks) or `"2"` (HTTP/2 without TLS for `http://`). */
  readonly httpVersion?: HttpVersion;
};

/** One connection (HTTP/2) or pool of connections (HTTP/1.1) to `url`, and how to close it. */
function connection(url: string, httpVersion: HttpVersion) {
  if (httpVersion === "2") {
    const sessionManager = new Http2SessionManager(url);
    return { options: { httpVersion, sessionManager } as const, close: () => sessionManager.abort() };
  }
  const agent = url.startsWith("https:") ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  return { options: { httpVersion, nodeOptions: { agent } } as const, close: () => agent.destroy() };
}

function closable(transport: Transport, close: () => void): ClosableTransport {
  return { unary: transport.unary.bind(transport), stream: transport.stream.bind(transport), close };
}

/** gRPC over HTTP/2 to `address` (`host:port`, or an `http://`/`https://` URL). */
export function grpcTransport(address: string, options: Extra<GrpcTransportOptions> = {}): ClosableTransport {
  const url = baseUrl(address);
  const sessionManager = new Http2SessionManager(url);
  return closable(createGrpcTransport({ ...options, baseUrl: url, sessionManager }), () => sessionManager.abort());
}

/**
 * The Connect protocol to `address`, binary by default (`useBinaryFormat: false` for JSON).
 * Requests are `POST <address>/splendor.v1.EngineService/<Method>`.
 */
export function connectTransport(
  address: string,
  { httpVersion = "1.1", ...options }: HttpTransportOptions<ConnectTransportOptions> = {},
): ClosableTransport {
  const url = baseUrl(address);
  const opened = connection(url, httpVersion);
  const transport = createConnectTransport({
    useBinaryFormat: true,
    jsonOptions: { registry: JSON_REGISTRY },
    ...options,
    baseUrl: url,
    ...opened.options,
  });
  return closable(transport, opened.close);
}

/** gRPC-Web to `address`, binary by default. Requests are `POST <address>/splendor.v1.EngineService/<Method>`. */
export function grpcWebTransport(
  address: string,
  { httpVersion = "1.1", ...options }: HttpTransportOptions<GrpcWebTransportOptions> = {},
): ClosableTransport {
  const url = baseUrl(address);
  const opened = connection(url, httpVersion);
  const transport = createGrpcWebTransport({
    useBinaryFormat: true,
    jsonOptions: { registry: JSON_REGISTRY },
    ...options,
    baseUrl: url,
    ...opened.options,
  });
  return closable(transport, opened.close);
}

/**
 * A client of the engine's gRPC port at `address`, or of several replicas' (calls round robin over
 * them). Either way a call no engine answered is retried (`balancedTransport`). Call `close()` when done.
 */
export function connectGrpc(address: string | readonly string[], options: ClientOptions = {}): EngineClient {
  const addresses = typeof address === "string" ? [address] : address;
  return new EngineClient(balancedTransport(addresses.map((one) => grpcTransport(one))), options);
}
