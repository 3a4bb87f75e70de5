// errdex serve's pages in a real browser: Debian's chromium, headless, driven by
// puppeteer-core. Search, open an error page, paste a real traceback and see the
// right card; no console errors (CSP violations included); the hostile record
// fires no dialog; phone width, dark scheme, no JavaScript. Screenshots of the
// main pages go to $ERRDEX_WEB_OUT/screenshots for a person to look at.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { makeCatalog, startServer, traceback, OUT_DIR } from "./fixture.mjs";

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SHOTS = path.join(OUT_DIR, "screenshots");

let cat, server, browser, profile;
before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  cat = makeCatalog();
  server = await startServer(cat.db);
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "errdex-chromium-"));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
  });
});
after(async () => {
  await browser?.close();
  await server?.stop();
  cat?.cleanup();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

// A page that records console errors, page errors and dialogs.
async function open() {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  const problems = [];
  const dialogs = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  page.on("requestfailed", (r) => problems.push("request failed: " + r.url()));
  page.on("dialog", async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  return { page, problems, dialogs };
}

async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: path.join(SHOTS, name + ".png"), fullPage });
}

test("search, open an error page, paste a traceback", async () => {
  const { page, problems, dialogs } = await open();
  await page.goto(server.url + "/", { waitUntil: "load" });
  assert.equal(await page.title(), "error catalog · errdex");
  await shot(page, "index");

  // Search from the top bar: the result links to the error's page.
  await page.type("header input[name=q]", "dimension mismatch");
  await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
  assert.match(page.url(), /\/search\?q=dimension\+mismatch/);
  const results = await page.$$eval("ol.results li a", (as) => as.map((a) => a.textContent));
  assert.equal(results.length, 1, results.join("\n"));
  assert.match(results[0], /dimension mismatch/);
  assert.deepEqual(await page.$$eval("ol.results mark", (ms) => ms.map((m) => m.textContent)), ["dimension", "mismatch"]);
  await shot(page, "search");

  await Promise.all([page.waitForNavigation(), page.click("ol.results li a")]);
  assert.match(page.url(), /\/e\/test\/app\/dimension-mismatch-a-b#r-[0-9a-f]{16}$/);
  assert.equal(await page.$eval("h1.message", (h) => h.textContent.trim()), "ValueError: dimension mismatch: {a} != {b}");
  assert.deepEqual(await page.$$eval("h1.message mark.hole", (ms) => ms.map((m) => m.textContent)), ["{a}", "{b}"]);
  const raiseLine = await page.$eval(".src tr.hl", (tr) => [tr.querySelector(".ln").textContent, tr.querySelector(".lc").textContent]);
  assert.equal(raiseLine[0], "13");
  assert.match(raiseLine[1], /raise ValueError\(f"dimension mismatch/);
  const headings = await page.$$eval("article h2", (hs) => hs.map((h) => h.textContent));
  for (const h of ["What it means", "Source", "Versions"]) assert.ok(headings.includes(h), headings.join(", "));
  await shot(page, "error-page");

  // The paste box: a real traceback gives the right card, captured values marked.
  await page.goto(server.url + "/", { waitUntil: "load" });
  const tb = traceback(cat.dir, "import app.models as m; m.load('/etc/llama')");
  await page.$eval("#paste", (el, v) => { el.value = v; }, tb);
  await Promise.all([page.waitForNavigation(), page.click("form[action='/explain'] button[type=submit]")]);
  const card = await page.$eval("article.card", (c) => ({
    label: c.querySelector(".label").textContent,
    cls: c.querySelector(".cls")?.textContent,
    where: c.querySelector("a.go").textContent,
    href: c.querySelector("a.go").getAttribute("href"),
    captured: [...c.querySelectorAll("mark.cap")].map((m) => m.textContent),
  }));
  assert.equal(card.label, "EXACT");
  assert.equal(card.cls, "ValueError");
  assert.equal(card.where, "app/models.py:11");
  assert.deepEqual(card.captured, ["'/etc/llama'"]);
  assert.equal(await page.$eval("#paste", (el) => el.value), tb.replace(/\r\n/g, "\n"), "the paste stays in the box");
  await shot(page, "explain");
  await Promise.all([page.waitForNavigation(), page.click("article.card a.go")]);
  assert.match(await page.$eval("h1.message", (h) => h.textContent), /must not be a path/);

  assert.deepEqual(problems, []);
  assert.deepEqual(dialogs, []);
  await page.close();
});

test("the hostile record fires no dialog and shows its text", async () => {
  const { page, problems, dialogs } = await open();
  const found = await (await fetch(server.url + "/v1/search?q=onerror")).json();
  assert.equal(found.results.length, 1);
  await page.goto(`${server.url}/e/test/app/${found.results[0].slug}`, { waitUntil: "load" });
  const h1 = await page.$eval("h1.message", (h) => h.textContent);
  assert.match(h1, /<img src=x onerror=alert\(1\)>/);
  assert.match(h1, /\\u202etxt\.exe/, "the bidi override is shown, not obeyed");
  assert.doesNotMatch(h1, /\u001b/);
  assert.equal(await page.$$eval("main img", (imgs) => imgs.length), 0);
  await shot(page, "hostile-record");

  await page.goto(`${server.url}/search?q=onerror`, { waitUntil: "load" });
  const tb = traceback(cat.dir, "import app.models as m; m.load('xss')");
  await page.goto(server.url + "/explain", { waitUntil: "load" });
  await page.$eval("#paste", (el, v) => { el.value = v; }, tb);
  await Promise.all([page.waitForNavigation(), page.click("main form button[type=submit]")]);
  assert.equal(await page.$$eval("main img", (imgs) => imgs.length), 0);
  await new Promise((r) => setTimeout(r, 300));  // an onerror would have fired by now
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test("phone width, dark scheme, no JavaScript", async () => {
  const { page, problems } = await open();
  const url = `${server.url}/e/test/app/dimension-mismatch-a-b`;
  await page.setViewport({ width: 375, height: 800, isMobile: true, deviceScaleFactor: 2 });
  await page.goto(url, { waitUntil: "load" });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `the page is ${width}px wide on a 375px phone`);
  await shot(page, "error-page-phone", false);

  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(dark, light);
  await page.setViewport({ width: 1100, height: 900 });
  await shot(page, "error-page-dark", false);
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);

  await page.setJavaScriptEnabled(false);
  await page.goto(server.url + "/", { waitUntil: "load" });
  await page.type("#q", "missing model");
  await Promise.all([page.waitForNavigation(), page.click("main form[role=search] button")]);
  assert.match(await page.$eval("ol.results li a", (a) => a.textContent), /missing model name/);
  assert.deepEqual(problems, []);
  await page.close();
});
