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
      const n = svg.querySelector(`text.num[data-of="${t.parentNode.dataset.cell}"]`), cs = getComputedStyle(t), fs = +t.getAttribute("font-size") * Math.hypot(m.a, m.b);
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
    const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".board text.num")].map(e => [e.dataset.of, e.textContent])));
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
    /* Carnarvon & Carter's 8-8: a 2 onto the line 10-8, carried back to
       where it began; said with where the count went (with the throw),
       never "8 → carried back to 8" */
    const carter = (await (await fetch("/api/rulesets")).json()).rulesets.find(r => r.id === "hounds-jackals-carter");
    return {words: ["7-13-9", "7-9-9", "7-9", "in-3+3-13-9"].map(m => b.moveWords(rs, m))
                     .concat([b.moveWords(carter, "8-8", {values: [2]}), b.moveWords(carter, "8-8")]),
            river: ends("7-13-9"), plain: ends("7-9-9"), two: ends("in-3+3-13-9")};
  });
  const want = ["7 → 13, carried on to 9", "7 → 9 by count", "7 → 9", "a new piece onto 3, then 3 → 13, carried on to 9",
                "8 → 10, carried back to 8", "8, carried back to 8 by a line"];
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

/* A game between two people made through the API and played by it
 * (throws, and the move `pick(state, i)` chooses) until `stop(state, i)`;
 * its id, tokens and last state. */
async function playedTo(base, ruleset, stop, pick = (st, i) => st.moves[(i * 7) % st.moves.length]) {
  const g = await newGame(base, ruleset, ["human", "human"]);
  let st = g.state;
  for (let i = 0; i < 2000 && st.status === "playing" && !stop(st, i); i++) {
    const tok = g.tokens[String(st.to)];
    st = st.phase === "throw" ? (await post(base, g.id, "throw", tok)).data : (await post(base, g.id, "move", tok, { move: pick(st, i) })).data;
  }
  return { id: g.id, tokens: g.tokens, state: st };
}

/* The board's number on a cell, as drawn. */
const numberOn = (page, cell) => page.evaluate(c => document.querySelector(`.board text.num[data-of="${c}"]`).textContent, cell);

/* Moves in the numbers of the seat looking (it once said, in Tab, "Black moves
 * 9-11" while its arrow runs 51 to 49; Lions & Jackals' "Jackals move
 * 20-26" onto hole 5): the move list, the last move's arrow and the
 * replay write the other side's moves as the board is numbered for the
 * seat looking (player 1's for a spectator), and the legend says how the
 * holes are numbered. */
