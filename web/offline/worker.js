/* worker.js - the offline page's engine: answers the page's API calls
 * (docs/api.md) with the WebAssembly build of kemet's game layer
 * (src/wasm/offline.c), in a worker so that the computer's search never
 * freezes the page. The offline folder's engine.js carries this script
 * after the module's own (kemet-offline.js, which defines
 * createKemetOffline); the page starts it from a blob (web/offline.js).
 *
 * Messages from the page:
 *   {call: N, method, path, body, token}  an API call; answered
 *       {call: N, status, data, saves}: data as `kemet serve` sends it,
 *       saves the records of the games it changed
 *   {load: [RECORD...]}  the games kept in the browser, rebuilt; answered
 *       {loaded: COUNT, errors: [TEXT...]}
 * Messages to the page, when the computer has acted: {saves: [RECORD]}
 * and {change: ID, version: V}.
 * A RECORD is {id, ruleset, seed, seats, tokens, created, actions}, the
 * actions [[KIND, TEXT], ...] as the server stores them. */
"use strict";

let K = null;          /* the module */
let ctx = 0;           /* its rulesets (ko_open) */
const games = new Map(); /* id -> {ptr, rec} */
const ready = createKemetOffline().then(m => {
  K = m;
  ctx = K._ko_open();
  if (!ctx) throw new Error("the engine could not open its rulesets");
});

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

/* Calls K._NAME with numbers and strings (copied in and freed after); a
 * returned string pointer is read, freed and parsed as JSON unless `text`. */
function call(name, args, kind) {
  const ptrs = [];
  const conv = args.map(a => {
    if (typeof a !== "string") return a;
    const n = K.lengthBytesUTF8(a) + 1, p = K._malloc(n);
    K.stringToUTF8(a, p, n);
    ptrs.push(p);
    return p;
  });
  try {
    const r = K["_" + name](...conv);
    if (kind === "int") return r;
    if (!r) return null;
    const s = K.UTF8ToString(r);
    K._free(r);
    return kind === "text" ? s : JSON.parse(s);
  } finally {
    for (const p of ptrs) K._free(p);
  }
}

/* An answer of the engine's: an error answer thrown. */
function ok(v) {
  if (v === null) throw new ApiError(500, "out of memory");
  if (v.error) throw new ApiError(v.status, v.error);
  return v;
}

function randomHex(chars) {
  const b = new Uint8Array(chars / 2);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
}

function record(id) {
  const g = games.get(id);
  return {...g.rec, actions: call("ko_actions", [g.ptr])};
}

/* Makes the game of record `rec`; its actions replayed. */
function build(rec) {
  const ptr = call("ko_new", [ctx, rec.ruleset, rec.seed, rec.id, rec.seats[0], rec.seats[1],
                              rec.tokens[0], rec.tokens[1], rec.created], "int");
  if (!ptr) throw new Error(`game ${rec.id}: its ruleset, seed or seats are not valid`);
  for (const [kind, text] of rec.actions || []) {
    const why = call("ko_replay", [ptr, String(kind), String(text)], "text");
    if (why !== null) { K._ko_free(ptr); throw new Error(`game ${rec.id}: ${why}`); }
  }
  /* a record kept before the rematch was one of the game's actions */
  if (rec.rematch && !(rec.actions || []).some(([kind]) => kind === "rematch")) {
    const why = call("ko_replay", [ptr, "rematch", String(rec.rematch)], "text");
    if (why !== null) { K._ko_free(ptr); throw new Error(`game ${rec.id}: ${why}`); }
  }
  const old = games.get(rec.id);
  if (old) K._ko_free(old.ptr);
  games.set(rec.id, {ptr, rec: {id: rec.id, ruleset: rec.ruleset, seed: rec.seed, seats: rec.seats,
                                tokens: rec.tokens, created: rec.created}});
}

const LEVEL = /^computer:[1-5]$/;
/* A seat of {"players": [...]}: "human", "computer:L" or {"computer": L}. */
function seatOf(v) {
  if (v === "human") return "human";
  if (typeof v === "string" && v.startsWith("computer:")) {
    if (LEVEL.test(v)) return v;
  } else if (v && typeof v === "object" && !Array.isArray(v) && Number.isInteger(v.computer)) {
    if (v.computer >= 1 && v.computer <= 5) return "computer:" + v.computer;
  } else throw new ApiError(400, 'each player is "human" or {"computer": LEVEL}');
  throw new ApiError(400, "a computer's level is 1 to 5");
}

