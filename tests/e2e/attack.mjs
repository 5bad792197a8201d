// attack.mjs - strangers attacking `kemet serve` from other loopback
// addresses, and what a player still gets (loopback only, bounded in
// count and time: about two minutes; run by the test command and by hand,
// docs/api.md reports its figures).
//
//  1. Hints re-asked: 8 addresses x 4 connections re-ask the hints of 32
//     fixed slow positions (Lions & Jackals Quick, 0.4-1.6 s each alone)
//     while a player re-asks the hint of a slow position of their own.
//  2. Hints all different: the same 32 ask a hint, move, ask again (every
//     request a new slow position), while a player does the same.
//  3. Memory: 3 rounds of 30 games against level 5 (each computer player
//     searches, then every game is resigned): the server's RSS after each.
//  4. New games: one address makes games as fast as it can for 15 s on one
//     connection; another address still makes one.
// The games of 1 and 2 are written into the database before the server
// starts (fixed ids, seeds and tokens: the sqlite3 program) and played
// with the first legal move, so their positions are the same on every run.
// Fails if the player is ever answered 503 (or 429), if more computer
// players are held than the server's cap, or if one address makes more
// games than its allowance; the latencies are reported, not checked.
// Usage: node attack.mjs [--seconds S]   (KEMET_BIN: the program)
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.KEMET_BIN || join(here, "../../build/release/kemet");
const argi = process.argv.indexOf("--seconds");
const SECONDS = argi > 0 ? +process.argv[argi + 1] : 15;
const dir = mkdtempSync(join(tmpdir(), "kemet-attack-"));
const db = join(dir, "attack.db");
let failed = false;
const fail = msg => { console.log("FAIL - " + msg); failed = true; };
const sleep = ms => new Promise(r => setTimeout(r, ms));

// (seed, plies): Lions & Jackals Quick games of two people, played with
// the first legal move, whose hint at that ply (a throw to move for) took
// 0.4 to 1.6 s alone on a 2-core machine.
const SLOW = [[1, 20], [1, 22], [1, 24], [2, 32], [2, 37], [3, 26], [3, 45], [4, 18],
              [4, 64], [5, 10], [5, 27], [6, 21], [6, 31], [6, 33], [6, 35], [7, 14],
              [7, 17], [7, 26], [8, 18], [8, 21], [8, 23], [8, 34], [10, 11], [10, 13],
              [11, 19], [11, 26], [11, 49], [3, 9], [7, 12], [7, 40], [8, 20], [8, 42]];
const PLAYER = [11, 13]; // the player's own slow position
const ALONE = [10, 12];  // one more, timed with nothing else asked
const ATTACKERS = 8, THREADS = 4;

function start() {
  const proc = spawn(bin, ["serve", "--port", "0", "--tables", "off", "--db", db], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", d => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ proc, port: +m[1] });
    });
    proc.on("exit", code => reject(new Error("kemet serve exited with " + code)));
  });
}
const stopped = proc => new Promise(r => { proc.on("exit", r); proc.kill("SIGTERM"); });

