// The load check of `kemet serve` (loopback only, bounded in count and
// time; a benchmark with pass/fail checks, run by hand: docs/api.md).
//
//  1. Hostile clients: IDLE sockets that send half a request and wait, and
//     WATCH event-stream watchers, from many loopback addresses (127.0.0.x,
//     each under the server's limit per address), held open throughout.
//  2. While they are held: G games played at once, two people per game
//     throwing and moving as fast as the server answers, and a watcher
//     reading each game between moves; then a game against the computer at
//     level 5 whose state is read while the computer searches; then single
//     reads one at a time. Requests/s and latency percentiles are reported;
//     the check fails if a request fails or the probes' slowest answer
//     takes over 100 ms.
//  3. One address opening more connections than its limit is cut off
//     while the others are served.
//  4. No move lost: after kill -9 and a restart every game's version equals
//     the actions its players were told had happened.
// Usage: node load.mjs [--games G] [--actions A] [--idle N] [--watch N]
//        [--ruleset R]   (KEMET_BIN: the program; default ../../build/release/kemet)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";
import net from "node:net";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.KEMET_BIN || join(here, "../../build/release/kemet");
const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
const G = +arg("games", 200), A = +arg("actions", 100), ruleset = arg("ruleset", "senet-kendall");
const IDLE = +arg("idle", 1000), WATCH = +arg("watch", 1000), PER_ADDR = 25;
const dir = mkdtempSync(join(tmpdir(), "kemet-load-"));
const db = join(dir, "load.db");
let failed = false;
const fail = msg => { console.log("FAIL - " + msg); failed = true; };