async function numbersAsSeen(browser, base) {
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  const bad = watchErrors(page);
  const said = [];
  for (const [id, seat] of [["tab-58", 1], ["lions-jackals-quick", 1], ["lions-jackals-quick", 2]]) {
    const rs = rulesets.find(r => r.id === id), other = 3 - seat;
    /* played until the other side has just made a move of plain steps
       (each FROM-TO, on the board) */
    const plain = m => m.split("+").every(x => /^\d+-\d+$/.test(x));
    let g = null;
    for (let tries = 0; tries < 10 && !(g && g.state.status === "playing"); tries++)
      g = await playedTo(base, id, st => {
        const p = st.last[st.last.length - 1];
        return st.plies > (id === "tab-58" ? 12 : 2) && st.to === seat && p && p.player === other && plain(p.move);
      });
    if (g.state.status !== "playing") fail(`${id}: the games ended first`);
    const p = g.state.last[g.state.last.length - 1], steps = p.move.split("+").map(x => x.split("-").map(Number));
    await page.goto(`${base}/#/join/${g.id}/${g.tokens[String(seat)]}`);
    await page.locator(".board .arrow.last").waitFor();
    await still(page);
    const log = (await page.locator("#log li").allTextContents()).at(-1);
    const title = await page.locator(".board .arrow.last title").textContent();
    const who = rs.players[other - 1];
    for (const [a, b] of steps) {
      const [A, B] = [await numberOn(page, rs.paths[other - 1][a]), await numberOn(page, rs.paths[other - 1][b])];
      if (!log.includes(`${who} move${who.endsWith("s") ? "" : "s"} ${A}-${B}.`)) fail(`${id}, seat ${seat}: the board shows ${A} and ${B}, the list says "${log}"`);
      if (!title.includes(`${A} → ${B}`)) fail(`${id}, seat ${seat}: the arrow from ${A} to ${B} is "${title}"`);
    }
    const cells = [rs.paths[other - 1][steps[0][0]], rs.paths[other - 1][steps[0][1]]];
    const legend = await page.locator("#numbering").textContent();
    if (!/your squares/.test(legend) || !/other end/.test(legend)) fail(`${id}: the legend says ${legend}`);
    said.push(`${id} as ${rs.players[seat - 1]}: "${log}"`);
    /* a spectator's replay: player 1's numbers */
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const watcher = await ctx.newPage();
    await watcher.goto(`${base}/#/replay/${g.id}`);
    await watcher.locator("#replay-words").waitFor();
    const [A1, B1] = [await numberOn(watcher, cells[0]), await numberOn(watcher, cells[1])];
    const words = await watcher.locator("#replay-words").textContent();
    if (!words.includes(`${A1}-${B1}.`)) fail(`${id}: the replay shows ${A1} and ${B1}, and says "${words}"`);
    /* said once (it once read "23 → 26. Lions move 23-26.") */
    if (words.includes(`${A1} → ${B1}`)) fail(`${id}: the replay says the move twice: "${words}"`);
    await ctx.close();
    await page.screenshot({ path: join(artifacts, `numbers-${id}-seat${seat}.png`) });
  }
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - moves in the numbers of the seat looking: ${said.join("; ")}`);
  await page.close();
}

/* The Sun holes of Lions & Jackals seen with the numbers shown (the ☀
 * was once drawn under the number): each has its rays round its rim,
 * beyond the hole and clear of its number, on the game page and the rules
 * page, and the legend names them. */
async function sunsSeen(browser, base) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const bad = watchErrors(page);
  const g = await newGame(base, "lions-jackals", ["human", "human"]);
  const check = async where => {
    await page.locator(".board.numbers").waitFor();
    const m = await page.evaluate(() => [...document.querySelectorAll(".board .hole")].filter(e => e.querySelector(".rays")).map(e => {
      const hole = e.querySelector(".cellbg").getBoundingClientRect(), rays = e.querySelector(".rays").getBoundingClientRect();
      const num = document.querySelector(`.board text.num[data-of="${e.dataset.cell}"]`).getBoundingClientRect();
      return { cell: e.dataset.cell, beyond: rays.width - hole.width, num: num.width > 0 && num.height > 0,
               stroke: getComputedStyle(e.querySelector(".rays")).stroke };
    }));
    if (m.length !== 4) fail(`${where}: ${m.length} Sun holes drawn with rays, not 4`);
    for (const x of m) {
      if (x.beyond < 6) fail(`${where}: the rays of hole ${x.cell} reach ${x.beyond.toFixed(1)} px beyond it`);
      if (!x.num) fail(`${where}: hole ${x.cell}'s number is not shown`);
    }
    const legend = await page.locator(".legend").first().textContent();
    if (!/Sun \(safe\): 7, 15, 16 and 24/.test(legend)) fail(`${where}: the legend says ${legend}`);
  };
  await page.goto(`${base}/#/join/${g.id}/${g.tokens["1"]}`);
  await check("the game page");
  await page.screenshot({ path: join(artifacts, "suns-game-390x844.png") });
  await page.goto(`${base}/#/rules/lions-jackals`);
  await check("the rules page");
  await page.locator("article.rules .board").screenshot({ path: join(artifacts, "suns-rules-390x844.png") });
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log("ok - Lions & Jackals' Sun holes drawn with rays beside their numbers (game and rules pages), named in the legend");
  await page.close();
}

/* A hint asked in the middle of a turn (it once listed nothing: Lions & Jackals, throw 2,
 * 4, 5, piece 1 to hole 6, then Hint: an empty list): the ways to finish
 * the turn as begun, ranked, the best drawn on the board. */
