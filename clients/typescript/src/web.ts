/**
 * Transports for browsers (`@connectrpc/connect-web`, over `fetch`): the Connect protocol and
 * gRPC-Web. Browsers cannot speak gRPC itself; these need an engine (or a proxy) serving
 * Connect or gRPC-Web over HTTP, with CORS allowing the page's origin.
 *
 *     const client = new EngineClient(webConnectTransport("https://engine.example"));
 */
import type { Transport } from "@connectrpc/connect";
import {
  type ConnectTransportOptions,
  createConnectTransport,
  createGrpcWebTransport,
  type GrpcWebTransportOptions,
} from "@connectrpc/connect-web";
import { baseUrl } from "./address.js";
import { JSON_REGISTRY } from "./errors.js";

/** The Connect protocol to `address` (a URL, or `host:port` for plain HTTP), binary by default. */
export function webConnectTransport(
  address: string,
  options: Omit<Partial<ConnectTransportOptions>, "baseUrl"> = {},
): Transport {
  return createConnectTransport({
    useBinaryFormat: true,
    jsonOptions: { registry: JSON_REGISTRY },
    ...options,
    baseUrl: baseUrl(address),
  });
}

/** gRPC-Web to `address` (a URL, or `host:port` for plain HTTP), binary by default. */
export function webGrpcWebTransport(
  address: string,
  options: Omit<Partial<GrpcWebTransportOptions>, "baseUrl"> = {},
): Transport {
  return createGrpcWebTransport({
    useBinaryFormat: true,
    jsonOptions: { registry: JSON_REGISTRY },
    ...options,
    baseUrl: baseUrl(address),
  });
}
