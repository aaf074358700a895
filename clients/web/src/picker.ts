/**
 * Picking tokens one at a time (gems from the bank, tokens to give back) when the legal actions
 * are whole sets of tokens: a colour can be added only while the pick still fits some legal set,
 * and the pick is played only when it is exactly one of them. An illegal pick cannot be made.
 */
import type { LegalAction, TokenName } from "splendor-engine-client";

/** A legal action as the tokens it moves, a multiset of colour names. */
export interface TokenOption {
  readonly tokens: readonly TokenName[];
  readonly action: LegalAction;
}

function counted(tokens: readonly TokenName[]): Map<TokenName, number> {
  const counts = new Map<TokenName, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** True when every token of `pick` is in `option` (as many times or more). */
function fitsIn(pick: readonly TokenName[], option: readonly TokenName[]): boolean {
  const available = counted(option);
  for (const [token, count] of counted(pick)) if ((available.get(token) ?? 0) < count) return false;
  return true;
}

/** Whether `token` may be added to `pick`: some legal set still holds the larger pick. */
export function canAdd(options: readonly TokenOption[], pick: readonly TokenName[], token: TokenName): boolean {
  const larger = [...pick, token];
  return options.some((option) => fitsIn(larger, option.tokens));
}

/** The legal action that is exactly `pick`, if any. */
export function matching(options: readonly TokenOption[], pick: readonly TokenName[]): LegalAction | undefined {
  return options.find((option) => option.tokens.length === pick.length && fitsIn(pick, option.tokens))?.action;
}

/** `pick` without one `token` (the first), for taking a token back out of the pick. */
export function without(pick: readonly TokenName[], token: TokenName): TokenName[] {
  const index = pick.indexOf(token);
  return index < 0 ? [...pick] : [...pick.slice(0, index), ...pick.slice(index + 1)];
}
