/** Entry point: connect to the engine that served this page, load the catalog, start. */
import { EngineClient } from "splendor-engine-client";
import { webConnectTransport } from "splendor-engine-client/web";
import { App, errorText, retryDelayMs, unreachable } from "./app.js";
import { CatalogIndex } from "./catalog.js";
import { connectEngine } from "./connect.js";
import { installSprite } from "./svg.js";

async function main(): Promise<void> {
  const root = document.getElementById("app")!;
  const status = document.getElementById("status")!;
  const alert = document.getElementById("alert")!;
  // JSON, so that every request and response is readable in the browser's network panel.
  const client = new EngineClient(webConnectTransport(location.origin, { useBinaryFormat: false }), {
    timeoutMs: 60_000,
  });
  const engine = connectEngine(client);
  installSprite(document);
  // The catalog first: an engine that does not answer yet is tried again, saying so meanwhile.
  let catalog: CatalogIndex | undefined;
  for (let attempt = 1; catalog === undefined; attempt += 1) {
    try {
      catalog = new CatalogIndex(await engine.catalog());
    } catch (error) {
      alert.hidden = false;
      if (!unreachable(error)) {
        alert.textContent = errorText(error);
        return;
      }
      const delay = retryDelayMs(attempt);
      alert.textContent = `${errorText(error)} Trying again in ${Math.round(delay / 1000)} s…`;
      alert.dataset["retryIn"] = String(delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  alert.hidden = true;
  delete alert.dataset["retryIn"];
  try {
    const app = new App(root, status, alert, engine, catalog);
    document.getElementById("new-game")?.addEventListener("click", () => {
      history.pushState(null, "", location.pathname);
      app.showSetup();
    });
    await app.begin(location.search);
  } catch (error) {
    alert.hidden = false;
    alert.textContent = errorText(error);
  }
}

void main();
