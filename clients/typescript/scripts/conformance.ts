/**
 * The TypeScript runner of the contract's conformance vectors (`conformance/` in the repository; its
 * README describes the format): every case's calls in order against a server, each answer compared with
 * the expected one after normalisation, then every whole game as a ReplayGame.
 *
 *     npm run --silent conformance -- --address 127.0.0.1:50051               # gRPC
 *     npm run --silent conformance -- --address 127.0.0.1:8080 --protocol connect
 *
 * Methods are called by name through the service's descriptor, so a method added to the contract needs
 * nothing here. Exits 1 when an answer differs, 2 on bad arguments or vectors.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type DescMessage, type DescMethod, equals, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { codeName, fromConnectError, JSON_REGISTRY } from "../src/errors.js";
import { EngineService } from "../src/gen/splendor/v1/engine_service_pb.js";
import { connectTransport, grpcTransport } from "../src/node.js";

// A batch item's refusal is a google.rpc.Status, its details Anys: the JSON reader needs their types.
const JSON_OPTIONS = { registry: JSON_REGISTRY };

/** The version of the vectors' format this runner reads. */
export const FORMAT = 1;
const DOMAIN = "splendor.v1";
const EVERY = "*"; // in a normalised path: every element of a list
const DEFAULT_VECTORS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "conformance");

type JsonObject = { [key: string]: JsonValue };

/** An expected refusal: the status code's gRPC name and the ErrorInfo reason. */
export interface Refusal {
  readonly code: string;
  readonly reason: string;
}

/** One call of a case. */
export interface Step {
  readonly method: string;
  readonly request: JsonValue;
  readonly response?: JsonValue;
  readonly error?: Refusal;
  readonly normalise?: readonly (readonly string[])[];
}

/** Calls checked in order; later ones may use what earlier ones returned. */
export interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly engineSpecific?: boolean;
}

/** A whole game, rules only. */
export interface Game {
  readonly name: string;
  readonly config: JsonValue;
  readonly initialState: JsonValue;
  readonly actions: readonly JsonValue[];
  readonly digests: readonly string[];
  readonly finalState: JsonValue;
}

/** Every case and game of a vectors directory. */
export interface Corpus {
  readonly contract: string;
  readonly cases: readonly Case[];
  readonly games: readonly Game[];
}

/** A call whose answer differs from the expected one (step -1: a whole game). */
export interface Failure {
  readonly name: string;
  readonly step: number;
  readonly method: string;
  readonly why: string;
}

/** What a run checked, and what failed. */
export interface Report {
  cases: number;
  calls: number;
  games: number;
  skipped: number;
  readonly failures: Failure[];
  seconds: number;
}

/** Which vectors to run. */
export interface RunOptions {
  /** Only the cases and games whose name matches. */
  readonly only?: RegExp | undefined;
  /** Leave out the cases whose answer depends on this engine's seeded choices or default bounds. */
  readonly skipEngineSpecific?: boolean;
  /** false: leave out the whole games. */
  readonly games?: boolean;
  /** Each call's deadline; default 30 s. */
  readonly timeoutMs?: number;
  /** Called with each failure as it happens. */
  readonly onFailure?: (failure: Failure) => void;
}

class VectorError extends Error {}

/** A vectors file, read as the shape its format gives it (the format's version is checked first). */
function readJson<Shape>(path: string): Shape {
  return JSON.parse(readFileSync(path, "utf8")) as Shape;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The vectors under `directory` (the one holding manifest.json). */
export function loadVectors(directory: string = DEFAULT_VECTORS): Corpus {
  const manifest = readJson<{ format: number; contract: string; files: { calls: string[]; games: string[] } }>(
    join(directory, "manifest.json"),
  );
  if (manifest.format !== FORMAT) {
    throw new VectorError(`${directory}: format ${manifest.format}; this runner reads format ${FORMAT}`);
  }
  const cases: Case[] = [];
  for (const name of manifest.files.calls) {
    const document = readJson<{ states: JsonObject; cases: Case[] }>(join(directory, name));
    for (const raw of document.cases) {
      const steps = raw.steps.map((step) => ({
        ...step,
        request: withStates(step.request, document.states),
        ...(step.response === undefined ? {} : { response: withStates(step.response, document.states) }),
      }));
      cases.push({ ...raw, steps });
    }
  }
  const games = manifest.files.games.flatMap((name) => readJson<{ games: Game[] }>(join(directory, name)).games);
  return { contract: manifest.contract, cases, games };
}

/** `value` with every `{"$state": NAME}` replaced by that state. */
function withStates(value: JsonValue, states: JsonObject): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withStates(item, states));
  if (!isObject(value)) return value;
  if ("$state" in value) {
    const state = states[String(value["$state"])];
    if (state === undefined) throw new VectorError(`no state named ${String(value["$state"])}`);
    return state;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withStates(item, states)]));
}

