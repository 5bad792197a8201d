// End-to-end tests of the page served by `kemet serve`, in Debian's
// chromium driven by playwright-core:
//   1. a whole game against the computer, played by clicking (and by the
//      keyboard) on the board;
//   2. a game between two people in two browser contexts, the second
//      joining by the link the first is given, each seeing the other's
//      moves without reloading;
//   3. every ruleset's board whole at 1366x800, 1920x1080 and 390x844
//      (every hole inside the screen and the board's box, no sideways
//      scroll, the throw on the first screen), screenshots in artifacts/;
//   4. Senet against level 5: the computer's moves played back in order,
//      the last move's arrow kept until the player moves, hints on the
//      board ranked and readable, a click on a piece under them picking
//      the piece, the best played from the list; a phone's first screen
//      holding the hints, a tap's explanation and the piece to enter;
//   5. the review of a resigned game, its accuracy by docs/review.md's
//      formula; a rematch between two people landing both in one game;
//   6. a whole game of every ruleset with no console error and no failed
//      request; the home page, the rules pages, a bad address;
//   7. Bell's Senet: the pieces captured counted beside the score, the
//      marked squares in the legend, typed moves that are not legal
//      explained with no refused request.
// Each check runs on its own; the failures are listed at the end.
// Usage: KEMET_BIN=build/release/kemet node e2e.mjs [NAME...]
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { artifacts, fail, waitFor, settled, still, turn, playOnce, playUntil, boardText } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.KEMET_BIN || join(here, "../../build/release/kemet");
const dir = mkdtempSync(join(tmpdir(), "kemet-e2e-"));