function create(body, id) {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ApiError(400, "the body must be a JSON object");
  if (typeof body.ruleset !== "string") throw new ApiError(400, 'give the ruleset: {"ruleset": "senet-kendall", ...}');
  let seats = ["human", "computer:2"];
  if (body.players !== undefined) {
    if (!Array.isArray(body.players) || body.players.length !== 2)
      throw new ApiError(400, 'players is an array of two: ["human", {"computer": 3}]');
    seats = body.players.map(seatOf);
  }
  if (seats[0] !== "human" && seats[1] !== "human") throw new ApiError(400, "at least one player must be human");
  /* one token for the human seats: two people at this device */
  const token = randomHex(32);
  const seed = new BigUint64Array(1);
  crypto.getRandomValues(seed);
  /* where the opening decides who plays black (Jequier's first 1), the
     players named first and second are seated by it */
  const swapped = call("ko_opening_black", [ctx, body.ruleset, seed[0].toString()], "int") === 1;
  if (swapped) seats = [seats[1], seats[0]];
  const rec = {id: id || randomHex(16), ruleset: body.ruleset, seed: seed[0].toString(), seats,
               tokens: seats.map(s => s === "human" ? token : ""), created: Math.floor(Date.now() / 1000), actions: []};
  const known = call("ko_rulesets", [ctx]).rulesets.some(r => r.id === rec.ruleset);
  if (!known) throw new ApiError(400, "unknown ruleset (GET /api/rulesets lists them)");
  build(rec);
  const g = games.get(rec.id);
  /* the server's seat (the first human's); two people at one device: the
     seat to move */
  const you = seats[0] !== "human" ? 2 : seats[1] !== "human" ? 1 : call("ko_you", [g.ptr, token], "int");
  const tokens = {};
  seats.forEach((s, p) => { if (s === "human") tokens[String(p + 1)] = token; });
  return {status: 201, data: {id: rec.id, tokens, you, seated: swapped ? [2, 1] : [1, 2], state: ok(call("ko_state", [g.ptr, you]))},
          changed: rec.id};
}

/* A rematch of a finished game (ko_rematch): at one device there is no
 * one to offer it to, so it is made at once, once. The worker gives the
 * new game its id and makes it (the same ruleset and seats, its own seed
 * and token); the rematch is an action of the old game, kept with it.
 * Answered as the server answers: {id, token, you}. */
function rematch(g, token) {
  const r = ok(call("ko_rematch", [g.ptr, token || "", randomHex(16)]));
  /* made now, or made before and its game gone from this browser: made */
  const make = r.made || !games.has(r.id);
  if (make) {
    try {
      create({ruleset: g.rec.ruleset, players: g.rec.seats.map(s => s === "human" ? "human" : {computer: +s.split(":")[1]})}, r.id);
    } catch (err) {
      /* the old game as it was, without the rematch action */
      if (r.made) build({...g.rec, actions: call("ko_actions", [g.ptr]).slice(0, -1)});
      throw err;
    }
  }
  const n = games.get(r.id), t = n.rec.tokens.find(x => x);
  return {status: 200, data: {id: r.id, token: t, you: call("ko_you", [n.ptr, t], "int")},
          changed: g.rec.id, made: make ? r.id : null};
}

