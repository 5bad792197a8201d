// offline.mjs - the offline page's engine (src/wasm/offline.c run by
// web/offline/worker.js) in Node.js, the worker's script in a context of
// its own as a browser would run it: every ruleset against the computer at
// every level, two people at one device, games kept and rebuilt, and bad
// input of every kind answered with the server's error, never a crash.
//
//   KEMET_BIN=build/release/kemet node tests/wasm/offline.mjs build/wasm/kemet-offline.js
import vm from "node:vm";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const engine = resolve(process.argv[2] || "build/wasm/kemet-offline.js");
const bin = process.env.KEMET_BIN || "build/release/kemet";
const source = readFileSync(engine, "utf8") + "\n" +
  readFileSync(join(here, "../../web/offline/worker.js"), "utf8");
let failed = 0, checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) { failed++; console.log("not ok - " + what); }
}

/* A worker: its messages to the page collected; call() is one API call. */
function startWorker() {
  const w = { sent: [], n: 0 };
  const ctx = { console, crypto: globalThis.crypto, setTimeout, atob, TextDecoder, URLSearchParams,
    WebAssembly, BigUint64Array, importScripts() {}, location: { href: "file:///kemet/" },
    postMessage: m => w.sent.push(structuredClone(m)) };
  ctx.self = ctx;
  vm.createContext(ctx);
  vm.runInContext(source, ctx);
  w.post = async m => { await ctx.onmessage({ data: m }); };
  w.call = async (method, path, body, token) => {
    const n = ++w.n;
    await w.post({ call: n, method, path, body, token });
    const i = w.sent.findIndex(m => m.call === n);
    const r = w.sent.splice(i, 1)[0];
    for (const s of r.saves || []) w.kept.set(s.id, s);
    return r;
  };
  w.kept = new Map(); /* the browser's storage: id -> record */
  /* the computer's actions come between calls: their saves kept */
  w.idle = async () => {
    for (let i = 0; i < 2000; i++) {
      await new Promise(r => setTimeout(r, 1));
      for (const m of w.sent.splice(0)) for (const s of m.saves || []) w.kept.set(s.id, s);
      if (!w.busy()) return;
    }
  };
  return w;
}

const expect = async (w, status, method, path, body, token, what) => {
  const r = await w.call(method, path, body, token);
  check(r.status === status && (status < 400 ? true : typeof r.data.error === "string" && r.data.error.length > 5),
        `${what}: ${method} ${path} gives ${status} (got ${r.status}: ${JSON.stringify(r.data).slice(0, 120)})`);
  return r.data;
};

/* Plays `actions` actions of seat `token`'s: throw, or the first legal move
 * step by step as the page does; waits for the computer between. */
async function play(w, id, token, actions) {
  let st = (await w.call("GET", "games/" + id, undefined, token)).data;
  for (let k = 0; k < actions && st.phase !== "over"; ) {
    if (st.you !== st.to) {
      await new Promise(r => setTimeout(r, 2));
      for (const m of w.sent.splice(0)) for (const s of m.saves || []) w.kept.set(s.id, s);
      st = (await w.call("GET", "games/" + id, undefined, token)).data;
      continue;
    }
    let r;
    if (st.phase === "throw") r = await w.call("POST", `games/${id}/throw`, {}, token);
    else {
      const done = [];
      for (;;) {
        const s = (await w.call("GET", `games/${id}/steps?done=${encodeURIComponent(done.join("+"))}`)).data;
        if (s.complete || !s.next.length) break;
        done.push(s.next[0]);
      }
      r = await w.call("POST", `games/${id}/move`, { move: done.join("+") }, token);
    }
    if (r.status !== 200) { check(false, `an action in ${st.ruleset}: ${JSON.stringify(r.data)}`); return st; }
    st = r.data;
    k++;
  }
  return st;
}

const rulesets = execFileSync(bin, ["rules"], { encoding: "utf8" })
  .split("\n").map(l => l.split(/\s+/)[0]).filter(Boolean);
const w = startWorker();
w.busy = () => false;
await w.post({ load: [] });
check(w.sent.splice(0).some(m => m.loaded === 0), "an empty storage loads");

const rs = (await w.call("GET", "rulesets")).data;
check(rs.rulesets.length === rulesets.length && rs.levels.length === 5,
      `the rulesets (${rs.rulesets.length} of ${rulesets.length}) and 5 levels`);
check(rs.rulesets.every(r => r.art && r.art.holes.length > 0 && r.paths.length === 2), "every ruleset has its board");

/* every ruleset against the computer, the levels in turn, the human on
 * either side */