async function startServer() {
  /* the checks make a few hundred games from this one address: the limit
     on new games (tests/e2e/attack.mjs checks it) is out of the way */
  const proc = spawn(bin, ["serve", "--port", "0", "--tables", "off", "--db", join(dir, "e2e.db"),
                           "--new-games", "100000"], {
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
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (pageWidth > 390) fail(`the page is ${pageWidth} px wide on a 390 px phone`);
  /* which side is which, and the holes' numbers, shown unless hidden */
  const leg = await page.locator(".legend").textContent();
  if (!/player 1/.test(leg) || !/you/.test(leg)) fail("no legend of the sides: " + leg);
  if (!(await page.locator(".board.numbers").count())) fail("the holes' numbers are not shown at first");
  await page.uncheck("#numbers");
  if (await page.locator(".board.numbers").count()) fail("the holes' numbers cannot be hidden");
  await page.check("#numbers");
  let marked = 0;
  const actions = await playUntil(page, async () => {
    marked = Math.max(marked, await page.locator(".board .arrow.last").count());
    return false;
  });
  if (!marked) fail("the last move is never marked on the board");
  const result = await page.locator("#turn").textContent();
  if (!/won/.test(result)) fail("no winner shown: " + result);
  /* why it ended: the quick mode ends when a plinth reaches the other
     side's home row, or all of one side's are in the Duat */
  if (!/home row|Duat/.test(result)) fail("the end does not say why: " + result);
  /* the move list scrolled to its end shows its top line whole */
  const cut = await page.evaluate(() => {
    const log = document.getElementById("log"), top = log.getBoundingClientRect().top;
    const bad = [...log.children].some(li => { const r = li.getBoundingClientRect(); return r.top < top - 1 && r.bottom > top + 1; });
    return bad ? JSON.stringify({ top, height: log.style.height, client: [log.clientWidth, log.clientHeight], scroll: [log.scrollTop, log.scrollHeight],
                                  page: [document.documentElement.clientWidth, document.documentElement.scrollHeight, innerHeight],
                                  items: [...log.children].map(li => { const r = li.getBoundingClientRect(); return [Math.round(r.top * 10) / 10, Math.round(r.height * 10) / 10]; }) }) : "";
  });
  if (cut) fail("the move list's top line is cut: " + cut);
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
  /* the review in plain words: no formula first, no "Lions's" */
  const reviewText = await page.locator("#review").textContent();
  if (/s's\b/.test(reviewText)) fail("the review says " + reviewText.match(/\S+s's\b/)[0]);
  if (/e\^/.test(await page.locator("#accuracy-note").textContent())) fail("the review opens with a formula");
  await page.locator("#review .review-list li button").nth(Math.floor(graded / 2)).click();
  /* the position of the decision picked is on the screen */
  const seen = await page.evaluate(() => { const r = document.querySelector(".replay .board").getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; });
  if (!seen) fail("a decision picked shows its position off the screen");
  await page.screenshot({ path: join(artifacts, "review-picked-390x844.png") });
  const said = await page.locator("#replay-words").textContent();
  if (!/^Move \d+, \w+.*: played .*(the best was|the best move|the only move)/.test(said)) fail("a picked decision is not explained: " + said);
  if (/best \(best/.test(await page.locator("#review").textContent())) fail("the review says best (best ...)");
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
    /* a piece picked, then a hole it cannot reach: said in plain words,
       with where it can go (no notation, no "no value left (5)") */
    await page.locator(".source").first().click();
    await settled(page);
    await page.locator(".board .picked").first().waitFor();
    const why = await waitFor(async () => {
      await page.locator('[data-cell="30"]').click({ force: true });
      const m = (await page.locator("#msg").textContent()).trim();
      return m !== msg && m.length > 8 ? m : null;
    }, "the explanation of a hole out of reach");
    if (/write |no value left \(|FROM-/.test(why) || !/can go to/.test(why)) fail("a hole out of reach is explained as: " + why);
    console.log(`ok - an illegal choice is explained: "${msg}"; "${why}"`);
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
  /* this server listens on the loopback address (GET /api/server): the
     page says the link opens on this computer only */
  await waitFor(async () => (await a.locator("#loopback-note").count()) > 0, "the loopback note under the invitation");
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

/* A server that others can reach (GET /api/server answered as for
 * --host 0.0.0.0): the invitation carries the address it names, and no
 * loopback note. */
async function inviteAddress(browser, base) {
  const ctx = await browser.newContext();
  const port = new URL(base).port;
  await ctx.route("**/api/server", r => r.fulfill({ status: 200, contentType: "application/json",
    body: JSON.stringify({ host: "0.0.0.0", port: +port, loopback: false, urls: [`http://192.0.2.7:${port}/`], analysis: {} }) }));
  const page = await ctx.newPage();
  const bad = watchErrors(page);
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "senet-kendall");
  await page.selectOption("#opponent", "human");
  await page.click("#start");
  await waitFor(async () => (await page.locator("#invite").textContent()).startsWith("http://192.0.2.7:"), "the invitation with the address others can reach");
  const link = (await page.locator("#invite").textContent()).trim();
  if (!link.startsWith(`http://192.0.2.7:${port}/#/join/`)) fail("the invitation: " + link);
  if (await page.locator("#loopback-note").count()) fail("a loopback note for a server others can reach");
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - the invitation uses the address the server names: ${link.replace(/[0-9a-f]{32}$/, "TOKEN")}`);
  await ctx.close();
}

const SIZES = [[1366, 800], [1920, 1080], [390, 844]];
async function boards(browser, base) {
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  let n = 0;
  for (const [w, hgt] of SIZES) {
    const ctx = await browser.newContext({ viewport: { width: w, height: hgt }, isMobile: w < 500, hasTouch: w < 500 });
    const page = await ctx.newPage();
    for (const r of rulesets) {
      const g = await (await fetch(base + "/api/games", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ruleset: r.id, players: ["human", "human"] }),
      })).json();
      await page.goto("about:blank");
      /* the seat to act: its throw control shows */
      await page.goto(`${base}/#/join/${g.id}/${g.tokens[String(g.state.to)]}`);
      await page.locator(".board").waitFor();
      await still(page);
      const holes = await page.locator(".board .hole").count();
      if (holes !== r.board_cells) fail(`${r.id}: ${holes} holes drawn, ${r.board_cells} on the board`);
      const m = await page.evaluate(() => {
        const b = document.querySelector(".board").getBoundingClientRect(), out = [];
        for (const e of document.querySelectorAll(".board .hole")) {
          const q = e.querySelector(".cellbg").getBoundingClientRect();
          if (q.left < 0 || q.top < 0 || q.right > innerWidth || q.bottom > innerHeight ||
              q.left < b.left - .5 || q.right > b.right + .5 || q.top < b.top - .5 || q.bottom > b.bottom + .5) out.push(e.dataset.cell);
        }
        const t = document.getElementById("throw") || document.querySelector(".sticks");
        const tb = t && t.getBoundingClientRect();
        return { out, scroll: document.documentElement.scrollWidth, throwBottom: tb ? tb.bottom : null, throwRight: tb ? tb.right : null };
      });
      if (m.out.length) fail(`${r.id} at ${w}x${hgt}: holes ${m.out.join(",")} lie outside the screen or the board`);
      if (m.scroll > w) fail(`${r.id} at ${w}x${hgt}: the page is ${m.scroll} px wide`);
      if (m.throwBottom === null || m.throwBottom > hgt || m.throwRight > w) fail(`${r.id} at ${w}x${hgt}: the throw is not on the first screen (${m.throwBottom})`);
      await page.screenshot({ path: join(artifacts, `board-${r.id}-${w}x${hgt}.png`) });
      n++;
    }
    await ctx.close();
  }
  console.log(`ok - ${n} boards (${rulesets.length} rulesets at ${SIZES.map(s => s.join("x")).join(", ")}) whole on the first screen, no sideways scroll; screenshots in tests/e2e/artifacts/`);
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

/* Console errors and failed requests of a page, kept for a check. */
function watchErrors(page) {
  const bad = [];
  page.on("pageerror", e => bad.push("page error: " + e.message));
  page.on("console", m => { if (m.type() === "error") bad.push("console: " + m.text()); });
  page.on("requestfailed", r => { if (!/\/events$/.test(r.url())) bad.push(`failed: ${r.url()} ${r.failure() && r.failure().errorText}`); });
  page.on("response", r => { if (r.status() >= 400) bad.push(`${r.status()}: ${r.url()}`); });
  return bad;
}

async function newGame(base, ruleset, players) {
  return (await fetch(base + "/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset, players }),
  })).json();
}
async function post(base, id, what, token, body = {}) {
  const r = await fetch(`${base}/api/games/${id}/${what}`, {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token }, body: JSON.stringify(body),
  });
  return { status: r.status, data: await r.json() };
}

/* Senet against level 5, moves shown as a player sees them: after a turn
 * of several computer moves each was drawn gliding, in order, and the
 * last move's arrow stays until the player moves; hints drawn on the
 * board with their chances, and a click on the best plays it. */