/** `value` with every `{"$from": [STEP, ...]}` replaced by the value at that path of an earlier answer. */
export function withAnswers(value: JsonValue, answers: readonly (JsonValue | undefined)[]): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withAnswers(item, answers));
  if (!isObject(value)) return value;
  const from = value["$from"];
  if (from === undefined) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withAnswers(item, answers)]));
  }
  if (!Array.isArray(from) || typeof from[0] !== "number") throw new VectorError(`$from ${JSON.stringify(from)}`);
  let found: JsonValue | undefined = answers[from[0]];
  if (found === undefined) throw new VectorError(`$from ${JSON.stringify(from)}: that step has no response`);
  for (const key of from.slice(1)) {
    if (Array.isArray(found) && typeof key === "number") found = found[key];
    else if (isObject(found) && typeof key === "string") found = found[key];
    else found = undefined;
    if (found === undefined) throw new VectorError(`$from ${JSON.stringify(from)}: nothing at ${String(key)}`);
  }
  const tamper = value["$tamper"];
  if (tamper === undefined) return found;
  if (tamper !== "flip-last-byte" || typeof found !== "string") throw new VectorError(`bad $tamper ${String(tamper)}`);
  return flipLastByte(found);
}

/** Base64 bytes (standard or URL-safe) with the last byte's lowest bit flipped, in the standard alphabet. */
export function flipLastByte(encoded: string): string {
  const data = Buffer.from(encoded.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (data.length === 0) throw new VectorError("$tamper: no bytes to flip");
  data[data.length - 1]! ^= 1;
  return data.toString("base64");
}

/** `value` with what each path reaches replaced by the empty value of its JSON type. */
export function normalised(value: JsonValue, paths: readonly (readonly string[])[] = []): JsonValue {
  return paths.reduce((current, path) => normalise(current, path), value);
}

function normalise(value: JsonValue, path: readonly string[]): JsonValue {
  const [head, ...rest] = path;
  if (head === undefined) return placeholder(value);
  if (head === EVERY) return Array.isArray(value) ? value.map((item) => normalise(item, rest)) : value;
  if (!isObject(value) || !(head in value)) return value;
  return { ...value, [head]: normalise(value[head]!, rest) };
}

function placeholder(value: JsonValue): JsonValue {
  if (typeof value === "boolean") return false;
  if (typeof value === "number") return 0;
  if (typeof value === "string") return "";
  if (Array.isArray(value)) return [];
  if (isObject(value)) return {};
  return value;
}

/** The normalised places the expected answer has and the actual one lacks. */
export function missing(expected: JsonValue, actual: JsonValue, paths: readonly (readonly string[])[] = []): string[] {
  return paths.flatMap((path) => missingAt(expected, actual, path, ""));
}

function missingAt(
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
  path: readonly string[],
  where: string,
): string[] {
  const [head, ...rest] = path;
  if (head === undefined) return [];
  if (head === EVERY) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return [];
    return expected.flatMap((item, index) =>
      index < actual.length ? missingAt(item, actual[index], rest, `${where}[${index}]`) : [],
    );
  }
  if (!isObject(expected) || !(head in expected)) return [];
  const here = where ? `${where}.${head}` : head;
  if (!isObject(actual) || !(head in actual)) return [here];
  return missingAt(expected[head], actual[head], rest, here);
}

