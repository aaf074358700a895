/**
 * The tokens picked one at a time (gems from the bank, tokens to give back): the state of a pick,
 * a token as a button that adds it, and the panel that shows the pick with Confirm and Cancel.
 * Which tokens may be added, and when the pick is a move, comes from `picker.ts`.
 */
import { countsOf, type LegalAction, TOKEN_NAMES, type TokenCounts, type TokenName } from "splendor-engine-client";
import type { Describer } from "./describe.js";
import { h } from "./dom.js";
import type { TokenPick } from "./moves.js";
import { canAdd, matching } from "./picker.js";
import { gem } from "./svg.js";

/** The tokens picked so far, and how to change the pick. */
export interface Picking {
  readonly picked: readonly TokenName[];
  readonly add: (token: TokenName) => void;
  /** Take one `token` out of the pick, or `"all"` of them. */
  readonly remove: (token: TokenName | "all") => void;
}

/** How many of `token` are left to pick from `counts` once the pick holds some. */
export function leftOf(counts: TokenCounts | undefined, picking: Picking, token: TokenName): number {
  return countsOf(counts)[token] - picking.picked.filter((picked) => picked === token).length;
}

/**
 * One token colour as a button that adds it to the pick, enabled only while the pick can still
 * become a legal move. `marker` names it for tests and styles (`data-gem`, `data-own-gem`).
 */
export function tokenButton(
  pick: TokenPick,
  picking: Picking,
  token: TokenName,
  left: number,
  marker: "data-gem" | "data-own-gem",
  label: string,
): HTMLElement {
  return h(
    "button",
    {
      type: "button",
      class: `token token-${token} gem-button`,
      [marker]: token,
      disabled: !canAdd(pick.options, picking.picked, token),
      "aria-label": label,
      onclick: () => picking.add(token),
    },
    gem(token),
    h("span", { class: "n" }, left),
  );
}

/**
 * The pick in progress (your own tokens to click first when giving back), with Confirm once it is
 * exactly a legal move, and Cancel to put every picked token back.
 */
export function pickPanel(
  pick: TokenPick,
  picking: Picking,
  held: TokenCounts | undefined,
  describer: Describer,
  play: (action: LegalAction) => void,
): HTMLElement {
  const complete = matching(pick.options, picking.picked);
  return h(
    "div",
    { class: "pick", role: "group", "aria-label": pick.source === "bank" ? "gems to take" : "tokens to give back" },
    pick.source === "own"
      ? h(
          "div",
          { class: "gem-buttons", role: "group", "aria-label": "your tokens" },
          TOKEN_NAMES.map((token) => {
            const left = leftOf(held, picking, token);
            const label = `Give back a ${token} token (you hold ${left})`;
            return left > 0 ? tokenButton(pick, picking, token, left, "data-own-gem", label) : null;
          }),
        )
      : null,
    h(
      "p",
      { class: "picked", "aria-live": "polite" },
      pick.source === "bank" ? "To take: " : "To give back: ",
      picking.picked.length === 0
        ? "nothing yet"
        : picking.picked.map((token) =>
            h(
              "button",
              {
                type: "button",
                class: `token token-${token} picked-token`,
                "data-picked": token,
                "aria-label": `Put back a ${token}`,
                title: `Put back a ${token}`,
                onclick: () => picking.remove(token),
              },
              gem(token),
            ),
          ),
    ),
    h(
      "p",
      { class: "pick-actions" },
      h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-confirm": "",
          "data-action-id": complete?.actionId,
          "data-action-kind": complete?.action?.kind.case,
          disabled: complete === undefined,
          onclick: () => complete !== undefined && play(complete),
        },
        complete === undefined ? "Confirm" : `Confirm: ${describer.action(complete.action)}`,
      ),
      " ",
      h(
        "button",
        {
          type: "button",
          "data-cancel": "",
          disabled: picking.picked.length === 0,
          onclick: () => picking.remove("all"),
        },
        "Cancel",
      ),
    ),
  );
}