let level = 0, plies = 0;
for (const [i, spec] of rulesets.entries()) {
  level = level % 5 + 1;
  const me = 1 + (i % 2), players = ["human", "human"];
  players[2 - me] = { computer: level };
  const g = await expect(w, 201, "POST", "games", { ruleset: spec, players }, undefined, "a new game of " + spec);
  /* each named player's seat: as named, except where the opening decides
     who plays black (Jéquier's first 1) */
  const mine = g.seated ? g.seated[me - 1] : 0, token = g.tokens[String(mine)];
  check(g.you === mine && Object.keys(g.tokens).length === 1 && token &&
        (spec.startsWith("senet-jequier") || (g.seated[0] === 1 && g.seated[1] === 2)),
        `${spec}: the human's seat and token`);
  const st = await play(w, g.id, token, 8);
  /* 8 actions: at least 4 plies of ours (a throw and a move at most
     each), and the computer's between */
  check(st.plies >= 4 || st.phase === "over", `${spec} at level ${level}: the game goes on (${st.plies} plies)`);
  plies += st.plies;
  /* kept, and rebuilt by another tab's engine the same */
  await new Promise(r => setTimeout(r, 5));
  for (const m of w.sent.splice(0)) for (const s of m.saves || []) w.kept.set(s.id, s);
  const now = (await w.call("GET", "games/" + g.id, undefined, token)).data;
  const other = startWorker();
  await other.post({ load: [w.kept.get(g.id)] });
  check(other.sent.some(m => m.loaded === 1 && m.errors.length === 0), `${spec}: the kept game loads`);
  const again = (await other.call("GET", "games/" + g.id, undefined, token)).data;
  check(again.position === now.position && again.version === now.version && again.phase === now.phase,
        `${spec}: the kept game is the same (${again.position} v${again.version} vs ${now.position} v${now.version})`);
}
console.log(`ok - every ruleset (${rulesets.length}) against the computer at levels 1-5: ${plies} plies, kept and rebuilt`);

/* two people at one device: one token, the seat to move is "you" */
{
  const g = await expect(w, 201, "POST", "games", { ruleset: "lions-jackals-quick", players: ["human", "human"] }, undefined, "two people");
  check(g.tokens["1"] === g.tokens["2"], "two people at one device share the token");
  let st = g.state, seen = new Set();
  for (let k = 0; k < 4000 && st.phase !== "over"; k++) {
    seen.add(st.you);
    check(st.you === st.to, "the seat to move is yours");
    st = await play(w, g.id, g.tokens["1"], 1);
  }
  check(st.phase === "over" && st.winner >= 1 && seen.size === 2, `a two-person game ends (${st.plies} plies, winner ${st.winner})`);
  await expect(w, 409, "POST", `games/${g.id}/takeback`, {}, g.tokens["1"], "a take-back after the end");
  const rec = (await w.call("GET", `games/${g.id}/record`)).data;
  check(typeof rec === "string" && rec.startsWith("kemet-record") && /seed \d+/.test(rec), "the finished game's record, with its seed");
  const review = (await w.call("GET", `games/${g.id}/review`)).data;
  check(review.players && review.players.length === 2 && review.decisions.length > 0, "the finished game's review");
  const hist = (await w.call("GET", `games/${g.id}/history`)).data;
  check(hist.history.length === st.plies + 1, "the history: the opening and every ply");
  console.log(`ok - two people at one device: ${st.plies} plies to the end; record, history, review`);

  /* the rematch (ko_rematch): made at once, an action of the old game,
     the same answer when asked again, kept and rebuilt */
  const tok = g.tokens["1"];
  await expect(w, 401, "POST", `games/${g.id}/rematch`, {}, undefined, "a rematch without a token");
  await expect(w, 403, "POST", `games/${g.id}/rematch`, {}, "0".repeat(32), "a rematch with another token");
  const m = await expect(w, 200, "POST", `games/${g.id}/rematch`, {}, tok, "the rematch");
  check(/^[0-9a-f]{16}$/.test(m.id) && m.id !== g.id && /^[0-9a-f]{32}$/.test(m.token) && (m.you === 1 || m.you === 2),
        "the rematch's id, token and seat: " + JSON.stringify(m));
  const old = (await w.call("GET", "games/" + g.id, undefined, tok)).data;
  check(old.rematch && old.rematch.id === m.id && old.version === st.version + 1,
        `the old game names the rematch and its version moves (${JSON.stringify(old.rematch)}, v${st.version} -> v${old.version})`);
  const fresh = (await w.call("GET", "games/" + m.id, undefined, m.token)).data;
  check(fresh.ruleset === g.state.ruleset && fresh.plies === 0 && fresh.phase !== "over" &&
        fresh.players.every(p => p.kind === "human"), "the rematch is a new game of the same kind");
  const m2 = await expect(w, 200, "POST", `games/${g.id}/rematch`, {}, tok, "the rematch asked again");
  check(m2.id === m.id && m2.token === m.token, "asked again: the same rematch");
  check(w.kept.has(m.id) && w.kept.get(g.id).actions.some(([k, t]) => k === "rematch" && t === m.id),
        "both games kept, the rematch among the old game's actions");
  const other = startWorker();
  await other.post({ load: [w.kept.get(g.id), w.kept.get(m.id)] });
  check(other.sent.some(x => x.loaded === 2 && x.errors.length === 0), "the two kept games load");
  const again = (await other.call("GET", "games/" + g.id, undefined, tok)).data;
  check(again.rematch && again.rematch.id === m.id && again.version === old.version, "rebuilt, the old game names the same rematch");
  console.log(`ok - the rematch at one device: ${m.id}, kept and rebuilt`);
}