/** The first place where two JSON values differ, or undefined. */
export function firstDifference(expected: JsonValue, actual: JsonValue, where = ""): string | undefined {
  if (isObject(expected) && isObject(actual)) {
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((key) => !(key in expected))];
    for (const key of keys) {
      const here = where ? `${where}.${key}` : key;
      if (!(key in actual)) return `${here}: expected ${short(expected[key]!)}, got nothing`;
      if (!(key in expected)) return `${here}: expected nothing, got ${short(actual[key]!)}`;
      const difference = firstDifference(expected[key]!, actual[key]!, here);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let index = 0; index < Math.min(expected.length, actual.length); index += 1) {
      const difference = firstDifference(expected[index]!, actual[index]!, `${where}[${index}]`);
      if (difference !== undefined) return difference;
    }
    return expected.length === actual.length
      ? undefined
      : `${where}: expected ${expected.length} items, got ${actual.length}`;
  }
  return JSON.stringify(expected) === JSON.stringify(actual)
    ? undefined
    : `${where || "the response"}: expected ${short(expected)}, got ${short(actual)}`;
}

function short(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length <= 200 ? text : `${text.slice(0, 197)}...`;
}

type UnaryMethod = DescMethod & { methodKind: "unary" };

function methodNamed(name: string): UnaryMethod {
  const method = EngineService.methods.find((candidate) => candidate.name === name);
  if (method?.methodKind !== "unary") throw new VectorError(`the contract has no unary method ${name}`);
  return method as UnaryMethod;
}

/** Why `actual` is not `expected` once both are normalised along `paths`, or undefined. */
function compare(
  schema: DescMessage,
  expected: JsonValue,
  actual: JsonValue,
  paths: readonly (readonly string[])[] = [],
): string | undefined {
  const absent = missing(expected, actual, paths);
  if (absent.length > 0) return `the response has no ${absent.join(", ")}`;
  const want = fromJson(schema, normalised(expected, paths), JSON_OPTIONS);
  const got = fromJson(schema, normalised(actual, paths), JSON_OPTIONS);
  if (equals(schema, want, got)) return undefined;
  return (
    firstDifference(toJson(schema, want, JSON_OPTIONS), toJson(schema, got, JSON_OPTIONS)) ?? "the responses differ"
  );
}

type Outcome =
  | { readonly message: JsonValue }
  | { readonly refused: { code: string; reason: string; domain: string; text: string } };

async function call(transport: Transport, name: string, request: JsonValue, timeoutMs: number): Promise<Outcome> {
  const method = methodNamed(name);
  const input = fromJson(method.input, request, JSON_OPTIONS);
  try {
    const response = await transport.unary(method, undefined, timeoutMs, undefined, input);
    return { message: toJson(method.output, response.message, JSON_OPTIONS) };
  } catch (error) {
    const refused = fromConnectError(error);
    return {
      refused: {
        code: codeName(refused.code),
        reason: refused.reason,
        domain: refused.domain,
        text: refused.rawMessage,
      },
    };
  }
}

async function checkStep(
  transport: Transport,
  step: Step,
  answers: (JsonValue | undefined)[],
  timeoutMs: number,
): Promise<string | undefined> {
  const outcome = await call(transport, step.method, withAnswers(step.request, answers), timeoutMs);
  if ("refused" in outcome) {
    answers.push(undefined);
    const { code, reason, domain, text } = outcome.refused;
    const got = `${code} ${reason}`;
    if (step.error === undefined) return `refused (${got}: ${text}); expected a response`;
    const want = `${step.error.code} ${step.error.reason}`;
    if (got !== want) return `refused with ${got}; expected ${want} (${text})`;
    if (domain !== DOMAIN) return `refused with ${got} in ErrorInfo domain ${JSON.stringify(domain)}`;
    return undefined;
  }
  answers.push(outcome.message);
  if (step.error !== undefined) return `answered; expected a refusal ${step.error.code} ${step.error.reason}`;
  return compare(methodNamed(step.method).output, step.response ?? {}, outcome.message, step.normalise);
}

