/**
 * A game's record for export and replay: the config and every action applied, as proto3 JSON
 * (the contract's own JSON mapping), plus the seats' kinds for the reader. The config's seed is
 * the deal's: the engine reveals it (`GameView.revealed_seed`) once the game is over, so a game
 * is exported from its final screen.
 *
 *     { "format": "splendor-web-record/1", "config": { "numPlayers": 2, "seed": "8123..." },
 *       "seats": ["human", "greedy"], "actions": [{ "takeGems": { "colors": ["COLOR_RED", ...] } }, ...] }
 */
import {
  type Action,
  ActionSchema,
  create,
  fromJson,
  type GameConfig,
  GameConfigSchema,
  type GameView,
  type JsonValue,
  toJson,
} from "splendor-engine-client";

export const RECORD_FORMAT = "splendor-web-record/1";

export interface GameRecord {
  readonly config: GameConfig;
  readonly seats: readonly string[];
  readonly actions: readonly Action[];
}

/**
 * The config that replays a finished game: the one it was created with, and the seed the final
 * view reveals. Undefined while the game goes on (the seed stays hidden until it is over).
 */
export function replayableConfig(config: GameConfig, finalView: GameView): GameConfig | undefined {
  if (finalView.revealedSeed === undefined) return undefined;
  return create(GameConfigSchema, { ...config, seed: finalView.revealedSeed });
}

export function recordToJson(record: GameRecord): string {
  return JSON.stringify(
    {
      format: RECORD_FORMAT,
      config: toJson(GameConfigSchema, record.config),
      seats: record.seats,
      actions: record.actions.map((action) => toJson(ActionSchema, action)),
    },
    null,
    1,
  );
}

export class RecordError extends Error {}

/** Read a record; throws `RecordError` saying what is wrong with it. */
export function recordFromJson(text: string): GameRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RecordError("the file is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null) throw new RecordError("the file holds no game record");
  const data = parsed as Record<string, unknown>;
  if (data["format"] !== RECORD_FORMAT) throw new RecordError(`the file is not a ${RECORD_FORMAT} game record`);
  if (!Array.isArray(data["actions"])) throw new RecordError("the record has no list of actions");
  try {
    const config = fromJson(GameConfigSchema, data["config"] as JsonValue);
    const actions = (data["actions"] as JsonValue[]).map((action) => fromJson(ActionSchema, action));
    const seats = Array.isArray(data["seats"]) ? data["seats"].map(String) : [];
    return { config, seats, actions };
  } catch (error) {
    throw new RecordError(
      `the record does not match the contract: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