async function senetLevel5(browser, base) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  await ctx.addInitScript(() => localStorage.setItem("kemet.motion", "normal"));
  const page = await ctx.newPage();
  const bad = watchErrors(page);
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "senet-kendall");
  await page.selectOption("#opponent", "computer:5");
  await page.click("#start");
  await page.locator(".board").waitFor();
  /* every board drawn: its ply, and whether a piece glides on it */
  await page.evaluate(() => {
    window.drawn = [];
    new MutationObserver(() => {
      const b = document.querySelector(".board");
      if (!b) return;
      const k = b.dataset.ply + (b.dataset.anim ? "a" : "");
      if (drawn[drawn.length - 1] !== k) drawn.push(k);
    }).observe(document.getElementById("app"), { childList: true, subtree: true });
  });
  let seen = null, hinted = false, throwHint = false;
  for (let i = 0; i < 400 && !(seen && hinted); i++) {
    const t = await turn(page);
    if (t === "over") break;
    if (t !== "mine") { await page.waitForTimeout(100); continue; }
    const st = await page.evaluate(() => ({ ply: +document.querySelector(".board").dataset.ply, drawn: [...drawn] }));
    /* the computer's turn just shown: its plies since this side's last */
    if (!seen) {
      const mine = await page.evaluate(() => window.lastMine || 0);
      const theirs = [];
      for (let p = mine + 1; p <= st.ply; p++) theirs.push(p);
      if (theirs.length >= 2) {
        const order = st.drawn.filter(k => k.endsWith("a")).map(k => parseInt(k));
        const at = order.indexOf(theirs[0]);
        const got = at < 0 ? [] : order.slice(at, at + theirs.length);
        if (got.join() !== theirs.join()) fail(`the computer's plies ${theirs.join(",")} were drawn gliding as ${order.join(",")}`);
        seen = theirs;
        const arrow = await page.locator(".board .arrow.last").count();
        if (!arrow) fail("no arrow for the last move after the computer's turn");
        await page.screenshot({ path: join(artifacts, "senet-level5-after-computer.png") });
      }
    }
    if (await page.locator("#throw").count()) {
      if (!throwHint) {
        await page.click("#hint");
        const said = await page.locator("#hints").textContent();
        if (!/Your chance of winning now: \d+\.\d%/.test(said)) fail("before the throw the hint says: " + said);
        throwHint = true;
      }
      const lastBefore = await page.locator(".board .arrow.last title").textContent().catch(() => null);
      const plyBefore = await page.evaluate(() => document.querySelector(".board").dataset.ply);
      await page.click("#throw");
      await still(page);
      /* (a throw that cannot be used passes, and the computer may move) */
      const lastAfter = await page.locator(".board .arrow.last title").textContent().catch(() => null);
      const plyAfter = await page.evaluate(() => document.querySelector(".board").dataset.ply);
      if (lastBefore && plyAfter === plyBefore && lastAfter !== lastBefore) fail(`the last move's arrow changed with the throw: ${lastBefore} / ${lastAfter}`);
      continue;
    }
    if (!(await page.locator(".source").count())) continue;
    if (seen && !hinted) {
      await page.click("#hint");
      await page.locator("#hints li").first().waitFor();
      await page.locator(".board .labels .chip").first().waitFor();
      /* on the board: the best moves' arrows, each labelled with its rank
         in the list, readable and over no piece */
      const bt = await boardText(page);
      const chips = bt.labels.filter(l => /chip/.test(l.kind));
      if (!chips.length || !chips.every((c, i) => /^[1-3]$/.test(c.text))) fail("hint labels: " + chips.map(c => c.text).join(" | "));
      for (const l of bt.labels) {
        if (l.px < 12) fail(`a hint's label "${l.text}" is ${l.px.toFixed(1)} px`);
        if (l.over) fail(`a hint's label "${l.text}" covers a piece`);
      }
      /* in the list: each chance told apart from the next */
      const rows = await page.locator("#hints li .chance").allTextContents();
      const diffs = await page.locator("#hints li .diff").allTextContents();
      if (!rows.length || !rows.every(c => /^\d+\.\d{1,3}%( exact)?$/.test(c))) fail("hint chances: " + rows.join(" | "));
      if (rows.some((c, i) => i && c === rows[i - 1] && diffs[i] !== "as good")) fail("two hints read the same: " + rows.join(" | "));
      const hinted1 = await page.evaluate(() => [...document.querySelectorAll("#hints li")].map(li => li.querySelector(".hintmove").dataset.move));
      const bestMove = hinted1[0];
      await page.screenshot({ path: join(artifacts, "senet-level5-hints.png") });
      /* a click on a piece under the arrows picks that piece: it never
         plays a hinted move (the best hint's arrow starts on its piece) */
      const plies = await page.evaluate(() => +document.querySelector(".board").dataset.ply);
      const from = bestMove.split("-")[0];
      const cell = await page.evaluate(f => {
        const g = document.querySelectorAll(".board .hole.source");
        return [...g].find(e => e.querySelector("title").textContent.startsWith(`square ${f}:`))?.dataset.cell;
      }, from);
      if (!cell) fail(`the best hint's piece (on ${from}) is not highlighted`);
      {
        const box = await page.locator(`.board [data-cell="${cell}"] .cellbg`).boundingBox();
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await settled(page);
        const after = await page.evaluate(() => +document.querySelector(".board").dataset.ply);
        if (after !== plies) fail(`a click on the piece on ${from} with hints shown played a move`);
        if (!(await page.locator(".board .picked").count())) fail(`a click on the piece on ${from} with hints shown did not pick it`);
        await page.keyboard.press("Escape");
      }
      /* the best hint played from the list */
      await page.evaluate(p => { window.lastMine = p + 1; }, plies);
      await page.locator("#hints li.best .hintmove").click();
      await waitFor(async () => +(await page.evaluate(() => document.querySelector(".board").dataset.ply)) > plies, "the hinted move to be played");
      await still(page);
      const log = await page.locator("#log").textContent();
      if (!log.includes(`White moves ${bestMove}`)) fail(`the best hint ${bestMove} was not played: ${log.slice(-200)}`);
      hinted = true;
      continue;
    }
    const plies = await page.evaluate(() => +document.querySelector(".board").dataset.ply);
    await page.evaluate(p => { window.lastMine = p + 1; }, plies);
    await playOnce(page);
    /* the player's own move is now the last one drawn */
    await still(page);
    const t2 = await page.locator(".board .arrow.last title").textContent().catch(() => "");
    if (!/White/.test(t2) && (await page.evaluate(() => +document.querySelector(".board").dataset.ply)) === plies + 1) fail("after the player's move the arrow is " + t2);
  }
  if (!seen) fail("no computer turn of several moves was seen");
  if (!hinted) fail("no hint was played");
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - Senet against level 5: the computer's plies ${seen.join(", ")} glided in order, the last move's arrow kept through the throw; hints drawn ranked (labels of 12 px or more over no piece), a click on a piece under them picks it, the best played from the list`);
  await ctx.close();
}

/* docs/review.md's accuracy: the mean of 103.1668 e^(-0.04354 L) - 3.1669
 * (within 0-100) over a side's real choices, L the points lost. */
function accuracy(decisions, player) {
  const real = decisions.filter(d => d.player === player && d.choices > 1);
  const one = l => Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * 100 * l) - 3.1669));
  return real.length ? real.reduce((a, d) => a + one(d.loss), 0) / real.length : 100;
}

/* A newcomer on a phone (390x844): what must be read is on the first
 * screen. Lions & Jackals: the hints (their list and their labels on the
 * board) and the explanation of a tap on an empty hole; Dogs & Jackals,
 * every piece in hand: the piece to bring on is marked under the board
 * and the turn says so; Senet (Kendall): the square numbers and the
 * board's signs readable, no box of pieces in hand. */
async function phone(browser, base) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const bad = watchErrors(page);
  const start = async (rs) => {
    await page.goto(base + "/");
    await page.selectOption("#ruleset", rs);
    await page.selectOption("#opponent", "computer:1");
    await page.click("#start");
    await page.locator(".board").waitFor();
  };
  /* the player's turn with a piece to move (throwing as often as needed) */
  const toMove = async (ok = async () => (await page.locator(".source").count()) > 0) => {
    for (let i = 0; i < 200; i++) {
      const t = await turn(page);
      if (t === "over") fail("the game ended first");
      if (t === "mine" && (await page.locator("#throw").count())) { await page.click("#throw"); await still(page); continue; }
      if (t === "mine" && await ok()) return;
      if (t === "mine" && (await page.locator(".source, .zone.source").count())) {
        await playOnce(page);
        if (await page.locator(".zone.source").count()) { await page.locator(".zone.source").click(); await settled(page); await page.locator(".target").first().click(); }
        await still(page);
        continue;
      }
      await page.waitForTimeout(100);
    }
    fail("no turn to move came");
  };
  const onScreen = async sel => page.evaluate(s => [...document.querySelectorAll(s)].every(e => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }) && document.querySelectorAll(s).length > 0, sel);

  await start("lions-jackals");
  await toMove();
  await page.click("#hint");
  await page.locator("#hints li").first().waitFor();
  await still(page);
  if (!(await onScreen("#hints li"))) fail("the hint list is not on the first screen of a phone");
  const bt = await boardText(page);
  if (!bt.labels.length) fail("no hint drawn on the board");
  for (const l of bt.labels) {
    if (l.px < 12) fail(`a hint's label "${l.text}" is ${l.px.toFixed(1)} px on a phone`);
    if (l.over) fail(`a hint's label "${l.text}" covers a piece on a phone`);
  }
  await page.screenshot({ path: join(artifacts, "phone-hints-lions-jackals.png") });
  /* a tap on an empty hole far from any piece that may move */
  const empty = await page.evaluate(() => {
    const src = [...document.querySelectorAll(".board .hole.source .cellbg")].map(e => e.getBoundingClientRect());
    let best = null, far = 0;
    for (const g of document.querySelectorAll(".board .hole")) {
      if (g.querySelector(".piece") || g.classList.contains("source")) continue;
      const r = g.querySelector(".cellbg").getBoundingClientRect();
      const d = Math.min(...src.map(q => Math.hypot(q.x - r.x, q.y - r.y)));
      if (d > far) { far = d; best = { x: r.x + r.width / 2, y: r.y + r.height / 2 }; }
    }
    return best;
  });
  await page.mouse.click(empty.x, empty.y);
  await waitFor(async () => (await page.locator("#msg").textContent()).trim().length > 8, "the explanation of the tap");
  if (!(await onScreen("#msg"))) fail("on a phone the explanation of a tap is below the first screen: " + (await page.locator("#msg").textContent()));
  await page.screenshot({ path: join(artifacts, "phone-illegal-lions-jackals.png") });

  await start("dogs-jackals");
  await toMove(async () => (await page.locator(".zone.source").count()) > 0);
  const said = await page.locator("#turn").textContent();
  if (!/in hand" under the board/.test(said)) fail("entering a piece, the turn says: " + said);
  if (!(await onScreen(".zone.source"))) fail("the piece to bring on is not marked on the first screen");
  await page.screenshot({ path: join(artifacts, "phone-enter-dogs-jackals.png") });
  await page.locator(".zone.source").click();
  await settled(page);
  if (!(await page.locator(".board .target").count())) fail("a piece picked from the hand shows no hole to go to");

  await start("senet-kendall");
  await still(page);
  if (await page.locator("#zones").count()) fail("Kendall's Senet shows boxes of pieces in hand or borne off: " + (await page.locator("#zones").textContent()));
  if (!(await page.locator(".board.numbers").count())) fail("the square numbers are not shown by default");
  const st = await boardText(page);
  if (Math.min(...st.marks) < 16) fail(`the board's signs are ${Math.min(...st.marks).toFixed(1)} px on a phone`);
  if (Math.min(...st.nums) < 10) fail(`the square numbers are ${Math.min(...st.nums).toFixed(1)} px on a phone`);
  /* each sign (☥, nfr, ...) under its square's number, their ink apart:
     the sign's ink (measured on a canvas in its font) begins below the
     number's baseline */
  const crowded = await page.evaluate(() => {
    const svg = document.querySelector(".board"), m = svg.getScreenCTM(), ctx = document.createElement("canvas").getContext("2d"), out = [];
    const screenY = t => new DOMPoint(+t.getAttribute("x"), +t.getAttribute("y")).matrixTransform(m).y;
    for (const t of svg.querySelectorAll(".hole text.mark")) {
      const n = t.parentNode.querySelector("text.num"), cs = getComputedStyle(t), fs = +t.getAttribute("font-size") * Math.hypot(m.a, m.b);
      ctx.font = `${cs.fontWeight} ${fs}px ${cs.fontFamily}`;
      const top = screenY(t) - ctx.measureText(t.textContent).actualBoundingBoxAscent, base = screenY(n);
      if (top < base + 1) out.push(`${t.textContent} on ${n.textContent} (its ink ${(base - top).toFixed(1)} px into the number)`);
    }
    return out;
  });
  if (crowded.length) fail("on a phone the signs crowd the square numbers: " + crowded.join(", "));
  if (!/t throws/.test(await page.locator("#keys").textContent())) fail("the key t is not mentioned");
  await page.screenshot({ path: join(artifacts, "phone-senet-kendall.png") });
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log("ok - a phone: the hints and a tap's explanation on the first screen, the hint labels readable over no piece; the piece to enter marked; Senet's numbers and signs readable");
  await ctx.close();
}