async function checkGame(transport: Transport, game: Game, timeoutMs: number): Promise<string | undefined> {
  const request = { config: game.config, actions: [...game.actions], skipEvents: true };
  const outcome = await call(transport, "ReplayGame", request, timeoutMs);
  if ("refused" in outcome) return `refused (${outcome.refused.code} ${outcome.refused.reason})`;
  const digests = isObject(outcome.message) ? outcome.message["stateDigests"] : undefined;
  if (Array.isArray(digests)) {
    const index = game.digests.findIndex((digest, at) => digests[at] !== digest);
    if (index >= 0)
      return `the digest after action ${index} is ${String(digests[index])}, expected ${game.digests[index]}`;
  }
  const expected = { state: game.finalState, stateDigests: [...game.digests] };
  return compare(methodNamed("ReplayGame").output, expected, outcome.message);
}

/** Run `corpus` through `transport`. */
export async function runConformance(transport: Transport, corpus: Corpus, options: RunOptions = {}): Promise<Report> {
  const report: Report = { cases: 0, calls: 0, games: 0, skipped: 0, failures: [], seconds: 0 };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = performance.now();
  const fail = (failure: Failure): void => {
    report.failures.push(failure);
    options.onFailure?.(failure);
  };
  for (const testCase of corpus.cases) {
    if (options.only !== undefined && !options.only.test(testCase.name)) continue;
    if (testCase.engineSpecific === true && options.skipEngineSpecific === true) {
      report.skipped += 1;
      continue;
    }
    report.cases += 1;
    const answers: (JsonValue | undefined)[] = [];
    for (const [index, step] of testCase.steps.entries()) {
      report.calls += 1;
      let why: string | undefined;
      try {
        why = await checkStep(transport, step, answers, timeoutMs);
      } catch (error) {
        why = `bad vector: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (why !== undefined) {
        fail({ name: testCase.name, step: index, method: step.method, why });
        break;
      }
    }
  }
  for (const game of options.games === false ? [] : corpus.games) {
    if (options.only !== undefined && !options.only.test(game.name)) continue;
    report.games += 1;
    const why = await checkGame(transport, game, timeoutMs);
    if (why !== undefined) fail({ name: game.name, step: -1, method: "ReplayGame", why });
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** Whether something was checked and nothing failed. */
export function passed(report: Report): boolean {
  return report.failures.length === 0 && report.calls + report.games > 0;
}

/** The run in one line. */
export function summary(report: Report): string {
  const verdict = passed(report) ? "all passed" : `${report.failures.length} FAILED`;
  const skipped = report.skipped > 0 ? `, ${report.skipped} engine-specific cases skipped` : "";
  return `conformance: ${report.calls} calls in ${report.cases} cases and ${report.games} whole games${skipped}: ${verdict} (${report.seconds.toFixed(1)} s)`;
}

/** One failure as the command prints it. */
export function describeFailure(failure: Failure): string {
  const where = failure.step < 0 ? failure.name : `${failure.name} step ${failure.step}`;
  return `FAIL ${where} (${failure.method}): ${failure.why}`;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      address: { type: "string" },
      protocol: { type: "string", default: "grpc" },
      vectors: { type: "string", default: DEFAULT_VECTORS },
      only: { type: "string" },
      "skip-engine-specific": { type: "boolean", default: false },
      "no-games": { type: "boolean", default: false },
    },
  });
  if (values.address === undefined || !["grpc", "connect"].includes(values.protocol)) {
    console.error("usage: conformance.ts --address HOST:PORT [--protocol grpc|connect] [--vectors DIR] [--only REGEX]");
    return 2;
  }
  const corpus = loadVectors(resolve(values.vectors));
  const transport = values.protocol === "grpc" ? grpcTransport(values.address) : connectTransport(values.address);
  try {
    const report = await runConformance(transport, corpus, {
      only: values.only === undefined ? undefined : new RegExp(values.only),
      skipEngineSpecific: values["skip-engine-specific"],
      games: !values["no-games"],
      onFailure: (failure) => console.log(describeFailure(failure)),
    });
    console.log(summary(report));
    return passed(report) ? 0 : 1;
  } finally {
    transport.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
