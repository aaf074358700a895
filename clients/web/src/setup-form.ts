/**
 * The setup form: how many players, who plays each seat (a human or a server-side bot), the
 * module, and a game record to load for a replay. A new game from the form is always dealt from
 * a seed the engine draws.
 */
import { h } from "./dom.js";
import { botName, HUMAN, MODULES, type Setup, strongestPolicy } from "./setup.js";

export function setupForm(
  policies: readonly string[],
  start: (setup: Setup) => void,
  load: (recordText: string) => void,
): HTMLFormElement {
  const seatSelect = (seat: number): HTMLElement =>
    h(
      "label",
      { class: "field" },
      `Player ${seat + 1} `,
      h(
        "select",
        { name: `seat${seat}` },
        h("option", { value: HUMAN, selected: seat === 0 }, "Human"),
        policies.map((policy) =>
          h(
            "option",
            { value: policy, selected: seat > 0 && policy === strongestPolicy(policies) },
            `${botName(policy, policies)} bot`,
          ),
        ),
      ),
    );
  const recordInput = h("input", {
    type: "file",
    accept: "application/json,.json",
    "aria-label": "Load a game record (JSON) to replay",
    onchange: (event: Event) => {
      const file = (event.target as HTMLInputElement).files?.[0];
      if (file !== undefined) void file.text().then(load);
    },
  });
  const form = h(
    "form",
    { class: "setup", "aria-labelledby": "setup-title" },
    h("h2", { id: "setup-title" }, "New game"),
    h(
      "label",
      { class: "field" },
      "Players ",
      h(
        "select",
        { name: "players" },
        [2, 3, 4].map((count) => h("option", { value: count }, count)),
      ),
    ),
    h("fieldset", { class: "seats" }, h("legend", {}, "Seats"), [0, 1, 2, 3].map(seatSelect)),
    h(
      "label",
      { class: "field" },
      "Module ",
      h(
        "select",
        { name: "module" },
        MODULES.map((entry) => h("option", { value: entry.key }, entry.label)),
      ),
    ),
    h("button", { type: "submit", class: "primary" }, "Start the game"),
    h("p", { class: "hint" }, "Or load a game record to replay it: ", recordInput),
  );
  const syncSeats = (): void => {
    const players = Number((form.elements.namedItem("players") as HTMLSelectElement).value);
    form.querySelectorAll<HTMLElement>(".seats label").forEach((label, seat) => {
      label.hidden = seat >= players;
    });
  };
  form.addEventListener("change", syncSeats);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const players = Number(data.get("players"));
    start({
      players,
      module: String(data.get("module")),
      seats: Array.from({ length: players }, (_, seat) => String(data.get(`seat${seat}`))),
      publicSeed: undefined,
      delayMs: 600,
      iterations: 0,
    });
  });
  syncSeats();
  return form;
}