/* Bell's Senet, where a piece hit leaves the game for good: once one is
 * hit, each side's pieces captured are counted beside its score; the
 * legend says what the crosses on squares 26-29 are; a move typed that is
 * not legal, or not a move, is explained as the server explains it with
 * no request refused and nothing in the console, and a legal one plays. */
async function bellCaptured(browser, base) {
  const rs = (await (await fetch(base + "/api/rulesets")).json()).rulesets.find(r => r.id === "senet-bell");
  const captured = (st, p) => rs.pieces - st.cells.reduce((a, c) => a + c[p - 1], 0) - st.hand[p - 1] - st.gone[p - 1];
  /* a game between two people played at random until a piece is hit, at
     a turn with a move to make */
  let g = null, st = null;
  for (let tries = 0; tries < 30 && !g; tries++) {
    const n = await newGame(base, "senet-bell", ["human", "human"]);
    let s = n.state;
    for (let i = 0; i < 600 && s.status === "playing"; i++) {
      const tok = n.tokens[String(s.to)];
      if (s.phase === "throw") { s = (await post(base, n.id, "throw", tok)).data; continue; }
      if (captured(s, 1) + captured(s, 2) > 0) { g = n; st = s; break; }
      s = (await post(base, n.id, "move", tok, { move: s.moves[Math.floor(Math.random() * s.moves.length)] })).data;
    }
  }
  if (!g) fail("no piece of Bell's Senet was hit in 30 random games");
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const bad = watchErrors(page);
  await page.goto(`${base}/#/join/${g.id}/${g.tokens[String(st.to)]}`);
  await page.locator(".board").waitFor();
  await still(page);
  const zones = (await page.locator("#zones .zone").allTextContents()).join(" · ");
  for (const p of [1, 2]) {
    const want = `${rs.players[p - 1]} captured: ${captured(st, p)}`;
    if (!zones.includes(want)) fail(`after a hit the page does not say "${want}" (${st.position}): "${zones}"`);
  }
  if (!zones.includes(`${rs.players[0]} borne off: ${st.gone[0]}`)) fail("the captured pieces are not shown beside the score: " + zones);
  const legend = await page.locator(".legend").textContent();
  if (!/×\s*marked square: 26-29/.test(legend))
    fail("the legend does not say what the crosses are: " + legend);
  await page.screenshot({ path: join(artifacts, "bell-captured-390x844.png") });
  /* typed moves: one too long for any throw, one not written as a move,
     one off the board; each explained in the server's own words */
  const version = st.version;
  for (const typed of ["1-30", "foo", "0-31", "3-5+"]) {
    const r = await fetch(`${base}/api/games/${g.id}/explain?move=${encodeURIComponent(typed)}`);
    const d = await r.json();
    const want = r.ok ? d.reason : d.error;
    if (!want) fail(`the server takes ${typed} as legal`);
    await page.fill("#typed", typed);
    await page.click("form.typed button[type=submit]");
    await waitFor(async () => (await page.locator("#msg").textContent()).trim() === want, `the explanation of ${typed}: "${want}"`, 10000);
    await settled(page);
  }
  await page.screenshot({ path: join(artifacts, "bell-typed-illegal-390x844.png") });
  const now = await (await fetch(`${base}/api/games/${g.id}`)).json();
  if (now.version !== version) fail(`a typed illegal move changed the game (version ${version} -> ${now.version})`);
  if (bad.length) fail("a typed illegal move: " + bad.join("; "));
  /* and a legal one is played */
  await page.fill("#typed", st.moves[0]);
  await page.click("form.typed button[type=submit]");
  await waitFor(async () => (await (await fetch(`${base}/api/games/${g.id}`)).json()).version > version, "the typed legal move to be played");
  await still(page);
  if (bad.length) fail("a typed legal move: " + bad.join("; "));
  console.log(`ok - Bell's Senet: "${zones}" after a hit; the legend's "${legend.match(/marked square[^)]*\)/)[0]}"; typed moves not legal explained with no console error or refused request`);
  await ctx.close();
}

