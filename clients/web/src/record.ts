/**
 * A game's record for export and replay: the config and every action applied, as proto3 JSON
 * (the contract's own JSON mapping), plus the seats' kinds for the reader.
 *
 *     { "format": "splendor-web-record/1", "config": { "numPlayers": 2, "seed": "8123..." },
 *       "seats": ["human", "greedy"], "actions": [{ "takeGems": { "colors": ["COLOR_RED", ...] } }, ...] }
 */
import {
  type Action,
  ActionSchema,
  fromJson,
  type GameConfig,
  GameConfigSchema,
  type JsonValue,
  toJson,
} from "splendor-engine-client";

export const RECORD_FORMAT = "splendor-web-record/1";

export interface GameRecord {
  readonly config: GameConfig;
  readonly seats: readonly string[];
  readonly actions: readonly Action[];
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