let rulesetsAnswer = null;
/* One API call: {status, data, changed (a game id, or null)}. */
function route(method, path, body, token) {
  const [where, query = ""] = path.split("?");
  const q = new URLSearchParams(query);
  const parts = where.split("/");
  const get = method === "GET", post = method === "POST";
  if (where === "rulesets") {
    if (!get) throw new ApiError(405, "use GET for the rulesets");
    rulesetsAnswer = rulesetsAnswer || call("ko_rulesets", [ctx]);
    return {status: 200, data: rulesetsAnswer};
  }
  if (where === "games") {
    if (post) return create(body);
    if (!get) throw new ApiError(405, "use GET or POST for games");
    const ids = (q.get("ids") || "").split(",").filter(Boolean).slice(0, 200);
    return {status: 200, data: {games: ids.filter(id => games.has(id)).map(id => call("ko_summary", [games.get(id).ptr]))}};
  }
  if (parts[0] !== "games" || !parts[1] || parts.length > 3) throw new ApiError(404, "no such resource: " + where);
  const g = games.get(parts[1]);
  if (!g) throw new ApiError(404, "no such game: " + parts[1]);
  const what = parts[2] || "";
  const posts = {throw: 1, move: 1, hint: 1, resign: 1, takeback: 1, rematch: 1};
  const gets = {"": 1, history: 1, record: 1, steps: 1, explain: 1, review: 1};
  if (!posts[what] && !gets[what]) throw new ApiError(404, "no such resource: /" + what);
  if (posts[what] ? !post : !get)
    throw new ApiError(405, `use ${posts[what] ? "POST" : "GET"} for ${what ? "/" + what : "a game's state"}`);
  const you = call("ko_you", [g.ptr, token || ""], "int");
  if (you < 0 && (posts[what] || what === "")) throw new ApiError(403, "the token is not one of this game's");
  const answer = data => ({status: 200, data});
  switch (what) {
  case "": return answer(ok(call("ko_state", [g.ptr, you])));
  case "history": return answer(ok(call("ko_history", [g.ptr, token || ""])));
  case "record": return answer(call("ko_record", [g.ptr], "text"));
  case "steps": return answer(ok(call("ko_steps", [g.ptr, q.get("done") ?? ""])));
  case "explain":
    if (!q.has("move")) throw new ApiError(400, 'give the move, e.g. {"move": "9-12"}');
    return answer(ok(call("ko_explain", [g.ptr, q.get("move")])));
  case "review": return answer(ok(call("ko_review", [g.ptr])));
  case "hint": return answer(ok(call("ko_hint", [g.ptr, token || ""])));
  case "rematch": return rematch(g, token);
  case "move":
    if (!body || typeof body.move !== "string") throw new ApiError(400, 'give the move as a string: {"move": "9-12"}');
    return {...answer(ok(call("ko_act", [g.ptr, token || "", "move", body.move]))), changed: g.rec.id};
  default: /* throw, resign, takeback */
    return {...answer(ok(call("ko_act", [g.ptr, token || "", what, ""]))), changed: g.rec.id};
  }
}

/* The computer's actions, one at a time between the page's calls, each
 * kept and told to the page. */
const thinking = new Set();
function think(id) {
  if (thinking.has(id)) return;
  thinking.add(id);
  const step = () => {
    const g = games.get(id);
    const rc = g ? call("ko_computer", [g.ptr], "int") : 0;
    if (rc !== 1) {
      thinking.delete(id);
      if (rc < 0) postMessage({failed: id, error: "the computer could not move (error " + rc + ")"});
      return;
    }
    postMessage({saves: [record(id)]});
    postMessage({change: id, version: call("ko_version", [g.ptr], "int")});
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

onmessage = async e => {
  const m = e.data || {};
  try {
    await ready;
  } catch (err) {
    if (m.call !== undefined) postMessage({call: m.call, status: 500, data: {error: err.message, status: 500}});
    return;
  }
  if (m.load) {
    const errors = [];
    for (const rec of m.load) {
      try { build(rec); think(rec.id); } catch (err) { errors.push(err.message); }
    }
    postMessage({loaded: games.size, errors});
    return;
  }
  if (m.reload) {
    try {
      build(m.reload);
      postMessage({change: m.reload.id, version: call("ko_version", [games.get(m.reload.id).ptr], "int")});
    } catch (err) { postMessage({failed: m.reload.id, error: err.message}); }
    return;
  }
  if (m.call === undefined) return;
  try {
    const r = route(String(m.method), String(m.path), m.body, m.token);
    const saves = r.changed ? [record(r.changed)] : [];
    if (r.made) saves.push(record(r.made));
    postMessage({call: m.call, status: r.status, data: r.data, saves});
    if (r.changed) {
      postMessage({change: r.changed, version: call("ko_version", [games.get(r.changed).ptr], "int")});
      think(r.changed);
    }
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 500;
    postMessage({call: m.call, status, data: {error: err.message, status}});
  }
};