async function midTurnHint(browser, base) {
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  const bad = watchErrors(page);
  let shown = 0, tried = 0;
  for (; tried < 6 && !shown; tried++) {
    const g = await playedTo(base, "lions-jackals", (st, i) => i > 4 + tried && st.to === 1 && st.phase === "move" && st.throw.values.length >= 3 && st.moves.length > 3);
    if (g.state.status !== "playing") continue;
    await page.goto(`${base}/#/join/${g.id}/${g.tokens["1"]}`);
    await page.locator(".board .hole.source").first().waitFor();
    await still(page);
    /* a step: a piece, then the farthest hole it may reach */
    await page.locator(".board .hole.source").first().click();
    await settled(page);
    await page.locator(".board .hole.target").last().click();
    await settled(page);
    const done = await page.locator("#so-far").textContent().catch(() => null);
    if (!done) continue;
    await page.click("#hint");
    await page.locator("#hints").waitFor();
    await still(page);
    const intro = await page.locator("#hints p").first().textContent();
    const rows = await page.locator("#hints li").count();
    if (!rows) fail(`a hint after "${done}" lists nothing: ${await page.locator("#hints").textContent()}`);
    if (!/each way to finish the turn/.test(intro)) fail("the mid-turn hint says: " + intro);
    const moves = await page.locator("#hints .hintmove").evaluateAll(b => b.map(x => x.dataset.move));
    const first = await page.evaluate(() => document.querySelector("#hints .hintmove").textContent);
    if (!/^then /.test(first)) fail("a way to finish the turn reads: " + first);
    const arrows = await page.locator(".board .arrow.best").count();
    if (!arrows) fail("the best way to finish the turn is not drawn");
    await page.screenshot({ path: join(artifacts, "mid-turn-hint-1366x800.png") });
    /* played from the list: the turn as begun */
    const before = +(await page.locator("#turn").getAttribute("data-version"));
    await page.locator("#hints li.best .hintmove").click();
    await waitFor(async () => +(await page.locator("#turn").getAttribute("data-version")) > before, "the way played");
    shown = rows;
    said = `"${done}", then ${rows} ways (best "${first}"; ${moves[0]})`;
  }
  if (!shown) fail(`no turn of Lions & Jackals could be begun in ${tried} games`);
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - a hint in the middle of a turn: ${said}`);
  await page.close();
}
let said = "";

/* What is drawn over the board, as seen: each arrow's shaft (sampled, in
 * CSS px), each label's box and its arrow, the numbers' boxes, and
 * whether the numbers are drawn over the arrows. */
async function overBoard(page) {
  return page.evaluate(() => {
    const svg = document.querySelector(".board");
    const arrows = [...svg.querySelectorAll(".arrows .arrow")].map(a => {
      const pts = [];
      for (const sh of a.querySelectorAll(".shaft")) {
        const L = sh.getTotalLength(), m = sh.getScreenCTM();
        for (let t = 0; t <= L; t += 3) { const q = sh.getPointAtLength(t).matrixTransform(m); pts.push([q.x, q.y]); }
      }
      const w = +a.querySelector(".shaft").getAttribute("stroke-width") * Math.hypot(svg.getScreenCTM().a, svg.getScreenCTM().b);
      return { move: a.dataset.move, kind: a.getAttribute("class"), pts, w };
    });
    const box = e => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; };
    const labels = [...svg.querySelectorAll(".labels > g")].map(g => ({ text: g.querySelector("text").textContent, move: g.dataset.move, kind: g.getAttribute("class"), ...box(g.querySelector("rect")) }));
    const numbers = svg.classList.contains("numbers") ? [...svg.querySelectorAll("text.num")].map(t => ({ text: t.textContent, ...box(t) })) : [];
    const layers = [...svg.children].map(e => e.getAttribute("class"));
    return { arrows, labels, numbers, numbersOver: layers.indexOf("nums") > layers.indexOf("arrows") };
  });
}
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
/* The share of arrow a's shaft that runs on arrow b's. */
function sharedRun(a, b) {
  if (!a.pts.length) return 0;
  let on = 0;
  for (const [x, y] of a.pts) if (b.pts.some(([u, v]) => Math.hypot(u - x, v - y) < (a.w + b.w) / 2)) on++;
  return on / a.pts.length;
}

/* Arrows and labels apart (they once lay, hint arrows and the last move's, on one
 * row over the numbers; Lions & Jackals' review stacking chips 1-4,
 * "played" and "best"; on a phone a hint's number between squares 16 and
 * 25 for a move 5→6): each hint arrow runs beside the last move's, never
 * on it; the numbers are drawn over the arrows; no label on another or on
 * a number; each label beside its arrow. Senet at 1366x800 and 390x844,
 * Tab and Lions & Jackals at 390x844; a review's key moment. */
async function arrowsApart(browser, base) {
  const notes = [];
  for (const [id, value, w, h] of [["senet-kendall", 2, 1366, 800], ["senet-kendall", 1, 390, 844], ["tab-58", 2, 390, 844], ["lions-jackals", 0, 390, 844]]) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, isMobile: w < 500, hasTouch: w < 500 });
    const bad = watchErrors(page);
    const g = await playedTo(base, id, (st, i) => i > 8 && st.to === 1 && st.phase === "move" && st.moves.length >= 3 &&
      (!value || st.throw.values[0] === value) && st.last.some(p => p.move !== "pass"));
    await page.goto(`${base}/#/join/${g.id}/${g.tokens["1"]}`);
    await page.locator(".board .hole.source").first().waitFor();
    await page.click("#hint");
    await page.locator("#hints li").first().waitFor();
    await still(page);
    const o = await overBoard(page);
    if (!o.numbersOver) fail(`${id} at ${w}x${h}: the numbers are drawn under the arrows`);
    const last = o.arrows.find(a => /last/.test(a.kind)), hints = o.arrows.filter(a => !/last/.test(a.kind));
    if (!hints.length) fail(`${id}: no hint drawn`);
    for (const a of hints) for (const b of o.arrows) if (a !== b && sharedRun(a, b) > .34)
      fail(`${id} at ${w}x${h}: the arrow of ${a.move} runs on ${b.move || "the last move"}'s for ${Math.round(100 * sharedRun(a, b))}% of its way`);
    for (const [i, l] of o.labels.entries()) {
      for (const m of o.labels.slice(i + 1)) if (overlaps(l, m)) fail(`${id} at ${w}x${h}: labels "${l.text}" and "${m.text}" overlap`);
      for (const n of o.numbers) if (overlaps({ x: l.x + 2, y: l.y + 2, w: l.w - 4, h: l.h - 4 }, n)) fail(`${id} at ${w}x${h}: label "${l.text}" covers the number ${n.text}`);
      /* beside its arrow: its middle within a label's height and the
         shaft's half-width of the shaft */
      const a = /stepno/.test(l.kind) ? o.arrows.find(x => x.kind === "arrow " + l.kind.split(" ")[1]) : o.arrows.find(x => x.move === l.move);
      const cx = l.x + l.w / 2, cy = l.y + l.h / 2;
      const d = Math.min(...a.pts.map(([x, y]) => Math.hypot(x - cx, y - cy)));
      if (d > l.h * 1.4 + a.w / 2) fail(`${id} at ${w}x${h}: label "${l.text}" stands ${d.toFixed(0)} px from its arrow`);
    }
    await page.screenshot({ path: join(artifacts, `arrows-${id}-${w}x${h}.png`) });
    notes.push(`${id} ${w}x${h}: ${hints.length} hint arrows${last ? " and the last move's" : ""}, ${o.labels.length} labels`);
    if (bad.length) fail("errors: " + bad.join("; "));
    await page.close();
  }
  console.log(`ok - arrows beside one another, numbers over them, labels beside their arrows and off one another and the numbers: ${notes.join("; ")}`);
}