/* The holes' numbers are the squares of the side one plays, as its
 * moves, hints and messages name them: the Jackals of Lions & Jackals
 * (whose square 1 is the Lions' 30) and the Hounds of Washburne's game
 * (whose squares 31-59 run down the Jackals' side). */
async function yourSquares(browser, base) {
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  const bad = watchErrors(page);
  for (const [id, seat] of [["lions-jackals", 2], ["hounds-jackals-washburne", 1]]) {
    const players = seat === 1 ? ["human", { computer: 1 }] : [{ computer: 1 }, "human"];
    const g = await newGame(base, id, players);
    await page.goto(`${base}/#/join/${g.id}/${g.tokens[String(seat)]}`);
    const title = rulesets.find(r => r.id === id).title;
    await page.locator(`.board.numbers[aria-label="${title} board"]`).waitFor();
    const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".board .hole")].map(e => [e.dataset.cell, e.querySelector("text.num").textContent])));
    const path = rulesets.find(r => r.id === id).paths[seat - 1];
    const wrong = [];
    for (let q = 1; q < path.length; q++) if (/^\d+$/.test(shown[path[q]]) && shown[path[q]] !== String(q)) wrong.push(`square ${q} shown as ${shown[path[q]]}`);
    if (wrong.length) fail(`${id}, playing seat ${seat}: ${wrong.slice(0, 4).join(", ")}`);
    await page.screenshot({ path: join(artifacts, `your-squares-${id}.png`) });
  }
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log("ok - the holes are numbered by the squares of the side one plays (the Jackals of Lions & Jackals, the Hounds of Washburne's game)");
  await page.close();
}

/* A game resigned after some moves: its replay says so, and its review
 * shows every decision and the resignation, the accuracy as documented. */
