/**
 * The human's legal actions, sorted to where they are offered: buying and reserving on the
 * cards themselves, a blind reserve on its deck, everything else (gems, pass, the answers to a
 * pending decision) in the moves panel. Only the engine's legal actions are ever offered.
 */
import type { LegalAction } from "splendor-engine-client";
import type { Describer } from "./describe.js";

export interface CardMove {
  readonly action: LegalAction;
  readonly short: string;
  readonly label: string;
}

export interface Moves {
  /** Buy / reserve buttons per card id (market and the player's reserve). */
  readonly onCards: ReadonlyMap<number, CardMove[]>;
  /** Blind-reserve buttons per deck id. */
  readonly onDecks: ReadonlyMap<number, CardMove>;
  /** The panel's groups, in order, each with a heading. */
  readonly groups: readonly { title: string; actions: { action: LegalAction; label: string }[] }[];
  readonly count: number;
}

export const NO_MOVES: Moves = { onCards: new Map(), onDecks: new Map(), groups: [], count: 0 };

const GROUP_TITLES: Record<string, string> = {
  takeGems: "Take three different gems",
  takeTwoGems: "Take two gems of one colour",
  pass: "Pass",
};

export function sortMoves(actions: readonly LegalAction[], describer: Describer, deciding: boolean): Moves {
  const onCards = new Map<number, CardMove[]>();
  const onDecks = new Map<number, CardMove>();
  const groups = new Map<string, { title: string; actions: { action: LegalAction; label: string }[] }>();
  for (const action of actions) {
    const kind = action.action?.kind;
    const label = describer.action(action.action);
    if (!deciding && (kind?.case === "purchaseCard" || kind?.case === "reserveCard")) {
      const list = onCards.get(kind.value.cardId) ?? [];
      list.push({ action, label, short: kind.case === "purchaseCard" ? "Buy" : "Reserve" });
      onCards.set(kind.value.cardId, list);
      continue;
    }
    if (!deciding && kind?.case === "reserveFromDeck") {
      onDecks.set(kind.value.deck, { action, label, short: "Reserve top card" });
      continue;
    }
    const key = deciding ? "decision" : (kind?.case ?? "other");
    const group = groups.get(key) ?? { title: GROUP_TITLES[key] ?? "Your choice", actions: [] };
    group.actions.push({ action, label });
    groups.set(key, group);
  }
  return { onCards, onDecks, groups: [...groups.values()], count: actions.length };
}