/* Each board on a 390 px phone (they were: Carter's holes 15.4 px, Tab's
 * 16.9, Lions & Jackals' 18.2): every hole 18 px across or more, its
 * number 10 px or more; a tap 24 px from a hole that may move picks it;
 * "Zoom" shows the board twice as large, scrolled to the pieces that may
 * move, a tap there still picking. */
async function phoneHoles(browser, base) {
  const rulesets = (await (await fetch(base + "/api/rulesets")).json()).rulesets;
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const bad = watchErrors(page);
  const sizes = [];
  for (const r of rulesets) {
    const g = await playedTo(base, r.id, st => st.phase === "move" && st.to === 1 && st.moves.some(m => !m.startsWith("in")));
    if (g.state.status !== "playing") continue;
    await page.goto(`${base}/#/join/${g.id}/${g.tokens["1"]}`);
    await page.reload();
    await page.locator(".board .hole.source").first().waitFor();
    await still(page);
    const m = await page.evaluate(() => {
      const holes = [...document.querySelectorAll(".board .hole .cellbg")].map(e => e.getBoundingClientRect());
      const nums = [...document.querySelectorAll(".board text.num")].map(e => e.getBoundingClientRect().height);
      return { hole: Math.min(...holes.map(b => Math.min(b.width, b.height))), num: Math.min(...nums) };
    });
    if (m.hole < 18) fail(`${r.id}: a hole is ${m.hole.toFixed(1)} px across on a 390 px phone`);
    if (m.num < 10) fail(`${r.id}: a hole's number is ${m.num.toFixed(1)} px high`);
    sizes.push(`${r.id} ${m.hole.toFixed(1)}`);
    /* a tap 24 px off a hole that may move, where it is the nearest */
    const tap = await page.evaluate(() => {
      const all = [...document.querySelectorAll(".board .hole")].map(e => { const b = e.querySelector(".cellbg").getBoundingClientRect(); return { e, x: b.x + b.width / 2, y: b.y + b.height / 2 }; });
      for (const s of all.filter(h => h.e.classList.contains("source")))
        for (let k = 0; k < 16; k++) {
          const a = k * Math.PI / 8, x = s.x + 24 * Math.cos(a), y = s.y + 24 * Math.sin(a);
          if (x < 2 || x > innerWidth - 2 || y < 2) continue;
          const near = all.reduce((b, h) => Math.hypot(h.x - x, h.y - y) < Math.hypot(b.x - x, b.y - y) ? h : b);
          const src = all.filter(h => h.e.classList.contains("source") && h !== s).some(h => Math.hypot(h.x - x, h.y - y) < 30);
          if (near === s && !src) return { x, y, cell: s.e.dataset.cell };
        }
      return null;
    });
    if (tap) {
      await page.mouse.click(tap.x, tap.y);
      await settled(page);
      if (!(await page.locator(`.board .hole.picked[data-cell="${tap.cell}"]`).count())) fail(`${r.id}: a tap 24 px from hole ${tap.cell} did not pick it`);
      await page.keyboard.press("Escape");
    }
    if (r.id === "hounds-jackals-carter" || r.id === "tab-58") {
      await page.screenshot({ path: join(artifacts, `phone-holes-${r.id}.png`) });
      await page.click("#zoom");
      await still(page);
      const z = await page.evaluate(() => {
        const box = document.getElementById("boardholder").getBoundingClientRect();
        const holes = [...document.querySelectorAll(".board .hole .cellbg")].map(e => e.getBoundingClientRect());
        const seen = [...document.querySelectorAll(".board .hole.source .cellbg")].map(e => e.getBoundingClientRect())
          .some(src => src.top >= box.top && src.bottom <= box.bottom && src.left >= box.left && src.right <= box.right);
        return { hole: Math.min(...holes.map(b => b.width)), seen,
                 width: document.documentElement.scrollWidth };
      });
      await page.screenshot({ path: join(artifacts, `phone-zoom-${r.id}.png`) });
      if (z.hole < 36) fail(`${r.id}: zoomed, a hole is ${z.hole.toFixed(1)} px`);
      if (!z.seen) fail(`${r.id}: zoomed, the piece that may move is not in view`);
      if (z.width > 390) fail(`${r.id}: zoomed, the page is ${z.width} px wide`);
      await page.screenshot({ path: join(artifacts, `phone-zoom-${r.id}.png`) });
      const inView = await page.evaluate(() => {
        const box = document.getElementById("boardholder").getBoundingClientRect();
        return [...document.querySelectorAll(".board .hole.source")].find(e => { const b = e.querySelector(".cellbg").getBoundingClientRect(); return b.top >= box.top && b.bottom <= box.bottom && b.left >= box.left && b.right <= box.right; }).dataset.cell;
      });
      await page.locator(`.board .hole[data-cell="${inView}"] .cellbg`).click();
      await settled(page);
      if (!(await page.locator(".board .hole.picked").count())) fail(`${r.id}: zoomed, a tap on a piece does not pick it`);
      await page.click("#zoom");
    }
  }
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - every board on a phone: the smallest hole (px) ${sizes.join(", ")}; a tap 24 px off a hole picks it; zoom twice as large`);
  await ctx.close();
}

/* A review on a phone (it once had its table 416 px in a 377 px column, the
 * grades cut to "0 / 0 /", the graph's words 5 px): no sideways scroll,
 * every figure of the table whole on the screen with its label, the
 * graph's words 11 px or more. */
async function reviewPhone(browser, base) {
  const g = await playedTo(base, "lions-jackals-quick", () => false);
  if (g.state.status !== "over") fail("the game did not end");
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const bad = watchErrors(page);
  await page.goto(`${base}/#/replay/${g.id}`);
  /* the replay's zoom: the board twice as wide in a box that scrolls */
  const wide = async () => page.evaluate(() => document.querySelector(".replay .board").getBoundingClientRect().width);
  await page.locator(".replay .board").waitFor();
  const w0 = await wide();
  await page.click("#zoom");
  const w1 = await wide();
  if (w1 < 1.9 * w0) fail(`the replay's zoom: ${w0.toFixed(0)} px, then ${w1.toFixed(0)} px`);
  if (await page.evaluate(() => document.documentElement.scrollWidth) > 390) fail("the replay zoomed widens the page");
  await page.screenshot({ path: join(artifacts, "replay-zoom-390x844.png") });
  await page.click("#zoom");
  await page.click("#review-button");
  await page.locator("#review .review-list li").first().waitFor({ timeout: 60000 });
  const m = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    cut: [...document.querySelectorAll("#review table td, #review table th")].filter(e => e.getBoundingClientRect().right > innerWidth || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent),
    grades: [...document.querySelectorAll("#review table td")].filter(td => /\d+ \/ \d+ \/ \d+/.test(td.textContent)).map(td => getComputedStyle(td, "::before").content + " " + td.textContent),
    graph: Math.min(...[...document.querySelectorAll("#review svg.graph text")].map(t => t.getBoundingClientRect().height)),
  }));
  if (m.width > 390) fail(`the review is ${m.width} px wide on a 390 px phone`);
  if (m.cut.length) fail("cut in the review's table: " + m.cut.join(" | "));
  if (m.grades.length !== 2 || !m.grades.every(t => /doubtful \/ bad \/ very bad/.test(t))) fail("the grades read: " + m.grades.join(" | "));
  if (m.graph < 11) fail(`the graph's words are ${m.graph.toFixed(1)} px`);
  await page.locator("#review table").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "review-table-390x844.png") });
  await page.locator("#review svg.graph").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "review-graph-390x844.png") });
  /* a key moment: the moves played and best, each labelled once, no
     step numbers stacked beside them */
  const key = page.locator("#review .key-moments button").first();
  if (await key.count()) {
    await key.click();
    await still(page);
    const o = await overBoard(page);
    const texts = o.labels.map(l => l.text).sort().join(",");
    if (!["best,played", "played"].includes(texts)) fail("a key moment's labels: " + texts);
    for (const [i, l] of o.labels.entries()) for (const n of o.labels.slice(i + 1)) if (overlaps(l, n)) fail(`a key moment's labels ${l.text} and ${n.text} overlap`);
    await page.screenshot({ path: join(artifacts, "review-key-moment-390x844.png") });
  }
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - a review on a phone: ${m.width} px wide, its figures whole with their labels ("${m.grades[0]}"), the graph's words ${m.graph.toFixed(1)} px`);
  await page.close();
}