async function resignedReview(browser, base) {
  const g = await newGame(base, "senet-kendall", ["human", { computer: 1 }]);
  const tok = g.tokens["1"];
  for (let i = 0; i < 200; i++) {
    const st = await (await fetch(`${base}/api/games/${g.id}`, { headers: { Authorization: "Bearer " + tok } })).json();
    if (st.plies >= 16) break;
    if (st.to !== 1) { await new Promise(r => setTimeout(r, 50)); continue; }
    if (st.phase === "throw") await post(base, g.id, "throw", tok);
    else await post(base, g.id, "move", tok, { move: st.moves[(st.plies * 7) % st.moves.length] });
  }
  const r = await post(base, g.id, "resign", tok);
  if (r.status !== 200) fail("resigning: " + JSON.stringify(r.data));
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  const bad = watchErrors(page);
  await page.goto(`${base}/#/replay/${g.id}`);
  const ending = await page.locator("#ending").textContent();
  if (!/White resigned after \d+ moves: Black won\./.test(ending)) fail("the replay's ending: " + ending);
  await page.click("#review-button");
  await page.locator("#review .review-list li").first().waitFor({ timeout: 60000 });
  const review = await (await fetch(`${base}/api/games/${g.id}/review`)).json();
  const shown = +(await page.locator("#review td.accuracy").first().getAttribute("data-accuracy"));
  const want = accuracy(review.decisions, 1);
  if (Math.abs(shown - want) > 0.006) fail(`White's accuracy shown ${shown}, by the formula ${want.toFixed(3)}`);
  if (Math.abs(shown - 100 * review.players[0].accuracy) > 0.006) fail(`White's accuracy shown ${shown}, the server's ${review.players[0].accuracy}`);
  if (!review.end || review.end.resigned !== 1 || review.end.winner !== 2) fail("the review's end: " + JSON.stringify(review.end));
  const resigned = await page.locator("#review li.resigned").textContent().catch(() => "");
  if (!resigned.includes(review.end.words)) fail("the review does not show the resignation: " + resigned);
  if (!/lichess/.test(await page.locator("#accuracy-note").textContent())) fail("the accuracy is not explained");
  /* the graph: a click shows that decision's position (the graph is
     below the fold at this size: brought into view first, as a reader
     scrolls to it, for a click outside the screen reaches nothing) */
  await page.locator("#review svg.graph").scrollIntoViewIfNeeded();
  const box = await page.locator("#review svg.graph").boundingBox();
  await page.mouse.click(box.x + box.width * 0.6, box.y + box.height / 2);
  const said = await page.locator("#replay-words").textContent();
  if (!/^Move \d+, /.test(said)) fail("a click on the graph shows: " + said);
  await page.screenshot({ path: join(artifacts, "review-resigned.png"), fullPage: true });
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - a resigned game reviewed: "${ending.trim()}", White's accuracy ${shown}% as the formula gives`);
  await page.close();
}

/* A rematch between two people: offered by one, accepted by the other,
 * both pages in the same new game. */
async function rematchTwo(browser, base) {
  const g = await newGame(base, "chien-chacal", ["human", "human"]);
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  const bad = [...[a, b].map(watchErrors)];
  await a.goto(`${base}/#/join/${g.id}/${g.tokens["1"]}`);
  await b.goto(`${base}/#/join/${g.id}/${g.tokens["2"]}`);
  await a.locator("#turn").waitFor();
  await b.locator("#turn").waitFor();
  await post(base, g.id, "resign", g.tokens["2"]);
  await a.locator("#rematch").waitFor();
  await b.locator("#rematch").waitFor();
  await a.click("#rematch");
  await waitFor(async () => /offers a rematch/.test(await b.locator("#msg").textContent()), "the offer to reach the other page");
  if (!/Accept/.test(await b.locator("#rematch").textContent())) fail("the other page offers no acceptance");
  await a.screenshot({ path: join(artifacts, "rematch-offered-a.png"), fullPage: true });
  await b.screenshot({ path: join(artifacts, "rematch-offered-b.png"), fullPage: true });
  await b.click("#rematch");
  await waitFor(async () => a.url() !== `${base}/#/game/${g.id}` && b.url() !== `${base}/#/game/${g.id}` && a.url().includes("#/game/"), "both pages to move to the rematch");
  if (a.url() !== b.url()) fail(`the rematch: ${a.url()} / ${b.url()}`);
  await a.locator("#turn").waitFor();
  await b.locator("#turn").waitFor();
  const ta = await a.locator("#turn").textContent(), tb = await b.locator("#turn").textContent();
  if (/watching/.test(ta + tb)) fail(`a player watches the rematch: ${ta} / ${tb}`);
  await a.screenshot({ path: join(artifacts, "rematch-a.png"), fullPage: true });
  await b.screenshot({ path: join(artifacts, "rematch-b.png"), fullPage: true });
  const errs = bad.flat();
  if (errs.length) fail("errors: " + errs.join("; "));
  console.log(`ok - a rematch offered and accepted: both pages in ${a.url().split("/").pop()}`);
  await a.context().close();
  await b.context().close();
}

/* Steps written FROM-END-TO (a count onto a line's or river's end, carried
 * on) read as the page shows them: words and arrows end on TO, through
 * END; a plain count where a river also leads (7-9-9) is "by count". */
