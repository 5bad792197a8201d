// End-to-end tests of the page served by `kemet serve`, in Debian's
// chromium driven by playwright-core:
//   1. a whole game against the computer, played by clicking (and by the
//      keyboard) on the board;
//   2. a game between two people in two browser contexts, the second
//      joining by the link the first is given, each seeing the other's
//      moves without reloading;
//   3. a screenshot of every ruleset's board, kept in artifacts/.
// Usage: KEMET_BIN=build/release/kemet node e2e.mjs
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { artifacts, fail, waitFor, settled, turn, playOnce, playUntil } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.KEMET_BIN || join(here, "../../build/release/kemet");
const dir = mkdtempSync(join(tmpdir(), "kemet-e2e-"));

async function startServer() {
  const proc = spawn(bin, ["serve", "--port", "0", "--tables", "off", "--db", join(dir, "e2e.db")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", d => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve(+m[1]);
    });
    proc.on("exit", code => reject(new Error("kemet serve exited with " + code)));
  });
  return { proc, base: `http://127.0.0.1:${port}` };
}

async function gameAgainstComputer(browser, base) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a phone
  const errors = [];
  page.on("pageerror", e => errors.push(e.message));
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "lions-jackals-quick");
  await page.selectOption("#opponent", "computer:1");
  await page.click("#start");
  await page.locator(".board").waitFor();
  await page.screenshot({ path: join(artifacts, "computer-start.png"), fullPage: true });
  /* on a phone every hole's touch area is 40 px at least (a long board
     scrolls sideways inside its box; the page itself does not) */
  const touch = await page.evaluate(() => Math.min(...[...document.querySelectorAll(".board .hit")].map(e => e.getBoundingClientRect().width)));
  if (touch < 40) fail(`touch areas of ${touch.toFixed(1)} px on a phone`);
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (pageWidth > 390) fail(`the page is ${pageWidth} px wide on a 390 px phone`);
  /* which side is which, and hole numbers on request */
  const leg = await page.locator(".legend").textContent();
  if (!/player 1/.test(leg) || !/you/.test(leg)) fail("no legend of the sides: " + leg);
  await page.check("#numbers");
  if (!(await page.locator(".board.numbers").count())) fail("hole numbers cannot be shown");
  await page.uncheck("#numbers");
  let marked = 0;
  const actions = await playUntil(page, async () => {
    marked = Math.max(marked, await page.locator(".board .last").count());
    return false;
  });
  if (!marked) fail("the last move is never marked on the board");
  const result = await page.locator("#turn").textContent();
  if (!/won/.test(result)) fail("no winner shown: " + result);
  await page.screenshot({ path: join(artifacts, "computer-end.png"), fullPage: true });
  /* a rematch: a new game of the same kind */
  const before = page.url();
  await page.click("#rematch");
  await waitFor(async () => page.url() !== before, "the rematch to open");
  await page.locator(".board").waitFor();
  if (!/#\/game\/[0-9a-f]+$/.test(page.url())) fail("the rematch's address: " + page.url());
  /* the finished game is in the list, and replays move by move */
  await page.goto(base + "/#/");
  await page.locator("a:has-text('replay')").first().click();
  await page.locator("#replay-words").waitFor();
  await page.click("#prev");
  const w = await page.locator("#replay-words").textContent();
  if (!/Move \d+|Start/.test(w)) fail("replay shows no move: " + w);
  /* its review: each player's figures, the graph, the graded moves; a
     decision picked shows its position with the best move */
  await page.click("#review-button");
  await page.locator("#review .review-list li").first().waitFor({ timeout: 60000 });
  const graded = await page.locator("#review .review-list li").count();
  if (graded < 3) fail(`the review lists ${graded} decisions`);
  if (!(await page.locator("#review svg.graph polyline").count())) fail("the review has no graph");
  const acc = await page.locator("#review table").textContent();
  if (!/accuracy/.test(acc) || !/%/.test(acc)) fail("the review shows no accuracy: " + acc);
  await page.locator("#review .review-list li button").nth(Math.floor(graded / 2)).click();
  const said = await page.locator("#replay-words").textContent();
  if (!/Decision \d+, before move \d+: .* played .*the best was/.test(said)) fail("a picked decision is not explained: " + said);
  await page.screenshot({ path: join(artifacts, "review.png"), fullPage: true });
  if (errors.length) fail("page errors: " + errors.join("; "));
  console.log(`ok - a game against the computer: ${actions} actions, "${result.trim()}"; its review grades ${graded} decisions`);
  await page.close();
}

