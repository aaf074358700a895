/**
 * Making a thing on the table (a card, a deck, a noble, a city) the control for the choices about
 * it. A click (or Enter/Space) never makes a move by itself: it opens a small menu beside the
 * thing that states each move in full ("Buy for 2 red + 1 gold", "Reserve (+1 gold)") with
 * Cancel; the move is made from the menu. The thing keeps its own label for screen readers, with
 * its choices added. The menu is not inside the thing (a button's content is hidden from screen
 * readers) but laid over the page just below it; the arrow keys move through it, Escape closes it.
 */
import { h } from "./dom.js";
import type { Choice } from "./moves.js";
import type { Play } from "./pieces.js";

let openMenu: { readonly menu: HTMLElement; readonly owner: HTMLElement } | undefined;

/** Close the open menu, if any; `refocus` returns the focus to the thing it belongs to. */
export function closeMenu(refocus = false): void {
  if (openMenu === undefined) return;
  const { menu, owner } = openMenu;
  openMenu = undefined;
  menu.remove();
  owner.setAttribute("aria-expanded", "false");
  if (refocus) owner.focus();
}

// A click anywhere but on the menu or the thing it belongs to closes the menu.
document.addEventListener("click", (event) => {
  const target = event.target as Node | null;
  if (openMenu !== undefined && !openMenu.menu.contains(target) && !openMenu.owner.contains(target)) closeMenu();
});

/** Lay the menu over the page just below its thing (above it when there is no room), inside the screen. */
function placeMenu(menu: HTMLElement, owner: HTMLElement): void {
  const box = owner.getBoundingClientRect();
  const { width, height } = menu.getBoundingClientRect();
  const left = Math.max(4, Math.min(box.left, document.documentElement.clientWidth - width - 4));
  const below = box.bottom + 2 + height <= innerHeight || box.top - 2 - height < 0;
  menu.style.left = `${left + scrollX}px`;
  menu.style.top = `${(below ? box.bottom + 2 : box.top - 2 - height) + scrollY}px`;
  menu.dataset["side"] = below ? "below" : "above";
}

function menuOf(owner: HTMLElement, choices: readonly Choice[], play: Play): HTMLElement {
  const menu = h(
    "div",
    {
      class: "choice-menu",
      id: "choice-menu",
      role: "menu",
      "aria-label": `Choices: ${owner.getAttribute("aria-label") ?? ""}`,
    },
    choices.map((choice) =>
      h(
        "button",
        {
          type: "button",
          role: "menuitem",
          class: `move move-${choice.action.action?.kind.case ?? "unknown"}`,
          "data-action-id": choice.action.actionId,
          "data-action-kind": choice.action.action?.kind.case ?? "",
          title: choice.label,
          onclick: () => (closeMenu(), play(choice.action)),
        },
        choice.short,
      ),
    ),
    h("button", { type: "button", role: "menuitem", class: "cancel", onclick: () => closeMenu(true) }, "Cancel"),
  );
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      closeMenu(true);
      return;
    }
    const step = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const items = [...menu.querySelectorAll<HTMLElement>("button")];
    const at = items.indexOf(document.activeElement as HTMLElement);
    items[(at + step + items.length) % items.length]?.focus();
  });
  return menu;
}

/** Make `element` the control of `choices` (none: left as it is). */
export function offerChoices(element: HTMLElement, choices: readonly Choice[], play: Play): HTMLElement {
  if (choices.length === 0) return element;
  const what = element.getAttribute("aria-label") ?? "";
  element.classList.add("choosable");
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", `${what}. ${choices.map((choice) => choice.short).join(", or ")}`);
  element.setAttribute("aria-haspopup", "menu");
  element.setAttribute("aria-expanded", "false");
  element.dataset["choices"] = String(choices.length);
  const open = (): void => {
    const wasOpen = openMenu?.owner === element;
    closeMenu();
    if (wasOpen) return;
    const menu = menuOf(element, choices, play);
    document.body.append(menu);
    placeMenu(menu, element);
    element.setAttribute("aria-controls", menu.id);
    element.setAttribute("aria-expanded", "true");
    openMenu = { menu, owner: element };
    menu.querySelector("button")?.focus();
  };
  element.addEventListener("click", open);
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    open();
  });
  return element;
}
