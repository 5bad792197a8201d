// offline.mjs - the offline page (web/offline/build.mjs) in Debian's
// chromium, with no `kemet serve` anywhere:
//   1. from file://: a whole game against the computer, kept across a
//      reload, then replayed and reviewed;
//   2. from a static server (files only): two people at one device play a
//      whole game, a reload in the middle keeping it;
//   3. the page stays responsive while the strongest level thinks.
// The page must make no request but for its own files.
// Usage: node offline.mjs DIR (the folder build.mjs made)
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { join, resolve, extname } from "node:path";
import { pathToFileURL } from "node:url";
import { artifacts, fail, waitFor, turn, playOnce, playUntil } from "./helpers.mjs";

const dir = resolve(process.argv[2] || "build/offline");
if (!existsSync(join(dir, "index.html"))) fail(`no offline page in ${dir} (./run web ${dir} makes it)`);

/* A static server: the folder's files, nothing else. */
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
const server = createServer((q, r) => {
  const path = new URL(q.url, "http://x").pathname;
  const file = join(dir, path === "/" ? "index.html" : path.slice(1));
  if (!file.startsWith(dir) || !existsSync(file)) { r.writeHead(404).end("not found"); return; }
  r.writeHead(200, { "Content-Type": types[extname(file)] || "application/octet-stream" }).end(readFileSync(file));
});
await new Promise(ok => server.listen(0, "127.0.0.1", ok));
const httpBase = `http://127.0.0.1:${server.address().port}/`;
const fileBase = pathToFileURL(join(dir, "index.html")).href;

/* A page that fails the test on any script error or any request that is
 * not one of the folder's files (blob: is the engine's worker). */
async function openPage(context) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", e => errors.push(e.message));
  page.on("console", m => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("request", q => {
    const u = q.url();
    if (!u.startsWith("file:") && !u.startsWith("blob:") && !u.startsWith("data:") && !u.startsWith(httpBase)) errors.push("a request to " + u);
    if (u.includes("/api/")) errors.push("an API request: " + u);
  });
  page.check = () => { if (errors.length) fail("page errors: " + errors.join("; ")); };
  return page;
}

async function newGame(page, ruleset, opponent) {
  await page.locator("#start").waitFor();
  await page.selectOption("#ruleset", ruleset);
  await page.selectOption("#opponent", opponent);
  await page.click("#start");
  await page.locator(".board").waitFor();
}

async function againstComputer(browser) {
  const context = await browser.newContext();
  const page = await openPage(context);
  await page.goto(fileBase);
  await page.locator("#offline-note").waitFor();
  await newGame(page, "lions-jackals-quick", "computer:1");
  const url = page.url();
  /* once the game is under way, a reload: the game comes back as it was
     (early, since the game's throws are drawn at random and a Lions &
     Jackals game can be over within eight versions) */
  let reloaded = null;
  const actions = await playUntil(page, async () => {
    if (reloaded) return false;
    const v = +(await page.locator("#turn").getAttribute("data-version"));
    if (v < 3) return false;
    /* (twelve reloads: Chromium's localStorage for file:// came up
       empty on about one reload in twenty, web/store.js) */
    for (let i = 0; i < 12; i++) {
      const before = { v: +(await page.locator("#turn").getAttribute("data-version")), cells: await page.locator(".board").innerHTML() };
      await page.reload();
      await page.locator(".board").waitFor();
      await waitFor(async () => +(await page.locator("#turn").getAttribute("data-version")) >= before.v, `the kept game (reload ${i + 1})`);
      const v2 = +(await page.locator("#turn").getAttribute("data-version"));
      if (page.url() !== url) fail("the reload lost the game's address: " + page.url());
      if (v2 === before.v && (await page.locator(".board").innerHTML()) !== before.cells) fail(`the reloaded board differs (reload ${i + 1})`);
      reloaded = v2;
      if (v2 !== before.v) break; /* the computer moved meanwhile */
    }
    return false;
  });
  if (!reloaded) fail(`the game ended before the reload (${actions} actions, version ${await page.locator("#turn").getAttribute("data-version")})`);
  const result = (await page.locator("#turn").textContent()).trim();
  if (!/won/.test(result)) fail("no winner shown: " + result);
  await page.reload();
  await page.locator(".board").waitFor();
  const after = (await page.locator("#turn").textContent()).trim();
  if (after !== result) fail(`after a reload the finished game says "${after}", not "${result}"`);
  await page.screenshot({ path: join(artifacts, "offline-end.png"), fullPage: true });
  /* listed at home; replayed and reviewed */
  await page.goto(fileBase + "#/");
  await page.locator("a:has-text('replay')").first().click();
  await page.locator("#replay-words").waitFor();
  await page.click("#review-button");
  await page.locator("#review .review-list li").first().waitFor({ timeout: 120000 });
  const graded = await page.locator("#review .review-list li").count();
  page.check();
  console.log(`ok - offline from file://: a game against the computer (${actions} actions, "${result}"), kept across reloads; replay and review (${graded} decisions)`);
  await context.close();
}

