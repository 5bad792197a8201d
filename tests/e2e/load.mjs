// The load check of `kemet serve` (a benchmark, not a test): G games
// played at once on loopback, two people per game, each client throwing
// and moving as fast as the server answers. Reports requests per second
// and latency percentiles, then checks that no request failed and no move
// was lost: each game's stored version equals the actions its players
// were told had happened, and after a restart of the server every game is
// there as it was.
// Usage: node load.mjs [--games G] [--actions A] [--ruleset R]
//        (KEMET_BIN: the program; default ../../build/release/kemet)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.KEMET_BIN || join(here, "../../build/release/kemet");
const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
const G = +arg("games", 200), A = +arg("actions", 100), ruleset = arg("ruleset", "senet-kendall");
const dir = mkdtempSync(join(tmpdir(), "kemet-load-"));
const db = join(dir, "load.db");

function start() {
  const proc = spawn(bin, ["serve", "--port", "0", "--tables", "off", "--db", db], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", d => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ proc, base: `http://127.0.0.1:${m[1]}` });
    });
    proc.on("exit", code => reject(new Error("kemet serve exited with " + code)));
  });
}
const stopped = proc => new Promise(r => { proc.on("exit", r); proc.kill("SIGTERM"); });

const lat = [];
let errors = 0;
async function call(base, method, path, token, body) {
  const t0 = performance.now();
  const r = await fetch(base + path, {
    method,
    headers: { ...(token ? { Authorization: "Bearer " + token } : {}),
               ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json();
  lat.push(performance.now() - t0);
  if (!r.ok) { errors++; throw new Error(`${method} ${path}: ${r.status} ${data.error}`); }
  return data;
}

let { proc, base } = await start();
const games = [];
for (let i = 0; i < G; i++) {
  const g = await call(base, "POST", "/api/games", null, { ruleset, players: ["human", "human"] });
  games.push({ id: g.id, tok: g.tokens, told: 0, state: g.state });
}
lat.length = 0;
const t0 = performance.now();
let seed = 12345;
const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
await Promise.all(games.map(async g => {
  for (let k = 0; k < A && g.state.phase !== "over"; k++) {
    const tok = g.tok[String(g.state.to)];
    g.state = g.state.phase === "throw"
      ? await call(base, "POST", `/api/games/${g.id}/throw`, tok, {})
      : await call(base, "POST", `/api/games/${g.id}/move`, tok, { move: g.state.moves[rnd(g.state.moves.length)] });
    g.told = g.state.version;
    /* a watcher reads the state between the moves */
    await call(base, "GET", `/api/games/${g.id}`);
  }
}));
const secs = (performance.now() - t0) / 1000;
lat.sort((a, b) => a - b);
const pct = p => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(2);
console.log(`${G} games of ${ruleset} at once, up to ${A} actions each: ${lat.length} requests in ${secs.toFixed(1)} s, ` +
            `${(lat.length / secs).toFixed(0)} requests/s; latency p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${lat[lat.length - 1].toFixed(1)} ms; ${errors} errors`);
/* no move lost: restart (kill -9) and compare every game's version */
proc.kill("SIGKILL");
await new Promise(r => proc.on("exit", r));
({ proc, base } = await start());
let lost = 0;
for (const g of games) {
  const st = await call(base, "GET", `/api/games/${g.id}`);
  if (st.version !== g.told) lost++;
}
console.log(`after kill -9 and restart: ${G - lost} of ${G} games exactly where their players were told they stood; ${lost} lost`);
await stopped(proc);
rmSync(dir, { recursive: true, force: true });
process.exit(errors || lost ? 1 : 0);