async function stepNotation(browser, base) {
  const page = await browser.newPage();
  const bad = watchErrors(page);
  await page.goto(base + "/");
  await page.locator("#start").waitFor();
  const got = await page.evaluate(async () => {
    const b = await import("/board.js");
    const rs = (await (await fetch("/api/rulesets")).json()).rulesets.find(r => r.id === "lions-jackals");
    const ends = m => b.moveSteps(rs, 1, m, []).map(x => [x.from, x.via, x.to, x.points.length]);
    return {words: ["7-13-9", "7-9-9", "7-9", "in-3+3-13-9", "8-8"].map(m => b.moveWords(rs, m)),
            river: ends("7-13-9"), plain: ends("7-9-9"), two: ends("in-3+3-13-9")};
  });
  const want = ["7 → 13, carried on to 9", "7 → 9 by count", "7 → 9", "a new piece onto 3, then 3 → 13, carried on to 9", "8 → carried back to 8"];
  if (JSON.stringify(got.words) !== JSON.stringify(want)) fail("step words: " + JSON.stringify(got.words));
  const [f, via, to, n] = got.river[0];
  if (f !== "7" || via !== "13" || to !== "9" || n !== 8) fail("the river step's arrow: " + JSON.stringify(got.river));
  if (got.plain[0][2] !== "9" || got.plain[0][3] !== 3) fail("the plain count's arrow: " + JSON.stringify(got.plain));
  if (got.two.length !== 2 || got.two[1][2] !== "9") fail("two steps: " + JSON.stringify(got.two));
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - steps written FROM-END-TO: "${got.words[0]}", "${got.words[1]}"; the arrow of 7-13-9 runs 7..13 then to 9`);
  await page.close();
}

/* A turn of several steps entered one step at a time: after a step the
 * board shows the piece where the step took it (Lions & Jackals against
 * the computer). */
async function stepBoard(browser, base) {
  const page = await browser.newPage();
  const bad = watchErrors(page);
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "lions-jackals");
  await page.selectOption("#opponent", "computer:1");
  await page.click("#start");
  await page.locator(".board").waitFor();
  let seen = 0;
  for (let i = 0; i < 200 && !seen; i++) {
    const t = await turn(page);
    if (t === "over") break;
    if (t !== "mine") { await page.waitForTimeout(100); continue; }
    if (await page.locator("#throw").count()) { await playOnce(page, false); continue; }
    const src = page.locator(".board .source").first();
    if (!(await src.count())) { await settled(page); continue; }
    await src.click();
    await settled(page);
    const dst = page.locator(".board .target").first();
    if (!(await dst.count())) break;
    const cell = await dst.getAttribute("data-cell");
    await dst.click();
    await settled(page);
    if (await page.locator("button:has-text('Undo step')").count()) {
      /* mid-turn: the piece stands on the hole its step reached */
      await waitFor(async () => (await page.locator(`.board .hole[data-cell="${cell}"] circle.piece`).count()) > 0,
                    `the piece drawn on hole ${cell} after its step`);
      seen++;
    }
  }
  if (!seen) fail("no turn of several steps was entered step by step");
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - a turn entered step by step: after a step its piece is drawn where the step took it`);
  await page.close();
}

/* Tab: a turn's throws first, then its values one step at a time with
 * no new throw. After a step with values left the page offers no throw,
 * shows the values as still to play and says so; the computer's turn
 * (level 1) comes after the last value. */
async function tabStillToPlay(browser, base) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const bad = watchErrors(page);
  await page.goto(base + "/");
  await page.selectOption("#ruleset", "tab-58");
  await page.selectOption("#opponent", "computer:1");
  await page.click("#start");
  await page.locator(".board").waitFor();
  let said = "";
  for (let i = 0; i < 400 && !said; i++) {
    const t = await turn(page);
    if (t === "over") break;
    if (t !== "mine") { await page.waitForTimeout(100); continue; }
    if ((await playOnce(page, false)) !== "move") continue;
    await settled(page);
    if (!(await page.locator(".sticks.kept").count()) || (await turn(page)) !== "mine") continue;
    said = await page.locator("#turn").textContent();
    const v = await page.locator(".sticks.kept .die").allTextContents();
    const want = `you have ${v.length > 1 ? v.slice(0, -1).join(", ") + " and " + v.at(-1) : v[0]} still to play`;
    if (!v.length || !said.includes(want)) fail(`after a step with ${v} left the turn line says: ${said}`);
    if (await page.locator("#throw").count()) fail("a throw is offered while values are still to play");
    const box = await page.locator(".sticks.kept").textContent();
    if (!/still to play/.test(box)) fail(`the throw's box shows: ${box}`);
    await page.screenshot({ path: join(artifacts, "tab-still-to-play-390x844.png") });
  }
  if (!said) fail("no turn of Tab left values to play after a step");
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - Tab: after a step the values left are shown, no throw offered: "${said}"`);
  await page.close();
}

/* Jéquier's opening decides who plays black: a game started from the
 * home page against the computer seats the person where the opening says
 * (black in about 57% of games). Until one seats the person as black (at
 * most 12 games), each page must show the person's turn or the
 * computer's, never "watching", with "— you" on the person's seat. */
async function jequierSeat(browser, base) {
  const page = await browser.newPage();
  const bad = watchErrors(page);
  let black = 0, games = 0;
  for (; games < 12 && !black; games++) {
    await page.goto(base + "/");
    await page.selectOption("#ruleset", "senet-jequier");
    await page.selectOption("#opponent", "computer:1");
    await page.click("#start");
    await page.locator(".board").waitFor();
    await settled(page);
    const said = await page.locator("#turn").textContent();
    if (/watching/.test(said)) fail(`game ${games + 1}: the person is told "${said}"`);
    const legend = await page.locator(".legend").textContent();
    if (/Black \(player 2\) — you/.test(legend)) black++;
    else if (!/White \(player 1\) — you/.test(legend)) fail(`game ${games + 1}: the legend names no seat as yours: ${legend}`);
  }
  if (!black) fail(`in ${games} games the person never played black`);
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - Jéquier's Senet: the opening seated the person as black in game ${games} of the page's games, with "— you" on that seat`);
  await page.close();
}

/* A whole game of every ruleset against the computer, at a phone's size
 * and a desktop's in turn: no console error, no failed request. */
