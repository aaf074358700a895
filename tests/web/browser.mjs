// Headless Chromium (Debian's `chromium`, never a downloaded one) driven by puppeteer-core, from
// the front end's own lock file (clients/web). CHROMIUM overrides the executable.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(new URL("../../clients/web/package.json", import.meta.url));
const puppeteer = require("puppeteer-core");

export async function launchBrowser() {
  const userDataDir = mkdtempSync(join(tmpdir(), "splendor-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    userDataDir,
    headless: true,
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
