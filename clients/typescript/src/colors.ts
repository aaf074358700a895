/**
 * Colour names and token counts: the friendly side of `Color`, `TokenCounts` and `GemCounts`.
 *
 * Colours are named `white`, `blue`, `green`, `red`, `black` and `gold` (the five gem
 * colours, then the wild token), matching the fields of `TokenCounts` and the `Color` enum.
 */
import { create } from "@bufbuild/protobuf";
import { Color, TokenCountsSchema, type GemCounts, type TokenCounts } from "./gen/splendor/v1/common_pb.js";

export const GEM_NAMES = ["white", "blue", "green", "red", "black"] as const;
export const TOKEN_NAMES = [...GEM_NAMES, "gold"] as const;

/** A gem colour name. */
export type GemName = (typeof GEM_NAMES)[number];
/** A token colour name: a gem colour or gold. */
export type TokenName = (typeof TOKEN_NAMES)[number];
/** A colour name (case-insensitive, with or without `COLOR_`) or a `Color` enum value. */
export type ColorLike = TokenName | Color | string;
/** Token counts by colour name; missing colours count zero. */
export type Counts = Partial<Record<TokenName, number>>;

const BY_NAME: Readonly<Record<TokenName, Color>> = {
  white: Color.WHITE,
  blue: Color.BLUE,
  green: Color.GREEN,
  red: Color.RED,
  black: Color.BLACK,
  gold: Color.GOLD,
};

function isTokenName(name: string): name is TokenName {
  return (TOKEN_NAMES as readonly string[]).includes(name);
}

/**
 * The `Color` of a colour name or value: `color("red") === Color.RED`.
 * Throws `RangeError` for an unknown name or value, `Color.UNSPECIFIED` included.
 */
export function color(value: ColorLike): Color {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < Color.WHITE || value > Color.GOLD) {
      throw new RangeError(`unknown colour value ${value}: use 1-6 (Color.WHITE..Color.GOLD)`);
    }
    return value;
  }
  const key = value
    .trim()
    .toLowerCase()
    .replace(/^color_/, "");
  if (!isTokenName(key))
    throw new RangeError(`unknown colour ${JSON.stringify(value)}: use one of ${TOKEN_NAMES.join(", ")}`);
  return BY_NAME[key];
}

/** The lower-case name of a `Color` value (`"red"`), or `"colour N"` if it is not one. */
export function colorName(value: Color): string {
  return TOKEN_NAMES[value - 1] ?? `colour ${value}`;
}

/**
 * A `TokenCounts` message from counts by colour name, or a copy of a counts message.
 * Throws `RangeError` for an unknown colour or a count that is not a non-negative integer.
 */
export function tokenCounts(counts: Counts | TokenCounts | GemCounts = {}): TokenCounts {
  const source: Record<string, unknown> = "$typeName" in counts ? countsOf(counts) : counts;
  const merged: Record<TokenName, number> = { white: 0, blue: 0, green: 0, red: 0, black: 0, gold: 0 };
  for (const [name, count] of Object.entries(source)) {
    const key = name.trim().toLowerCase();
    if (!isTokenName(key))
      throw new RangeError(`unknown colour ${JSON.stringify(name)}: use one of ${TOKEN_NAMES.join(", ")}`);
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
      throw new RangeError(`token counts must be non-negative integers (${name}=${String(count)})`);
    }
    merged[key] += count;
  }
  return create(TokenCountsSchema, merged);
}

/** The counts of a message by colour name, gold included (zero for `GemCounts`). */
export function countsOf(counts: TokenCounts | GemCounts | undefined): Record<TokenName, number> {
  return {
    white: counts?.white ?? 0,
    blue: counts?.blue ?? 0,
    green: counts?.green ?? 0,
    red: counts?.red ?? 0,
    black: counts?.black ?? 0,
    gold: counts !== undefined && "gold" in counts ? counts.gold : 0,
  };
}