async function wholeGames(browser, base) {
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  const done = [], errors = [], ends = [];
  for (const [i, r] of rulesets.entries()) {
    const vp = i % 2 ? { width: 390, height: 844 } : { width: 1366, height: 800 };
    const page = await browser.newPage({ viewport: vp });
    const bad = watchErrors(page);
    await page.goto(base + "/");
    await page.selectOption("#ruleset", r.id);
    await page.selectOption("#opponent", "computer:2");
    await page.click("#start");
    await page.locator(".board").waitFor();
    const actions = await playUntil(page, async () => false, 7);
    const result = await page.locator("#turn").textContent();
    /* a draw only where the ruleset's own text has one (the extended
       58 holes, rule 17: nothing can ever move; Bell's equal scores) */
    const drawn = /drawn/.test(result) && /\bdraw(n)?\b/.test(r.text);
    if (!/won/.test(result) && !drawn) fail(`${r.id}: no winner shown: ${result}`);
    /* and why: a sentence after who won */
    if (!drawn && !/(won\.|won!|lost\.) \S/.test(result)) errors.push(`${r.id}: the end does not say why: ${result}`);
    ends.push(`${r.id}: ${result.replace(/^.*?(won\.|won!|lost\.) /, "")}`);
    await page.screenshot({ path: join(artifacts, `end-${r.id}.png`) });
    if (bad.length) errors.push(`${r.id}: ${[...new Set(bad)].join("; ")}`);
    done.push(`${r.id} ${actions}`);
    await page.close();
  }
  if (errors.length) fail(`errors over the games (actions: ${done.join(", ")}): ${errors.join(" | ")}`);
  console.log(`ok - a whole game of every ruleset, no console error or failed request (actions: ${done.join(", ")}); the ends: ${ends.join(" | ")}`);
}

/* The home page on a phone, the rules of every ruleset, a bad address. */
async function homeRulesAddress(browser, base) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const bad = watchErrors(page);
  await page.goto(base + "/");
  await page.locator("#start").waitFor();
  const text = await page.locator("main").textContent();
  if (/\bnull\b|undefined/.test(text)) fail("the home page says null or undefined");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > 390) fail(`the home page is ${width} px wide on a 390 px phone`);
  await page.screenshot({ path: join(artifacts, "home-390x844.png"), fullPage: true });
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  /* each game by author, year and character; no source file's name */
  const about = () => page.locator("#ruleset-about").textContent();
  if (!(await about()).startsWith("Timothy Kendall, 1979. Seven pieces each"))
    fail(`the home page presents Senet as "${await about()}"`);
  await page.selectOption("#ruleset", "chien-chacal");
  if (!(await about()).startsWith("A French rules sheet, author unknown, year not given."))
    fail(`the home page presents Chien et Chacal as "${await about()}"`);
  const listed = await page.locator(".rules-list li").allTextContents();
  if (listed.length !== rulesets.length || listed.some(t => !/, (\d{4}|year not given)\. \S/.test(t)) ||
      /\.txt|seed/.test(listed.join(" ")))
    fail(`the rules list: ${JSON.stringify(listed)}`);
  for (const r of rulesets) {
    await page.goto(base + "/");
    await page.locator(`.rules-list a[href="#/rules/${r.id}"]`).click();
    await page.locator("article.rules h1").waitFor();
    const parts = await page.evaluate(() => ({ h: document.querySelectorAll("article.rules h2").length, p: document.querySelectorAll(".rulestext p, .rulestext li").length,
      board: document.querySelectorAll("article.rules .board .hole").length, links: [...document.querySelectorAll("article.rules a")].map(a => a.getAttribute("href")) }));
    if (parts.h < 2 || parts.p < 1 || parts.board !== r.board_cells) fail(`${r.id}'s rules page: ${JSON.stringify(parts)}`);
    const by = await page.locator("article.rules .byline").textContent();
    if (!by.includes(r.about) || !by.includes(r.year ? String(r.year) : "year not given"))
      fail(`${r.id}'s rules page presents it as "${by}"`);
    if (parts.links.some(l => !l.startsWith("#"))) fail(`${r.id}'s rules page links outside the page: ${parts.links}`);
    if (r.id === "lions-jackals" || r.id === "senet-kendall") await page.screenshot({ path: join(artifacts, `rules-${r.id}.png`), fullPage: true });
    /* "Play" there offers that ruleset */
    if (r.id === "lions-jackals" || r.id === "dogs-jackals") {
      await page.locator("#play-it").click();
      await page.locator("#start").waitFor();
      const chosen = await page.locator("#ruleset").inputValue();
      if (chosen !== r.id) fail(`"Play" on the rules of ${r.id} offers ${chosen}`);
    }
  }
  await page.goto(base + "/#/game/0123456789abcdef");
  await page.locator("#error").waitFor();
  await page.click("#back");
  await page.locator("#start").waitFor();
  const errs = bad.filter(e => !/404: .*0123456789abcdef/.test(e) && !/status of 404/.test(e));
  if (errs.length) fail("errors: " + errs.join("; "));
  console.log(`ok - the home page fits a phone (${width} px) and presents each game by author, year and character, ${rulesets.length} rules pages with headings, lists and the board; a bad address leads back`);
  await page.close();
}

const { proc, base } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
/* the moves shown at once (the reader's choice) but where a check
   watches them being played back */
const newContext = browser.newContext.bind(browser);
browser.newContext = async o => {
  const c = await newContext(o);
  await c.addInitScript(() => { if (!localStorage.getItem("kemet.motion")) localStorage.setItem("kemet.motion", "off"); });
  return c;
};
browser.newPage = async o => (await browser.newContext(o)).newPage();
const checks = { boards, senetLevel5, phone, yourSquares, illegalChoiceExplained, takeBack, gameAgainstComputer, resignedReview, rematchTwo,
                 bellCaptured, homeRulesAddress, manyGamesOneTab, eightWatchers, twoPlayers, inviteAddress, stepNotation, stepBoard, tabStillToPlay, jequierSeat, wholeGames };
const only = process.argv.slice(2);
const failed = [];
try {
  for (const [name, fn] of Object.entries(checks)) {
    if (only.length && !only.includes(name)) continue;
    try { await fn(browser, base); }
    catch (e) { console.error(`FAIL - ${name}: ${e.message}`); failed.push(name); }
  }
} finally {
  await browser.close();
  proc.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed.length ? `${failed.length} of ${Object.keys(checks).length} checks failed: ${failed.join(", ")}` : "all checks passed");
process.exit(failed.length ? 1 : 0);