function start() {
  /* the players here make their 200 games at once from one address: the
     limit on new games (attack.mjs checks it) out of the way */
  const proc = spawn(bin, ["serve", "--port", "0", "--tables", "off", "--db", db, "--new-games", "100000"],
                     { stdio: ["ignore", "pipe", "inherit"] });
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

// The players' requests: from 127.0.0.1 through one pool of 64 kept-alive
// connections (the server allows 128 per address).
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let port = 0, errors = 0;
function call(method, path, token, body, lat) {
  const t0 = performance.now();
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = { Host: "127.0.0.1" };
  if (token) headers.Authorization = "Bearer " + token;
  if (data !== undefined) { headers["Content-Type"] = "application/json"; headers["Content-Length"] = Buffer.byteLength(data); }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent }, res => {
      let text = "";
      res.on("data", d => text += d);
      res.on("end", () => {
        if (lat) lat.push(performance.now() - t0);
        let o;
        try { o = JSON.parse(text); } catch (e) { errors++; reject(new Error(`${method} ${path}: not JSON`)); return; }
        if (res.statusCode >= 400) { errors++; reject(new Error(`${method} ${path}: ${res.statusCode} ${o.error}`)); return; }
        resolve(o);
      });
    });
    req.on("error", e => { errors++; reject(e); });
    if (data !== undefined) req.write(data);
    req.end();
  });
}
const pct = (lat, p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
function report(what, lat, secs) {
  lat.sort((a, b) => a - b);
  const rate = secs ? `, ${(lat.length / secs).toFixed(0)} requests/s` : "";
  console.log(`${what}: ${lat.length} requests${secs ? ` in ${secs.toFixed(1)} s` : ""}${rate}; latency ` +
              `p50 ${pct(lat, 0.5).toFixed(2)} ms, p95 ${pct(lat, 0.95).toFixed(2)} ms, p99 ${pct(lat, 0.99).toFixed(2)} ms, ` +
              `max ${lat[lat.length - 1].toFixed(1)} ms`);
  return lat[lat.length - 1];
}

// A socket from address `from` that sends half a request and waits; when
// the server closes it (its timeout for requests never finished), another
// takes its place, as an attacker's would, until the check ends.
let ending = false;
function idleSocket(from, again = true) {
  return new Promise(resolve => {
    const s = net.connect({ host: "127.0.0.1", port, localAddress: from }, () => {
      s.write("GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      resolve(s);
    });
    s.on("error", () => resolve(s));
    s.on("close", () => { if (again && !ending) idleSocket(from).then(n => held.push(n)); });
  });
}
// An event-stream watcher from address `from`; resolves once its first
// event came.
function watcher(from, id) {
  return new Promise(resolve => {
    const req = http.get({ host: "127.0.0.1", port, path: `/api/games/${id}/events`, localAddress: from,
                           headers: { Host: "127.0.0.1" }, agent: false }, res => {
      res.once("data", () => resolve(req));
      res.on("error", () => {});
    });
    req.on("error", () => resolve(req));
  });
}
const addr = k => `127.0.${1 + (k >> 8)}.${k & 255}`;

const held = [];
let { proc, port: p0 } = await start();
port = p0;
const games = [];
for (let i = 0; i < G; i++) {
  const g = await call("POST", "/api/games", null, { ruleset, players: ["human", "human"] });
  games.push({ id: g.id, tok: g.tokens, told: 0, state: g.state });
}

// 1. the hostile clients, PER_ADDR per address from 127.0.0.2 on
const streams = [];
for (let i = 0; i < IDLE; i += PER_ADDR)
  held.push(...await Promise.all(Array.from({ length: Math.min(PER_ADDR, IDLE - i) }, () => idleSocket(addr(2 + i / PER_ADDR)))));
const watchBase = 2 + Math.ceil(IDLE / PER_ADDR);
for (let i = 0; i < WATCH; i += PER_ADDR)
  streams.push(...await Promise.all(Array.from({ length: Math.min(PER_ADDR, WATCH - i) },
    (_, k) => watcher(addr(watchBase + i / PER_ADDR), games[(i + k) % G].id))));
const open = held.filter(s => !s.destroyed).length;
console.log(`held open: ${open} idle sockets (half a request each) and ${streams.length} event-stream watchers ` +
            `from ${Math.ceil(IDLE / PER_ADDR) + Math.ceil(WATCH / PER_ADDR)} addresses`);
if (open < IDLE) fail(`${IDLE - open} idle sockets were refused or dropped`);

// 2. the games, under that load
let lat = [];
let t0 = performance.now();
let seed = 12345;
const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
await Promise.all(games.map(async g => {
  for (let k = 0; k < A && g.state.phase !== "over"; k++) {
    const tok = g.tok[String(g.state.to)];
    g.state = g.state.phase === "throw"
      ? await call("POST", `/api/games/${g.id}/throw`, tok, {}, lat)
      : await call("POST", `/api/games/${g.id}/move`, tok, { move: g.state.moves[rnd(g.state.moves.length)] }, lat);
    g.told = g.state.version;
    /* a watcher reads the state between the moves */
    await call("GET", `/api/games/${g.id}`, null, undefined, lat);
  }
}));
report(`${G} games of ${ruleset} at once, up to ${A} actions each`, lat, (performance.now() - t0) / 1000);

// reads while the computer searches (level 5, Lions & Jackals: its
// searches are the longest)
const cg = await call("POST", "/api/games", null, { ruleset: "lions-jackals", players: ["human", { computer: 5 }] });
let st = cg.state, reads = [], computerTurns = 0;
const tok = cg.tokens["1"];
t0 = performance.now();
while (st.status !== "over" && performance.now() - t0 < 20000) {
  if (st.to === 1) {
    st = st.phase === "throw" ? await call("POST", `/api/games/${cg.id}/throw`, tok, {})
                              : await call("POST", `/api/games/${cg.id}/move`, tok, { move: st.moves[0] });
    continue;
  }
  computerTurns++;
  while (st.to === 2 && st.status !== "over") {
    st = await call("GET", `/api/games/${cg.id}`, tok, undefined, reads);
    await new Promise(r => setTimeout(r, 5));
  }
}
const readMax = report(`reads of a game while the computer (level 5) searches, ${computerTurns} of its turns`, reads, 0);

// single reads, one at a time
const probes = [];
for (let i = 0; i < 300; i++) {
  await call("GET", i % 2 ? "/api/rulesets" : `/api/games/${games[i % G].id}`, null, undefined, probes);
}
const probeMax = report("single reads one after another (rulesets, a game's state)", probes, 0);
if (readMax > 100 || probeMax > 100) fail(`a read took over 100 ms under the hostile load`);
if (errors) fail(`${errors} requests failed`);

// 3. one address over its limit is cut off, the others served
const greedy = await Promise.all(Array.from({ length: 200 }, () => idleSocket("127.0.9.9", false)));
await new Promise(r => setTimeout(r, 300));
const cut = greedy.filter(s => s.destroyed || s.readableEnded).length;
const ok = await call("GET", "/api/rulesets").then(() => true, () => false);
console.log(`one address opening 200 connections: ${200 - cut} kept, ${cut} closed by the server; others still served: ${ok}`);
if (cut < 200 - 128 || !ok) fail("the limit per address did not hold");
ending = true;
for (const s of [...held, ...greedy]) s.destroy();
for (const r of streams) r.destroy();

// 4. no move lost: restart (kill -9) and compare every game's version
proc.kill("SIGKILL");
await new Promise(r => proc.on("exit", r));
agent.destroy();
({ proc, port } = await start());
let lost = 0;
for (const g of games) {
  const s = await call("GET", `/api/games/${g.id}`);
  if (s.version !== g.told) lost++;
}
console.log(`after kill -9 and restart: ${G - lost} of ${G} games exactly where their players were told they stood; ${lost} lost`);
if (lost) fail(`${lost} games lost moves`);
await stopped(proc);
rmSync(dir, { recursive: true, force: true });
console.log(failed ? "the load check FAILED" : "the load check held");
process.exit(failed ? 1 : 0);
