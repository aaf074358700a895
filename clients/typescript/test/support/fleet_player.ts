/**
 * Bots playing sealed games over the Connect protocol (binary, HTTP/1.1) with the TypeScript client,
 * for the fleet run of the Python tests (tests/fleet/connect_players.py starts it).
 *
 * Argument: a JSON object {name, targets, players, gamesAtOnce, seed}: `targets` are base URLs, one
 * (the proxy) or several (the replicas, round robin in the client). Each call goes through the
 * client's `balancedTransport` (its documented retries) and carries a request id of its own.
 * Writes JSON lines: {"call": [id, method, code, tries]} per call, {"live": [game id, key id of its
 * latest token, key id it was dealt under]} when a game starts and whenever its key changes, and
 * {"game": {...}} per game that ended or was lost. A line "stop" on stdin: start no new game; the process exits once its games are over.
 */
import { createInterface } from "node:readline";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { toBinary } from "@bufbuild/protobuf";
import { balancedTransport } from "../../src/balance.js";
import { mulberry32 } from "../../src/bots.js";
import { type ClosableTransport, EngineClient, gameConfig, type SealedGame } from "../../src/client.js";
import { ActionSchema } from "../../src/gen/splendor/v1/actions_pb.js";
import { GameViewSchema } from "../../src/gen/splendor/v1/view_pb.js";
import { actingSeat } from "../../src/game.js";
import { connectTransport } from "../../src/node.js";
import { readTokenHeader } from "../../src/tokens.js";

interface Plan {
  readonly name: string;
  readonly targets: readonly string[];
  readonly players: number;
  readonly gamesAtOnce: number;
  readonly seed: number;
}

const plan = JSON.parse(process.argv[2] ?? "{}") as Plan;
let starting = true;
const control = createInterface({ input: process.stdin });
control.on("line", (line) => {
  if (line.trim() === "stop") starting = false;
});

function emit(line: object): void {
  process.stdout.write(JSON.stringify(line) + "\n");
}

/** Tries of each call so far, by request id: the balanced transport's retries are tries too. */
const tries = new Map<string, number>();

/** Counts each try a transport makes (it sits under the balanced transport, so it sees its retries). */
function countingTries(inner: ClosableTransport): ClosableTransport {
  return {
    unary(method, signal, timeoutMs, header, input, contextValues) {
      const id = new Headers(header).get("x-request-id") ?? "";
      tries.set(id, (tries.get(id) ?? 0) + 1);
      return inner.unary(method, signal, timeoutMs, header, input, contextValues);
    },
    stream: (...args) => inner.stream(...args),
    close: () => inner.close(),
  };
}

/** Gives each call a request id of its own (kept across its retries) and reports how it ended. */
function withRequestIds(inner: Transport, prefix: string): Transport {
  let count = 0;
  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const id = `${prefix}-${count++}`;
      const headers = new Headers(header);
      headers.set("x-request-id", id);
      let code = "OK";
      try {
        return await inner.unary(method, signal, timeoutMs, headers, input, contextValues);
      } catch (error) {
        code = Code[ConnectError.from(error).code];
        throw error;
      } finally {
        emit({ call: [id, method.name, code, tries.get(id) ?? 0] });
        tries.delete(id);
      }
    },
    stream: (...args) => inner.stream(...args),
  };
}

function keyIdOf(token: Uint8Array): string {
  return readTokenHeader(token).keyId;
}

async function play(player: number): Promise<void> {
  const name = `${plan.name}${player}`;
  const transport = balancedTransport(plan.targets.map((target) => countingTries(connectTransport(target))));
  const client = new EngineClient(withRequestIds(transport, name), { timeoutMs: 30_000 });
  const pick = mulberry32(plan.seed * 1000 + player); // seeded: a run's choices can be told apart from another's
  const live: { game: SealedGame; moves: string[]; createdKey: string }[] = [];
  try {
    for (;;) {
      while (starting && live.length < plan.gamesAtOnce) {
        try {
          const game = await client.createSealed(gameConfig({ numPlayers: 2 }), { seat: 0 });
          live.push({ game, moves: [], createdKey: keyIdOf(game.token) });
          emit({ live: [game.binding?.gameId, keyIdOf(game.token), keyIdOf(game.token)] });
        } catch (error) {
          emit({ game: { player: name, error: `CreateGame: ${String(error)}` } });
        }
      }
      if (live.length === 0) return;
      for (const entry of [...live]) {
        const seat = actingSeat(entry.game.view);
        let lost = "";
        try {
          const legal = await client.legalActions(entry.game, { seat });
          const chosen = legal[Math.floor(pick() * legal.length)]!;
          const before = keyIdOf(entry.game.token);
          entry.game = await client.applySealed(entry.game, chosen, { seat });
          entry.moves.push(Buffer.from(toBinary(ActionSchema, chosen.action!)).toString("base64"));
          const after = keyIdOf(entry.game.token);
          if (after !== before) emit({ live: [entry.game.binding?.gameId, after, entry.createdKey] });
        } catch (error) {
          lost = String(error);
        }
        if (lost !== "" || entry.game.finished) {
          live.splice(live.indexOf(entry), 1);
          emit({
            game: {
              player: name,
              game_id: entry.game.binding?.gameId ?? "",
              created_key: entry.createdKey,
              key_id: keyIdOf(entry.game.token),
              moves: entry.moves,
              view: Buffer.from(toBinary(GameViewSchema, entry.game.view)).toString("base64"),
              error: lost,
            },
          });
        }
      }
    }
  } finally {
    transport.close();
  }
}

await Promise.all(Array.from({ length: plan.players }, (_, player) => play(player)));
control.close(); // the open stdin would keep the process alive
process.stdin.destroy();