let port = 0;
const agents = new Map();
function agentFor(from) {
  if (!agents.has(from)) agents.set(from, new http.Agent({ keepAlive: true, maxSockets: THREADS, localAddress: from }));
  return agents.get(from);
}
// One request from address `from`: {status, body, ms}.
function call(from, method, path, token, body) {
  const t0 = performance.now();
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = { Host: "127.0.0.1" };
  if (token) headers.Authorization = "Bearer " + token;
  if (data !== undefined) { headers["Content-Type"] = "application/json"; headers["Content-Length"] = Buffer.byteLength(data); }
  return new Promise(resolve => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: agentFor(from) }, res => {
      let text = "";
      res.on("data", d => text += d);
      res.on("end", () => {
        let o = null;
        try { o = JSON.parse(text); } catch (e) { /* reported by status */ }
        resolve({ status: res.statusCode, body: o, ms: performance.now() - t0 });
      });
    });
    req.on("error", e => resolve({ status: 0, body: { error: String(e) }, ms: performance.now() - t0 }));
    if (data !== undefined) req.write(data);
    req.end();
  });
}
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const fmt = ms => (ms / 1000).toFixed(2) + " s";
const info = async () => (await call("127.0.0.1", "GET", "/api/server")).body;
const rss = proc => +(readFileSync(`/proc/${proc.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]) / 1024;

// The fixed games: ids and tokens made from their number.
const hex = (n, w) => n.toString(16).padStart(w, "0");
const fixed = [...SLOW, PLAYER, ...SLOW, ALONE].map(([seed, plies], i) => ({
  id: hex(0xa77ac000 + i, 16), seed, plies, tok: { 1: hex(2 * i + 1, 32), 2: hex(2 * i + 2, 32) } }));

// one action of the player to act with the first legal move
async function step(from, g, st) {
  const tok = g.tok[st.to];
  const r = st.phase === "throw" ? await call(from, "POST", `/api/games/${g.id}/throw`, tok, {})
                                 : await call(from, "POST", `/api/games/${g.id}/move`, tok, { move: st.moves[0] });
  return r.status === 200 ? r.body : null;
}
// plays game g on to its ply (a throw to move for, more than one move)
async function advance(from, g) {
  let st = (await call(from, "GET", `/api/games/${g.id}`)).body;
  for (let i = 0; i < 400 && st && st.phase !== "over"; i++) {
    if (st.plies >= g.plies && st.phase === "move" && st.moves.length > 1) break;
    st = await step(from, g, st);
  }
  return st;
}
const hint = (from, g, st) => call(from, "POST", `/api/games/${g.id}/hint`, g.tok[st.to], {});

// 0. the database, then the server
{
  const { proc } = await start();
  await stopped(proc);
  const now = Math.floor(Date.now() / 1000);
  const rows = fixed.map(g => `('${g.id}','lions-jackals-quick','${g.seed}','human','human','${g.tok[1]}','${g.tok[2]}',${now})`);
  execFileSync("sqlite3", [db, `INSERT INTO games VALUES ${rows.join(",")};`]);
}
let { proc, port: p0 } = await start();
port = p0;
const reask = fixed.slice(0, 32), player = fixed[32], distinct = fixed.slice(33, 65), lone = fixed[65];
for (const g of [...reask, player, lone]) g.st = await advance("127.0.0.1", g);
{
  const alone = await hint("127.0.0.2", lone, lone.st);
  console.log(`a slow hint with nothing else asked: ${fmt(alone.ms)}`);
}

// 1. re-asked hints
async function attackers(set, moving, until) {
  const counts = {};
  await Promise.all(set.map(async (g, k) => {
    const from = `127.0.1.${1 + Math.floor(k / THREADS)}`;
    let st = moving ? await advance(from, g) : g.st;
    while (performance.now() < until && st && st.phase !== "over") {
      const r = await hint(from, g, st);
      counts[r.status] = (counts[r.status] || 0) + 1;
      if (r.status === 429 || r.status === 503) await sleep(50);
      else if (moving && r.status === 200) {
        st = await step(from, g, st);
        while (st && st.phase === "throw") st = await step(from, g, st);
      }
    }
  }));
  return counts;
}
async function playerHints(g, moving, until, n) {
  const lat = [], statuses = {};
  let st = moving ? await advance("127.0.0.2", g) : g.st;
  await sleep(1000); /* the attackers first */
  for (let i = 0; i < n && performance.now() < until && st && st.phase !== "over"; i++) {
    const r = await hint("127.0.0.2", g, st);
    statuses[r.status] = (statuses[r.status] || 0) + 1;
    lat.push(r.ms);
    if (process.env.KEMET_ATTACK_VERBOSE)
      console.log(`  the player's hint: ${fmt(r.ms)}, bounded ${r.body && r.body.bounded}, searched ${r.body && r.body.searched_ms} ms`);
    if (r.status !== 200) fail(`the player's hint answered ${r.status}: ${r.body && r.body.error}`);
    if (moving) {
      st = await step("127.0.0.2", g, st);
      while (st && st.phase === "throw") st = await step("127.0.0.2", g, st);
    } else await sleep(300);
  }
  return { lat, statuses };
}
{
  const until = performance.now() + SECONDS * 1000;
  const [counts, me] = await Promise.all([attackers(reask, false, until), playerHints(player, false, until, 20)]);
  const i = await info();
  console.log(`hints re-asked by ${ATTACKERS} addresses x ${THREADS}: attackers' answers ${JSON.stringify(counts)}; ` +
              `the player's ${me.lat.length} hints: median ${fmt(pct(me.lat, 0.5))}, worst ${fmt(Math.max(...me.lat))} ` +
              `(first ${fmt(me.lat[0])}); server: ${i.analysis.hints.made} made, ${i.analysis.hints.cached} from the cache`);
}