/* A game an earlier version of the page kept in localStorage (its record
 * under kemet.offline.ID, its seat in kemet.games) is taken over into
 * IndexedDB: the page opens it where it was. From the static server,
 * whose localStorage is dependable. */
async function takenOver(browser) {
  const first = await browser.newContext();
  const page = await openPage(first);
  await page.goto(httpBase);
  await newGame(page, "senet-kendall", "human");
  await playUntil(page, async () => +(await page.locator("#turn").getAttribute("data-version")) >= 4, 1000);
  const id = page.url().match(/#\/game\/([0-9a-f]+)$/)[1];
  const version = await page.locator("#turn").getAttribute("data-version");
  const cells = await page.locator(".board").innerHTML();
  const kept = await page.evaluate(() => new Promise((ok, no) => {
    const r = indexedDB.open("kemet");
    r.onerror = () => no(r.error);
    r.onsuccess = () => {
      const tx = r.result.transaction(["games", "keys"]), out = {};
      const g = tx.objectStore("games").getAll(), k = tx.objectStore("keys").get("kemet.games");
      tx.oncomplete = () => ok({ games: g.result, seats: k.result });
    };
  }));
  if (kept.games.length !== 1 || kept.games[0].id !== id || !kept.seats) fail("the game is not in IndexedDB: " + JSON.stringify(kept).slice(0, 200));
  if (await page.evaluate(() => Object.keys(localStorage).some(k => k.startsWith("kemet.offline.")))) fail("a game is still written to localStorage");
  await first.close();
  const second = await browser.newContext();
  const old = await openPage(second);
  await old.goto(httpBase);
  await old.evaluate(([id, rec, seats]) => {
    localStorage.setItem("kemet.offline." + id, JSON.stringify(rec));
    localStorage.setItem("kemet.games", seats);
  }, [id, kept.games[0], kept.seats]);
  await old.goto(httpBase + "#/game/" + id);
  await old.reload();
  await old.locator(".board").waitFor();
  await waitFor(async () => (await old.locator("#turn").getAttribute("data-version")) === version, "the game taken over");
  if ((await old.locator(".board").innerHTML()) !== cells) fail("the game taken over from localStorage has another board");
  if ((await turn(old)) !== "mine") fail("the game taken over cannot be played on: " + (await old.locator("#turn").textContent()));
  old.check();
  console.log(`ok - a game kept in localStorage by an earlier version is taken over into IndexedDB, at version ${version}`);
  await second.close();
}

async function twoAtOneDevice(browser) {
  const context = await browser.newContext();
  const page = await openPage(context);
  await page.goto(httpBase);
  await newGame(page, "lions-jackals-quick", "human");
  if (await page.locator("#invite").count()) fail("offline, two people at one device are given an invitation");
  let reloaded = false, sides = new Set();
  const actions = await playUntil(page, async () => {
    sides.add(await page.locator("#turn").textContent().then(t => t.split(" to ")[0]));
    if (reloaded || +(await page.locator("#turn").getAttribute("data-version")) < 3) return false;
    const v = await page.locator("#turn").getAttribute("data-version");
    await page.reload();
    await page.locator(".board").waitFor();
    await waitFor(async () => (await page.locator("#turn").getAttribute("data-version")) === v, "the same game after a reload");
    reloaded = true;
    return false;
  }, 1000);
  if (!reloaded) fail(`the two-person game ended before the reload (${actions} actions, ${await page.locator("#turn").getAttribute("data-version")} versions: ${await page.locator("#turn").textContent()})`);
  if (sides.size < 2) fail("only one side played: " + [...sides].join(", "));
  const result = (await page.locator("#turn").textContent()).trim();
  if (!/won/.test(result)) fail("no winner shown: " + result);
  await page.goto(httpBase + "#/");
  await page.locator("table.games").waitFor();
  const rows = await page.locator("table.games tr").count();
  const both = await page.locator("td:has-text('both sides')").count();
  if (both !== 1 || rows !== 2) fail(`the home page lists the game ${rows - 1} times, "both sides" ${both} times`);
  page.check();
  console.log(`ok - offline from a static server: two people at one device, ${actions} actions to "${result}", kept across a reload`);
  await context.close();
}

async function responsive(browser) {
  const context = await browser.newContext();
  const page = await openPage(context);
  await page.goto(httpBase);
  await page.locator("#start").waitFor();
  /* the longest wait between two frames, while the computer (level 5,
     moving first) thinks through its first turns */
  await page.evaluate(() => {
    let last = performance.now();
    window.worstFrame = 0;
    const f = t => { window.worstFrame = Math.max(window.worstFrame, t - last); last = t; requestAnimationFrame(f); };
    requestAnimationFrame(f);
  });
  await page.selectOption("#seat", "2");
  await newGame(page, "senet-kendall", "computer:5");
  let mine = 0;
  await waitFor(async () => {
    const t = await turn(page);
    if (t === "mine") { await playOnce(page, false); mine++; }
    return mine >= 8 || t === "over";
  }, "the computer's turns", 180000);
  const worst = await page.evaluate(() => window.worstFrame);
  if (worst > 500) fail(`the page froze for ${worst.toFixed(0)} ms while the computer thought`);
  page.check();
  console.log(`ok - the page answers while level 5 thinks: the longest wait between frames ${worst.toFixed(0)} ms over ${mine} of our actions and the computer's turns`);
  await context.close();
}

/* Every board whole offline as served: at each size every hole inside
 * the screen and the board, no sideways scroll, the throw on the first
 * screen; screenshots in artifacts/ (offline-board-*.png). */
async function boardsOffline(browser) {
  let n = 0;
  for (const [w, hgt] of [[1366, 800], [1920, 1080], [390, 844]]) {
    const context = await browser.newContext({ viewport: { width: w, height: hgt } });
    const page = await openPage(context);
    await page.goto(fileBase);
    await page.locator("#start").waitFor();
    const ids = await page.locator("#ruleset option").evaluateAll(o => o.map(x => x.value));
    for (const id of ids) {
      await page.goto(fileBase + "#/");
      await newGame(page, id, "human");
      const m = await page.evaluate(() => {
        const b = document.querySelector(".board").getBoundingClientRect(), out = [];
        for (const e of document.querySelectorAll(".board .hole .cellbg")) {
          const q = e.getBoundingClientRect();
          if (q.left < 0 || q.top < 0 || q.right > innerWidth || q.bottom > innerHeight || q.left < b.left - .5 || q.right > b.right + .5) out.push(1);
        }
        const t = document.getElementById("throw") || document.querySelector(".sticks");
        return { out: out.length, scroll: document.documentElement.scrollWidth, throwBottom: t ? t.getBoundingClientRect().bottom : null };
      });
      if (m.out || m.scroll > w || m.throwBottom === null || m.throwBottom > hgt) fail(`offline, ${id} at ${w}x${hgt}: ${JSON.stringify(m)}`);
      if (w === 390) await page.screenshot({ path: join(artifacts, `offline-board-${id}-${w}x${hgt}.png`) });
      n++;
    }
    /* a rematch against the computer opens a new game at once */
    await page.goto(fileBase + "#/");
    await newGame(page, "senet-kendall", "computer:1");
    page.once("dialog", d => d.accept());
    await page.click("#resign");
    await page.locator("#rematch").waitFor();
    const before = page.url();
    await page.click("#rematch");
    await waitFor(async () => page.url() !== before, "the offline rematch");
    await page.locator(".board").waitFor();
    page.check();
    await context.close();
  }
  console.log(`ok - offline: ${n} boards whole at three sizes, no sideways scroll, the throw on the first screen; a rematch against the computer`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
/* The fixes of the served page offline too (the same page, the engine in
 * the browser): Lions & Jackals against the computer as the Jackals, the
 * Lions' moves in the Jackals' numbers as the board has them and the
 * legend saying so, a hint in the middle of a turn, a phone's holes 18 px
 * or more. */
async function seatsNumbersOffline(browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await openPage(context);
  await page.goto(httpBase);
  await page.locator("#start").waitFor();
  await page.selectOption("#seat", "2");
  await newGame(page, "lions-jackals", "computer:1");
  let checked = false, hinted = false;
  for (let i = 0; i < 300 && !(checked && hinted); i++) {
    const t = await turn(page);
    if (t === "over") break;
    if (t !== "mine") { await page.waitForTimeout(50); continue; }
    if (!checked && (await page.locator(".board .arrow.last").count())) {
      /* the Lions' last move: each plain step's ends as the board numbers
         them (a step carried by the river left out, whole: "20 → 18,
         carried back to 22" was once read as a step 20 → 1) */
      const got = await page.evaluate(() => {
        const li = [...document.querySelectorAll("#log li")].reverse().find(l => /Lions move/.test(l.textContent));
        const title = document.querySelector(".board .arrow.last title").textContent;
        return { li: li ? li.textContent : "", title, legend: (document.getElementById("numbering") || {}).textContent || "" };
      });
      if (/last move: Lions/.test(got.title)) {
        const steps = [...got.title.matchAll(/(\d+) → (\d+)(?!\d|, carried| by count)/g)].map(m => [m[1], m[2]]);
        for (const [a, b] of steps) if (!got.li.includes(`Lions move ${a}-${b}.`)) fail(`offline: the arrow says ${a} → ${b}, the list "${got.li}"`);
        if (!/your squares \(the Jackals'\)/.test(got.legend)) fail("offline: the legend says " + got.legend);
        checked = steps.length > 0;
      }
    }
    if (!hinted && (await page.locator("#throw").count()) === 0 && (await page.locator(".board .hole.source").count())) {
      await page.locator(".board .hole.source").first().click();
      await page.locator(".board .hole.target").first().waitFor();
      await page.locator(".board .hole.target").first().click();
      await page.locator("body:not([data-busy])").waitFor();
      if (await page.locator("#so-far").count()) {
        await page.click("#hint");
        await page.locator("#hints li").first().waitFor({ timeout: 60000 });
        if (!/way to finish the turn/.test(await page.locator("#hints").textContent())) fail("offline: the mid-turn hint");
        hinted = true;
        await page.screenshot({ path: join(artifacts, "offline-mid-turn-hint-390x844.png") });
      }
    }
    await playOnce(page);
  }
  if (!checked) fail("offline: no move of the Lions was seen in the Jackals' numbers");
  if (!hinted) fail("offline: no hint in the middle of a turn");
  const hole = await page.evaluate(() => Math.min(...[...document.querySelectorAll(".board .hole .cellbg")].map(e => e.getBoundingClientRect().width)));
  if (hole < 18) fail(`offline: a hole is ${hole.toFixed(1)} px on a phone`);
  page.check();
  console.log(`ok - offline: the Lions' moves in the Jackals' numbers, a hint in the middle of a turn, holes ${hole.toFixed(1)} px on a phone`);
  await context.close();
}

/* the moves shown at once: the reader's choice, for a quick run */
const newContext = browser.newContext.bind(browser);
browser.newContext = async o => {
  const c = await newContext(o);
  await c.addInitScript(() => { if (!localStorage.getItem("kemet.motion")) localStorage.setItem("kemet.motion", "off"); });
  return c;
};
let status = 0;
try {
  await boardsOffline(browser);
  await againstComputer(browser);
  await twoAtOneDevice(browser);
  await takenOver(browser);
  await responsive(browser);
  await seatsNumbersOffline(browser);
} catch (e) {
  console.error("not ok - " + e.message);
  status = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(status);
