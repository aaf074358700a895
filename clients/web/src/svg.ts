/**
 * The table's drawings, as inline SVG: one sprite of symbols added to the page once, then each
 * drawing is a tiny `<svg><use href="#…"></svg>`. No image is downloaded. Every gem colour has a
 * shape of its own (a diamond, a round sapphire, an emerald cut, a hexagonal ruby, a triangular
 * onyx, a gold star), so the colours are told apart without seeing colour. Drawings are
 * decorative (`aria-hidden`): the element that holds them carries the words.
 */
import type { TokenName } from "splendor-engine-client";

const SVG = "http://www.w3.org/2000/svg";

/** Each symbol: its outline (filled with the current colour) and its facet lines. */
const SYMBOLS: Readonly<Record<string, { readonly body: string; readonly lines?: string; readonly light?: boolean }>> =
  {
    "gem-white": { body: "M12 2 22 9 12 22 2 9Z", lines: "M2 9H22M7 9 12 2 17 9M7 9 12 22 17 9", light: true },
    "gem-blue": {
      body: "M12 2A10 10 0 1 0 12.01 2Z",
      lines: "M8 6H16L19 10 16 17H8L5 10ZM5 10H19M8 6 12 2 16 6M8 17 12 22 16 17",
    },
    "gem-green": {
      body: "M7 3H17L21 7V17L17 21H7L3 17V7Z",
      lines: "M8 7H16V17H8ZM3 7 8 7 7 3M17 3 16 7 21 7M3 17H8L7 21M17 21 16 17H21",
    },
    "gem-red": {
      body: "M12 2 21 7V17L12 22 3 17V7Z",
      lines: "M12 6 17 9V15L12 18 7 15V9ZM12 2V6M21 7 17 9M21 17 17 15M12 22V18M3 17 7 15M3 7 7 9",
    },
    "gem-black": { body: "M12 3 22 20H2Z", lines: "M12 9 16.5 17H7.5ZM12 3V9M22 20 16.5 17M2 20 7.5 17" },
    "gem-gold": { body: "M12 2 14.9 8.6 22 9.2 16.6 13.9 18.2 21 12 17.3 5.8 21 7.4 13.9 2 9.2 9.1 8.6Z" },
    crown: { body: "M3 18 2 7 7.5 11 12 4 16.5 11 22 7 21 18Z", lines: "M3 15H21" },
    star: { body: "M12 2 14.9 8.6 22 9.2 16.6 13.9 18.2 21 12 17.3 5.8 21 7.4 13.9 2 9.2 9.1 8.6Z" },
    shield: { body: "M12 2 21 5V11C21 16.5 17 20.5 12 22 7 20.5 3 16.5 3 11V5Z" },
    tower: { body: "M5 22V10H3V3H7V6H10V3H14V6H17V3H21V10H19V22Z", lines: "M10 22V16H14V22" },
    city: { body: "M2 22V12L6 8 10 12V6L14 2 18 6V22Z", lines: "M6 22V17M14 22V15M14 10V8" },
  };

/** Add the sprite to the page (once). */
export function installSprite(document: Document): void {
  if (document.getElementById("splendor-sprite") !== null) return;
  const sprite = document.createElementNS(SVG, "svg");
  sprite.setAttribute("id", "splendor-sprite");
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("width", "0");
  sprite.setAttribute("height", "0");
  sprite.classList.add("sprite");
  // Presentation attributes, not classes: the copies a <use> makes are not reached by the page's selectors.
  for (const [id, { body, lines, light }] of Object.entries(SYMBOLS)) {
    const symbol = document.createElementNS(SVG, "symbol");
    symbol.setAttribute("id", id);
    symbol.setAttribute("viewBox", "0 0 24 24");
    const outline = document.createElementNS(SVG, "path");
    outline.setAttribute("d", body);
    outline.setAttribute("fill", "currentColor");
    outline.setAttribute("stroke", "#00000090");
    outline.setAttribute("stroke-width", "1.2");
    outline.setAttribute("stroke-linejoin", "round");
    symbol.append(outline);
    if (lines !== undefined) {
      const facets = document.createElementNS(SVG, "path");
      facets.setAttribute("d", lines);
      facets.setAttribute("fill", "none");
      facets.setAttribute("stroke", light === true ? "#00000060" : "#ffffffa0");
      facets.setAttribute("stroke-width", "0.9");
      facets.setAttribute("stroke-linejoin", "round");
      symbol.append(facets);
    }
    sprite.append(symbol);
  }
  document.body.prepend(sprite);
}

/** One drawing from the sprite (`name`: a symbol id), decorative. */
export function drawing(name: string, className: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#${name}`);
  svg.append(use);
  return svg;
}

/** A gem of a colour, in its own shape. */
export function gem(token: TokenName): SVGSVGElement {
  return drawing(`gem-${token}`, `gem gem-${token}`);
}