// 2. every hint a different position
{
  const until = performance.now() + SECONDS * 1000;
  for (const g of distinct) g.plies = g.plies + 1; /* other positions than in 1 */
  const mine = { ...fixed[32], plies: PLAYER[1] + 1 };
  const [counts, me] = await Promise.all([attackers(distinct, true, until), playerHints(mine, true, until, 12)]);
  const i = await info();
  console.log(`hints all different, ${ATTACKERS} addresses x ${THREADS}: attackers' answers ${JSON.stringify(counts)}; ` +
              `the player's ${me.lat.length} hints: median ${fmt(pct(me.lat, 0.5))}, worst ${fmt(Math.max(...me.lat))}; ` +
              `server: ${i.analysis.hints.made} made, ${i.analysis.hints.dropped} dropped`);
}

// 3. memory: 3 rounds of 30 games against level 5, resigned
{
  const before = rss(proc);
  const sizes = [];
  let most = 0;
  for (let round = 0; round < 3; round++) {
    const games = [];
    await Promise.all(Array.from({ length: 30 }, async (_, k) => {
      const from = `127.0.2.${1 + round * 3 + Math.floor(k / 10)}`;
      const r = await call(from, "POST", "/api/games", null, { ruleset: "lions-jackals", players: ["human", { computer: 5 }] });
      if (r.status !== 201) { fail(`a game against level 5: ${r.status} ${r.body && r.body.error}`); return; }
      const g = { id: r.body.id, tok: r.body.tokens };
      games.push({ g, from });
      let st = r.body.state;
      const t0 = performance.now();
      /* until the computer has searched once */
      while (st && st.plies < 2 && st.phase !== "over" && performance.now() - t0 < 60000) {
        if (st.to === 1) st = await step(from, { id: g.id, tok: { 1: g.tok["1"] } }, st);
        else st = (await call(from, "GET", `/api/games/${g.id}?after=${st.version}`)).body;
      }
      most = Math.max(most, (await info()).computer?.live ?? 0);
    }));
    await Promise.all(games.map(({ g, from }) => call(from, "POST", `/api/games/${g.id}/resign`, g.tok["1"], {})));
    await sleep(500);
    sizes.push(rss(proc));
  }
  const i = await info();
  console.log(`memory: ${before.toFixed(0)} MB before; after each round of 30 games against level 5, resigned: ` +
              `${sizes.map(s => s.toFixed(0) + " MB").join(", ")}; computer players held at most ${most} (cap ${i.computer?.cap}), ` +
              `${i.computer?.made} made`);
  if (i.computer && most > i.computer.cap) fail(`${most} computer players held, over the cap of ${i.computer.cap}`);
}

// 4. one address making games as fast as it can (the server started
// again: every allowance full)
await stopped(proc);
for (const a of agents.values()) a.destroy();
agents.clear();
({ proc, port } = await start());
{
  const until = performance.now() + 15000;
  const counts = {};
  while (performance.now() < until) {
    const r = await call("127.0.3.1", "POST", "/api/games", null, { ruleset: "senet-kendall", players: ["human", "human"] });
    counts[r.status] = (counts[r.status] || 0) + 1;
    if (r.status === 0) break;
  }
  const other = await call("127.0.3.2", "POST", "/api/games", null, { ruleset: "senet-kendall", players: ["human", "human"] });
  const i = await info();
  const allowed = (i.games?.new_games ?? Infinity) * (1 + 16 / 60) + 1;
  console.log(`one address making games for 15 s: ${counts[201] || 0} made, ${counts[429] || 0} refused (429); ` +
              `another address then: ${other.status}`);
  if ((counts[201] || 0) > allowed) fail(`one address made ${counts[201]} games in 15 s (allowed ${allowed.toFixed(0)})`);
  if (other.status !== 201) fail(`another address could not make a game: ${other.status}`);
}

for (const a of agents.values()) a.destroy();
await stopped(proc);
rmSync(dir, { recursive: true, force: true });
console.log(failed ? "the attack check FAILED" : "the attack check held");
process.exit(failed ? 1 : 0);
