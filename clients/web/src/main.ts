/** Entry point: connect to the engine that served this page, load the catalog, start. */
import { EngineClient } from "splendor-engine-client";
import { webConnectTransport } from "splendor-engine-client/web";
import { App, errorText } from "./app.js";
import { CatalogIndex } from "./catalog.js";
import { connectEngine } from "./connect.js";

async function main(): Promise<void> {
  const root = document.getElementById("app")!;
  const status = document.getElementById("status")!;
  const alert = document.getElementById("alert")!;
  // JSON, so that every request and response is readable in the browser's network panel.
  const client = new EngineClient(webConnectTransport(location.origin, { useBinaryFormat: false }), {
    timeoutMs: 60_000,
  });
  const engine = connectEngine(client);
  try {
    const catalog = new CatalogIndex(await engine.catalog());
    const app = new App(root, status, alert, engine, catalog);
    document.getElementById("new-game")?.addEventListener("click", () => {
      history.pushState(null, "", location.pathname);
      app.showSetup();
    });
    await app.begin(location.search);
  } catch (error) {
    alert.hidden = false;
    alert.textContent = `The engine cannot be reached: ${errorText(error)}`;
  }
}

void main();
