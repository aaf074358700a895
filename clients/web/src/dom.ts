/**
 * A tiny element builder, so the rendering code reads like the markup it makes.
 *
 *     h("button", { type: "button", "data-action-id": "12", onclick: play }, "Take 2 red")
 *
 * Attributes whose value is `undefined` or `false` are left out; `on*` functions become listeners.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/** Append children (nested lists flattened, empty ones skipped). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child as readonly Child[]);
    else parent.appendChild(typeof child === "object" ? (child as Node) : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