async function illegalChoiceExplained(browser, base) {
  const page = await browser.newPage();
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "senet-kendall");
  await page.selectOption("#opponent", "computer:1");
  await page.click("#start");
  await page.locator(".board").waitFor();
  await waitFor(async () => (await turn(page)) === "mine", "the human's turn");
  await page.click("#throw");
  await waitFor(async () => (await page.locator(".source").count()) > 0 || (await turn(page)) !== "mine", "a throw");
  if (await page.locator(".source").count()) {
    /* click a square that holds no piece of the mover: square 30 */
    /* (clicked again if the board was redrawn under the click: the
       state's answer and the event stream's read both redraw it) */
    const msg = await waitFor(async () => {
      await page.locator('[data-cell="30"]').click({ force: true });
      return (await page.locator("#msg").textContent()).trim();
    }, "an explanation");
    if (msg.length < 8) fail("no explanation: " + msg);
    console.log(`ok - an illegal choice is explained: "${msg}"`);
  } else console.log("ok - (the throw could not be used; nothing to explain)");
  /* resigning, once confirmed, ends the game for the other side */
  page.once("dialog", d => d.accept());
  await page.click("#resign");
  await waitFor(async () => /resigned/.test(await page.locator("#turn").textContent()), "the resignation");
  const over = await page.locator("#turn").textContent();
  if (!/White resigned\. Black won — you lost\./.test(over)) fail("after resigning: " + over);
  console.log(`ok - resigning: "${over.trim()}"`);
  await page.close();
}