/* the moves in the numbers of the seat looking (ko_history with the
 * token, ko_state): in Tab the sides count the holes from opposite ends,
 * so a move of Black's reads in White's numbers to White and to a reader
 * without a token, in Black's own to Black; the steps of a turn begun
 * list the ways to finish it (the page's hint in the middle of a turn) */
{
  const tab = rs.rulesets.find(r => r.id === "tab-58");
  const seen = (who, sq, viewer) => String(tab.paths[viewer - 1].indexOf(tab.paths[who - 1][sq], 1));
  const g = await expect(w, 201, "POST", "games", { ruleset: "tab-58", players: [{ computer: 1 }, "human"] }, undefined, "Tab as Black");
  const tok = g.tokens["2"];
  let hist = null, last = null;
  for (let k = 0; k < 400 && !last; k++) {
    await play(w, g.id, tok, 1);
    hist = (await w.call("GET", `games/${g.id}/history`, undefined, tok)).data;
    const p = hist.history[hist.history.length - 1];
    if (p.player === 2 && /^\d+-\d+$/.test(p.move) && /^Black moves /.test(p.words)) last = p;
  }
  check(last !== null, "Tab: a plain step of Black's");
  if (last) {
    const [a, b] = last.move.split("-").map(Number);
    check(last.words.startsWith(`Black moves ${a}-${b}.`), `Black reads its own numbers: ${last.words}`);
    const spectator = (await w.call("GET", `games/${g.id}/history`)).data, q = spectator.history[last.ply];
    const want = `Black moves ${seen(2, a, 1)}-${seen(2, b, 1)}.`;
    check(q.words.startsWith(want) && want !== `Black moves ${a}-${b}.`, `a reader without a token reads White's numbers: ${q.words} (want ${want})`);
  }
  const lj = await expect(w, 201, "POST", "games", { ruleset: "lions-jackals", players: ["human", "human"] }, undefined, "Lions & Jackals by two");
  let st = lj.state, ways = null;
  for (let k = 0; k < 400 && !ways && st.phase !== "over"; k++) {
    if (st.phase === "move" && st.throw.values.length >= 2) {
      const s0 = (await w.call("GET", `games/${lj.id}/steps?done=`)).data;
      const d = s0.next[0];
      const s1 = (await w.call("GET", `games/${lj.id}/steps?done=${encodeURIComponent(d)}`)).data;
      if (!s1.complete) {
        ways = s1.ways;
        check(Array.isArray(ways) && ways.length > 0 && ways.every(x => x.move.startsWith(d + "+") && st.moves.includes(x.as)),
              `a turn begun with ${d}: its ways to finish, each a listed move (${JSON.stringify((ways || []).slice(0, 2))})`);
      }
    }
    st = await play(w, lj.id, lj.tokens["1"], 1);
  }
  check(ways !== null, "Lions & Jackals: a turn of several values begun");
  console.log("ok - words in the numbers of the seat looking; the ways to finish a turn begun");
}