/* Wording (typing 1-2 once answered "1-2 is 1 squares, but the throw is
 * 2"): a step of one square in the singular. */
async function typedWording(browser, base) {
  const g = await playedTo(base, "senet-kendall", st => st.to === 1 && st.phase === "move" && st.throw.values[0] >= 2 &&
    st.cells.some((c, i) => c[0] > 0 && i + 2 <= 25 && !st.cells[i + 1][0]));
  const st = g.state;
  const from = st.cells.findIndex((c, i) => c[0] > 0 && i + 2 <= 25 && !st.cells[i + 1][0]) + 1;
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const bad = watchErrors(page);
  await page.goto(`${base}/#/join/${g.id}/${g.tokens["1"]}`);
  await page.locator("#typed").waitFor();
  await page.fill("#typed", `${from}-${from + 1}`);
  await page.click("form.typed button[type=submit]");
  const msg = await waitFor(async () => { const t = (await page.locator("#msg").textContent()).trim(); return t.length > 5 ? t : null; }, "the explanation");
  if (/\b1 squares\b/.test(msg) || !/1 square\b/.test(msg)) fail(`typing ${from}-${from + 1} with a throw of ${st.throw.values[0]}: "${msg}"`);
  if (bad.length) fail("errors: " + bad.join("; "));
  console.log(`ok - a typed move one square short: "${msg}"`);
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
                 bellCaptured, homeRulesAddress, manyGamesOneTab, eightWatchers, twoPlayers, inviteAddress, stepNotation, stepBoard, tabStillToPlay, jequierSeat,
                 numbersAsSeen, sunsSeen, midTurnHint, arrowsApart, phoneHoles, reviewPhone, typedWording, wholeGames };
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