async function twoPlayers(browser, base) {
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  await a.goto(base + "/");
  await a.selectOption("#ruleset", "chien-chacal");
  await a.selectOption("#opponent", "human");
  await a.click("#start");
  const link = (await a.locator("#invite").textContent()).trim();
  if (!link.includes("#/join/")) fail("no invitation link: " + link);
  await b.goto(link);
  await b.locator(".board").waitFor();
  /* neither address carries a token: sharing it never hands over a seat */
  for (const [who, p] of [["creator", a], ["invited", b]])
    if (!/#\/game\/[0-9a-f]+$/.test(p.url())) fail(`the ${who}'s address carries more than the game: ${p.url()}`);
  /* the creator's seat and the invitation survive a new tab */
  const a2 = await a.context().newPage();
  await a2.goto(a.url());
  await a2.locator("#invite").waitFor();
  if ((await a2.locator("#invite").textContent()).trim() !== link) fail("the invitation is lost in a new tab");
  await a2.close();
  let plies = 0;
  /* the race between one's own answers and the other's events: the state
     shown never goes back to an older version */
  const seen = [0, 0], version = async p => +(await p.locator("#turn").getAttribute("data-version"));
  for (let i = 0; i < 6000; i++) {
    for (const [k, p] of [a, b].entries()) {
      const v = await version(p);
      if (v < seen[k]) fail(`page ${k + 1} went back from version ${seen[k]} to ${v}`);
      seen[k] = v;
    }
    const [ta, tb] = [await turn(a), await turn(b)];
    if (ta === "over" && tb === "over") break;
    const page = ta === "mine" ? a : tb === "mine" ? b : null;
    if (page) {
      const other = page === a ? b : a;
      const before = await other.locator("#log").textContent();
      const did = await playOnce(page, plies % 7 === 3);
      plies++;
      if (plies === 6) {
        await a.screenshot({ path: join(artifacts, "two-players-a.png"), fullPage: true });
        await b.screenshot({ path: join(artifacts, "two-players-b.png"), fullPage: true });
      }
      /* the other device sees the change without reloading */
      if (did === "move") {
        try {
          await waitFor(async () => (await other.locator("#log").textContent()) !== before, "the other page to update");
        } catch (e) {
          await a.screenshot({ path: join(artifacts, "stuck-a.png"), fullPage: true });
          await b.screenshot({ path: join(artifacts, "stuck-b.png"), fullPage: true });
          throw e;
        }
      }
    }
    await a.waitForTimeout(20);
  }
  const ra = await a.locator("#turn").textContent(), rb = await b.locator("#turn").textContent();
  if (!/you won/.test(ra + rb) || !/you lost/.test(ra + rb)) fail(`results: "${ra}" / "${rb}"`);
  console.log(`ok - two players on two devices: ${plies} actions; "${ra.trim()}" / "${rb.trim()}"`);
}

async function boards(browser, base) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  for (const r of rulesets) {
    const res = await fetch(base + "/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ruleset: r.id, players: ["human", "human"] }),
    });
    const g = await res.json();
    await page.goto("about:blank");
    await page.goto(`${base}/#/game/${g.id}/${g.tokens["1"]}`);
    await page.locator(".board").waitFor();
    const holes = await page.locator(".board .hole").count();
    if (holes !== r.board_cells) fail(`${r.id}: ${holes} holes drawn, ${r.board_cells} on the board`);
    await page.screenshot({ path: join(artifacts, `board-${r.id}.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(artifacts, `board-${r.id}-phone.png`) });
    await page.setViewportSize({ width: 1100, height: 900 });
  }
  console.log(`ok - ${rulesets.length} boards drawn with every hole, screenshots (desktop and phone) in tests/e2e/artifacts/`);
  await page.close();
}

/* Ten games opened one after another in one tab: each draws (the event
 * streams of the games left are closed, or the seventh would freeze). */
async function manyGamesOneTab(browser, base) {
  const page = await browser.newPage();
  for (let i = 0; i < 10; i++) {
    await page.goto(base + "/#/");
    await page.locator("#start").waitFor();
    await page.selectOption("#ruleset", "senet-kendall");
    await page.selectOption("#opponent", "human");
    await page.click("#start");
    await page.locator(".board").waitFor({ timeout: 10000 });
    await page.locator("#turn").waitFor({ timeout: 10000 });
  }
  console.log("ok - ten games opened one after another in one tab");
  await page.close();
}

/* Take-back against the computer: after a move of one's own and the
 * computer's answer, "Take back" gives the same throw back, the state's
 * version still going forward. */
async function takeBack(browser, base) {
  const page = await browser.newPage();
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "senet-kendall");
  await page.selectOption("#opponent", "computer:1");
  await page.click("#start");
  await page.locator(".board").waitFor();
  let moved = false;
  for (let i = 0; i < 400 && !moved; i++) {
    const t = await turn(page);
    if (t === "over") fail("the game ended before a move could be taken back");
    if (t === "mine") moved = (await playOnce(page)) === "move";
    else await page.waitForTimeout(50);
  }
  if (!moved) fail("no move was made");
  await waitFor(async () => (await turn(page)) === "mine", "the human's turn again");
  const version = +(await page.locator("#turn").getAttribute("data-version"));
  await page.click("#takeback");
  await waitFor(async () => /taken back/.test(await page.locator("#msg").textContent()), "the take-back");
  const after = +(await page.locator("#turn").getAttribute("data-version"));
  const said = await page.locator("#turn").textContent();
  if (!(after > version)) fail(`after the take-back the version went from ${version} to ${after}`);
  if (!/to move — your turn/.test(said)) fail("after the take-back: " + said);
  if (!(await page.locator(".source").count())) fail("after the take-back no piece can be moved");
  await page.screenshot({ path: join(artifacts, "takeback.png"), fullPage: true });
  console.log(`ok - take-back: version ${version} -> ${after}, "${said.trim()}"`);
  await page.close();
}

/* Eight tabs of one browser watching one game: each draws and follows it
 * (one event stream per game is shared by the tabs: the browser's six
 * connections per site once left tabs 7 and 8 waiting for ever). */
async function eightWatchers(browser, base) {
  const res = await fetch(base + "/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset: "senet-kendall", players: ["human", "human"] }),
  });
  const g = await res.json();
  const ctx = await browser.newContext();
  const tabs = [];
  for (let i = 0; i < 8; i++) {
    const t = await ctx.newPage();
    await t.goto(`${base}/#/game/${g.id}`);
    await t.locator("#turn").waitFor({ timeout: 10000 });
    tabs.push(t);
  }
  const before = await Promise.all(tabs.map(t => t.locator("#turn").textContent()));
  for (const b of before) if (!/watching/.test(b)) fail("a watching tab says: " + b);
  const thrown = await fetch(`${base}/api/games/${g.id}/throw`, {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + g.tokens["1"] }, body: "{}",
  });
  await thrown.json();
  for (const [i, t] of tabs.entries())
    await waitFor(async () => (await t.locator("#log").textContent()) !== "" ||
                              (await t.locator("#turn").textContent()) !== before[i], `tab ${i + 1} to follow the throw`, 10000);
  console.log("ok - eight tabs watching one game all draw and follow it");
  await ctx.close();
}

const { proc, base } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
let status = 0;
try {
  await boards(browser, base);
  await illegalChoiceExplained(browser, base);
  await takeBack(browser, base);
  await gameAgainstComputer(browser, base);
  await manyGamesOneTab(browser, base);
  await eightWatchers(browser, base);
  await twoPlayers(browser, base);
} catch (e) {
  console.error("FAIL - " + e.message);
  status = 1;
} finally {
  await browser.close();
  proc.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