/* bad input: the server's errors */
{
  const g = await expect(w, 201, "POST", "games", { ruleset: "senet-kendall" }, undefined, "a default game");
  const tok = g.tokens["1"], id = g.id;
  await expect(w, 400, "POST", "games", [], undefined, "an array body");
  await expect(w, 400, "POST", "games", null, undefined, "no body");
  await expect(w, 400, "POST", "games", { ruleset: "no-such-game" }, undefined, "an unknown ruleset");
  await expect(w, 400, "POST", "games", { ruleset: 7 }, undefined, "a ruleset not a string");
  await expect(w, 400, "POST", "games", { ruleset: "senet-kendall", players: ["human"] }, undefined, "one player");
  await expect(w, 400, "POST", "games", { ruleset: "senet-kendall", players: ["human", { computer: 9 }] }, undefined, "level 9");
  await expect(w, 400, "POST", "games", { ruleset: "senet-kendall", players: ["computer:1", "computer:2"] }, undefined, "no human");
  await expect(w, 400, "POST", "games", { ruleset: "x".repeat(100000) }, undefined, "an oversized ruleset");
  await expect(w, 400, "POST", "games", { ruleset: "senet\uD800" }, undefined, "a lone surrogate");
  await expect(w, 404, "GET", "games/nope", undefined, undefined, "no such game");
  await expect(w, 404, "GET", `games/${id}/nothing`, undefined, undefined, "no such resource");
  await expect(w, 404, "GET", `games/${id}/a/b`, undefined, undefined, "a path too deep");
  await expect(w, 404, "GET", "elsewhere", undefined, undefined, "outside the API");
  await expect(w, 405, "GET", `games/${id}/throw`, undefined, tok, "GET for an action");
  await expect(w, 405, "POST", `games/${id}/history`, {}, tok, "POST for a view");
  await expect(w, 401, "POST", `games/${id}/throw`, {}, undefined, "no token");
  await expect(w, 403, "POST", `games/${id}/throw`, {}, "0".repeat(32), "another token");
  await expect(w, 409, "GET", `games/${id}/steps`, undefined, undefined, "steps before the throw");
  await expect(w, 409, "GET", `games/${id}/review`, undefined, undefined, "a review before the end");
  await expect(w, 409, "POST", `games/${id}/takeback`, {}, tok, "nothing to take back");
  await expect(w, 409, "POST", `games/${id}/rematch`, {}, tok, "a rematch before the end");
  const st = await expect(w, 200, "POST", `games/${id}/throw`, {}, tok, "a throw");
  if (st.phase === "move" && st.to === 1) {
    await expect(w, 409, "POST", `games/${id}/throw`, {}, tok, "a second throw");
    await expect(w, 400, "POST", `games/${id}/move`, {}, tok, "no move");
    await expect(w, 400, "POST", `games/${id}/move`, { move: 12 }, tok, "a move not a string");
    await expect(w, 400, "POST", `games/${id}/move`, { move: "9-\uD800" }, tok, "a move with a lone surrogate");
    await expect(w, 400, "POST", `games/${id}/move`, { move: "9-1".repeat(50000) }, tok, "an oversized move");
    await expect(w, 422, "POST", `games/${id}/move`, { move: "20-21" }, tok, "an illegal move");
    const ex = await expect(w, 200, "GET", `games/${id}/explain?move=20-21`, undefined, undefined, "why not");
    check(ex.legal === false && ex.reason.length > 5, "the explanation of an illegal move: " + ex.reason);
    await expect(w, 422, "GET", `games/${id}/steps?done=20-21`, undefined, undefined, "steps after an illegal step");
    const hint = await expect(w, 200, "POST", `games/${id}/hint`, {}, tok, "a hint");
    check(hint.moves.length > 0 && hint.moves.every(m => m.chance >= 0 && m.chance <= 1), "the hint's chances");
  }
  await expect(w, 200, "POST", `games/${id}/resign`, {}, tok, "resigning");
  await expect(w, 409, "POST", `games/${id}/resign`, {}, tok, "resigning again");
  console.log("ok - bad calls get the server's errors");

  /* the browser's storage, corrupt: each bad record refused with a reason */
  const good = w.kept.get(id);
  const bad = [
    { ...good, id: "a1", ruleset: "no-such-game" },
    { ...good, id: "a2", seed: "not a number" },
    { ...good, id: "a3", seats: ["human", "computer:9"] },
    { ...good, id: "a4", actions: [["throw", "9 9 9"]] },
    { ...good, id: "a5", actions: [["move", "99-100"]] },
    { ...good, id: "a6", actions: [["resign", "3"]] },
    { ...good, id: "a7", tokens: ["x".repeat(5000), ""] },
    { id: "a8" },
    null,
  ];
  const fresh = startWorker();
  await fresh.post({ load: [...bad, good] });
  const l = fresh.sent.find(m => m.loaded !== undefined);
  check(l && l.loaded === 1 && l.errors.length === bad.length,
        `corrupt records refused one by one (${l && l.loaded} loaded, ${l && l.errors.length} refused)`);
  check(l && l.errors.every(e => typeof e === "string" && e.length > 10 && !e.includes("\n")), "each with a one-line reason");
  console.log(`ok - ${bad.length} corrupt records refused, the good one kept`);
}

console.log(failed ? `${failed} of ${checks} checks failed` : `ok - the offline engine: ${checks} checks`);
process.exit(failed ? 1 : 0);
