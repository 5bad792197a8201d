/* kemet's page: the games in the browser, on the JSON API of `kemet serve`
 * (docs/api.md). Plain JavaScript, no build step.
 *
 * Routes (in the address's #fragment, never sent to the server):
 *   #/                    new game, one's own games, recent games
 *   #/game/ID[/TOKEN]     a game: playing with the seat's token, else watching
 *   #/replay/ID           a game move by move
 */
"use strict";

const app = document.getElementById("app");
const SVGNS = "http://www.w3.org/2000/svg";
let rulesets = null;
let view = null; /* the current game view, or null */

/* ---------------------------------------------------------------- helpers */
function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
function s(tag, attrs, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
let busy = 0; /* requests in flight: the page is marked data-busy meanwhile */
async function api(method, path, body, token) {
  busy++;
  document.body.dataset.busy = "1";
  try {
    return await request(method, path, body, token);
  } finally {
    if (--busy === 0) delete document.body.dataset.busy;
  }
}
async function request(method, path, body, token) {
  const headers = {};
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch("/api/" + path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const type = r.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error(data && data.error ? data.error : "HTTP " + r.status);
  return data;
}
async function getRulesets() {
  if (!rulesets) rulesets = (await api("GET", "rulesets")).rulesets;
  return rulesets;
}
function ruleset(id) { return rulesets.find(r => r.id === id); }
function myGames() {
  try { return JSON.parse(localStorage.getItem("kemet.games") || "[]"); } catch (e) { return []; }
}
function remember(id, token, seat) {
  const list = myGames().filter(g => !(g.id === id && g.seat === seat));
  list.unshift({id, token, seat});
  localStorage.setItem("kemet.games", JSON.stringify(list.slice(0, 200)));
}
function activate(el, fn) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.addEventListener("click", fn);
  el.addEventListener("keydown", e => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(e); }
  });
}

/* ------------------------------------------------------------ board maps */
/* Each board is a set of holes (cells) with x, y, and decorations. */
function senetGeometry(rs) {
  const cells = {}, deco = [];
  const marks = {15: "☥", 26: "nfr", 27: "≈≈", 28: "III", 29: "II", 30: "I"};
  for (let sq = 1; sq <= 30; sq++) {
    const row = Math.floor((sq - 1) / 10), k = (sq - 1) % 10;
    const col = row === 1 ? 9 - k : k;
    cells[rs.paths[0][sq]] = {x: 36 + col * 64, y: 44 + row * 64, r: 28, square: true,
                              label: sq, mark: marks[sq] || null};
  }
  return {w: 656, h: 216, cells, deco, frame: [4, 4, 648, 208]};
}

/* The 58-holes board: cells 1-29 are the holes of player 1's side (the
 * right), 30 the apex, 31-59 the holes of player 2's side, as the engine
 * numbers them (kemet_square_cell). */
function h58Geometry() {
  const W = 440, cells = {}, deco = [];
  const at = (side, hole) => {
    const m = side === 0 ? 1 : -1, cx = W / 2;
    if (hole <= 10) return [cx + m * 45, 170 + (hole - 1) * 30];
    if (hole <= 25) return [cx + m * 165, 534 - (hole - 11) * 26];
    if (hole <= 29) {
      const t = (hole - 25) * Math.PI / 10;
      return [cx + m * 165 * Math.cos(t), 170 - 130 * Math.sin(t)];
    }
    return [cx, 40];
  };
  const marked = new Set([1, 6, 8, 10, 15, 20, 25, 30]);
  for (let side = 0; side < 2; side++) {
    for (let hole = 1; hole <= 29; hole++) {
      const [x, y] = at(side, hole);
      cells[side * 30 + hole] = {x, y, r: 11, label: hole, mark: marked.has(hole) ? "•" : null};
    }
    const [a, b] = [at(side, 6), at(side, 20)];
    deco.push(s("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "boardline", stroke: "#7a5229", "stroke-width": 3}));
    const [c, d] = [at(side, 8), at(side, 10)];
    const bx = c[0] + (side === 0 ? -28 : 28);
    deco.push(s("path", {d: `M${c[0]},${c[1]} C${bx},${c[1]} ${bx},${d[1]} ${d[0]},${d[1]}`, fill: "none", stroke: "#7a5229", "stroke-width": 3}));
  }
  const [ax, ay] = at(0, 30);
  cells[30] = {x: ax, y: ay, r: 20, label: "Shen", mark: null};
  /* the palm: a rounded outline and the central stem */
  const outline = `M${W / 2 - 190},560 L${W / 2 - 190},170 Q${W / 2 - 190},10 ${W / 2},10 Q${W / 2 + 190},10 ${W / 2 + 190},170 L${W / 2 + 190},560 Z`;
  deco.unshift(s("path", {d: outline, fill: "#d8b27a", stroke: "#7a5229", "stroke-width": 4}));
  deco.push(s("path", {d: `M${W / 2 - 14},80 L${W / 2 - 14},470 M${W / 2 + 14},80 L${W / 2 + 14},470`, stroke: "#9c7444", "stroke-width": 3}));
  return {w: W, h: 575, cells, deco, frame: null};
}

/* The Washburne and Lions & Jackals boards, from their board files: each
 * hole where its slot {NN} stands in the file's picture, with the file's
 * lines, rivers, Sun, Ankh and marked holes. */
function fileGeometry(rs) {
  const lines = rs.board_file.split("\n");
  const cells = {}, deco = [], st = {sun: [], ankh: [], mark: [], safe: [], home1: [], home2: [], line: [], river: []};
  let inPic = false, row = 0;
  for (const raw of lines) {
    const line = raw.replace(/#.*/, "");
    if (inPic) {
      if (raw.trim() === "end") { inPic = false; continue; }
      for (const m of raw.matchAll(/\{ *(\d+)\}/g)) {
        const col = m.index + m[0].length / 2;
        cells[+m[1]] = {x: 30 + col * 9, y: 34 + row * 34, r: 14, label: +m[1], mark: null};
      }
      row++;
      continue;
    }
    const w = line.trim().split(/\s+/);
    if (w[0] === "picture") { inPic = true; continue; }
    if (w[0] === "home") st["home" + w[1]].push(...w.slice(2).map(Number));
    else if (w[0] in st) {
      if (w[0] === "line" || w[0] === "river") st[w[0]].push([+w[1], +w[2]]);
      else st[w[0]].push(...w.slice(1).map(Number));
    }
  }
  for (const [a, b] of st.line) if (cells[a] && cells[b])
    deco.push(s("line", {x1: cells[a].x, y1: cells[a].y, x2: cells[b].x, y2: cells[b].y, stroke: "#7a5229", "stroke-width": 4}));
  for (const [a, b] of st.river) if (cells[a] && cells[b])
    deco.push(s("line", {x1: cells[a].x, y1: cells[a].y, x2: cells[b].x, y2: cells[b].y, stroke: "#3b7dc4", "stroke-width": 6, "stroke-dasharray": "10 5", opacity: .8}));
  for (const c of st.sun) if (cells[c]) cells[c].mark = "☀";
  for (const c of st.ankh) if (cells[c]) cells[c].mark = "☥";
  for (const c of st.mark) if (cells[c]) cells[c].mark = "•";
  for (const c of st.home1) if (cells[c]) cells[c].fill = "#f3d9b0";
  for (const c of st.home2) if (cells[c]) cells[c].fill = "#c9d7e8";
  /* the drawing's size from the holes themselves (the picture's legend
     lines hold none) */
  const all = Object.values(cells);
  const w = Math.max(...all.map(c => c.x)) + 30, h = Math.max(...all.map(c => c.y)) + 30;
  return {w, h, cells, deco, frame: [4, 4, w - 8, h - 8]};
}

function geometry(rs) {
  if (!rs._geo) rs._geo = rs.board === "senet" ? senetGeometry(rs)
                        : rs.board === "file" ? fileGeometry(rs) : h58Geometry(rs);
  return rs._geo;
}

/* Draws the board with the pieces of `cells`; `marks` maps a cell to
 * "source", "target" or "picked"; `onCell` (optional) is called with a
 * cell number when one is chosen. */
function drawBoard(rs, cells, marks, onCell) {
  const g = geometry(rs);
  const svg = s("svg", {viewBox: `0 0 ${g.w} ${g.h}`, class: "board", role: "img",
                        "aria-label": rs.title + " board"});
  if (g.frame) svg.append(s("rect", {x: g.frame[0], y: g.frame[1], width: g.frame[2], height: g.frame[3], rx: 10, fill: "#d8b27a", stroke: "#7a5229", "stroke-width": 4}));
  svg.append(...g.deco.map(d => d.cloneNode(true)));
  for (const [key, c] of Object.entries(g.cells)) {
    const cell = +key, m = marks && marks[cell];
    const grp = s("g", {class: "hole" + (m ? " " + m : ""), "data-cell": cell});
    const bg = c.square
      ? s("rect", {class: "cellbg", x: c.x - c.r, y: c.y - c.r, width: 2 * c.r, height: 2 * c.r, rx: 4, fill: c.fill || "#ecd3a5", stroke: "#7a5229"})
      : s("circle", {class: "cellbg", cx: c.x, cy: c.y, r: c.r, fill: c.fill || "#6b4420", stroke: "#4a2e12"});
    grp.append(bg);
    if (c.mark === "•" && !c.square) bg.setAttribute("stroke", "#e8b84a"), bg.setAttribute("stroke-width", 3);
    else if (c.mark) grp.append(s("text", {x: c.x, y: c.square ? c.y + c.r - 6 : c.y - c.r - 2, "text-anchor": "middle", "font-size": c.square ? 13 : 11, fill: "#5a3a18"}, c.mark));
    if (c.square) grp.append(s("text", {x: c.x - c.r + 3, y: c.y - c.r + 11, "font-size": 10, fill: "#7a5229"}, c.label));
    const n = cells[cell - 1] || [0, 0];
    const pr = c.r * (c.square ? 0.62 : 0.8);
    const both = n[0] > 0 && n[1] > 0;
    for (let p = 0; p < 2; p++) {
      if (!n[p]) continue;
      const x = both ? c.x + (p ? pr * .55 : -pr * .55) : c.x;
      const r = both ? pr * .65 : pr;
      grp.append(s("circle", {class: "piece" + (p + 1), cx: x, cy: c.y, r}));
      if (n[p] > 1) grp.append(s("text", {x, y: c.y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": "bold", fill: p ? "#fff" : "#000"}, n[p]));
    }
    grp.append(s("title", {}, `${c.square ? "square" : "hole"} ${c.label}`));
    if (onCell && m) activate(grp, () => onCell(cell));
    else if (onCell) grp.addEventListener("click", () => onCell(cell));
    svg.append(grp);
  }
  return svg;
}

function drawThrow(t) {
  if (!t) return h("div", {class: "sticks", "aria-label": "no throw yet"}, "—");
  const box = h("div", {class: "sticks", "aria-label": "throw " + t.text});
  if (t.sticks && t.faces.length && t.values.length === 1) {
    for (const f of t.faces) box.append(h("span", {class: "stick " + (f ? "marked" : "plain"), title: f ? "marked side up" : "plain side up"}));
  } else {
    t.values.forEach((v, i) => box.append(h("span", {class: "die", title: t.only[i] ? "usable by player " + t.only[i] + " only" : "value " + v}, v)));
  }
  box.append(h("span", {class: "throwvalue"}, t.text));
  return box;
}

/* ------------------------------------------------------------- home page */
async function home() {
  view = null;
  await getRulesets();
  const pick = h("select", {id: "ruleset", "aria-label": "ruleset"},
                 rulesets.map(r => h("option", {value: r.id}, r.title)));
  const opp = h("select", {id: "opponent", "aria-label": "opponent"},
    [1, 2, 3, 4, 5].map(l => h("option", {value: "computer:" + l, selected: l === 2},
      `the computer, level ${l} (${["beginner", "easy", "fair", "strong", "very strong"][l - 1]})`)),
    h("option", {value: "human"}, "a person on another device (you get a link)"));
  const seat = h("select", {id: "seat", "aria-label": "your seat"},
    h("option", {value: "1"}, "as player 1"), h("option", {value: "2"}, "as player 2"));
  const msg = h("p", {class: "msg"});
  const start = h("button", {id: "start", onclick: async () => {
    const me = +seat.value, players = ["human", "human"];
    players[2 - me] = opp.value;
    try {
      const g = await api("POST", "games", {ruleset: pick.value, players});
      remember(g.id, g.tokens[String(me)], me);
      if (g.tokens[String(3 - me)]) sessionStorage.setItem("kemet.invite." + g.id, g.tokens[String(3 - me)]);
      location.hash = `#/game/${g.id}/${g.tokens[String(me)]}`;
    } catch (e) { msg.textContent = e.message; msg.className = "msg bad"; }
  }}, "Start the game");
  const mine = h("div", {}, "…");
  app.replaceChildren(
    h("h1", {}, "Play a race game of ancient Egypt"),
    h("div", {class: "panel"}, h("div", {class: "row"}, h("label", {}, "Game ", pick), h("label", {}, "against ", opp), seat, start), msg),
    h("h2", {}, "Your games"), mine);
  const list = myGames();
  if (!list.length) { mine.textContent = "None yet."; return; }
  const got = (await api("GET", "games?ids=" + list.map(g => g.id).join(","))).games;
  const byId = Object.fromEntries(got.map(g => [g.id, g]));
  const rows = list.filter(g => byId[g.id]).map(g => {
    const x = byId[g.id];
    const other = x.players[2 - g.seat];
    const state = x.status === "over" ? (x.winner === g.seat ? "won" : x.winner === 0 ? "drawn" : "lost") : "in play";
    return h("tr", {}, h("td", {}, x.title), h("td", {}, "as " + x.players[g.seat - 1].name),
      h("td", {}, other.kind === "computer" ? "computer level " + other.level : "a person"),
      h("td", {}, state + ", " + x.plies + " moves"),
      h("td", {}, x.status === "over" ? h("a", {href: `#/replay/${x.id}`}, "replay")
                                      : h("a", {href: `#/game/${x.id}/${g.token}`}, "resume")));
  });
  mine.replaceChildren(h("table", {class: "games"}, h("tr", {}, h("th", {}, "game"), h("th", {}, "you"), h("th", {}, "against"), h("th", {}, "state"), h("th", {}, "")), rows));
}

/* ------------------------------------------------------------- game page */
function whoName(rs, p) { return rs.players[p - 1]; }
/* "White's", and "Hounds'" for a side named in the plural. */
function whose(rs, p) { const n = whoName(rs, p); return n.endsWith("s") ? `${n}'` : `${n}'s`; }

async function gamePage(id, token) {
  await getRulesets();
  if (view && view.events) view.events.close();
  view = {id, token, state: null, done: [], picked: null, next: null, msg: "", bad: false, hints: null};
  if (token) {
    try { const st = await api("GET", "games/" + id, undefined, token); remember(id, token, st.you); }
    catch (e) { app.replaceChildren(h("p", {class: "msg bad"}, e.message)); return; }
  }
  await refresh();
  const es = new EventSource(`/api/games/${id}/events`);
  es.addEventListener("change", ev => {
    const v = JSON.parse(ev.data).version;
    if (view && view.id === id && (!view.state || v !== view.state.version)) refresh();
  });
  view.events = es;
}

async function refresh() {
  const v = view;
  try {
    v.state = await api("GET", "games/" + v.id, undefined, v.token);
  } catch (e) {
    app.replaceChildren(h("p", {class: "msg bad"}, e.message));
    return;
  }
  v.done = [];
  v.picked = null;
  v.hints = null;
  await loadSteps();
  render();
}

function myTurn() {
  const st = view.state;
  return st.phase !== "over" && st.you === st.to;
}

async function loadSteps() {
  const st = view.state;
  view.next = null;
  if (!myTurn() || st.phase !== "move") return;
  const done = view.done.join("+");
  const r = await api("GET", `games/${view.id}/steps?done=${encodeURIComponent(done)}`);
  view.next = r.next;
  view.left = r.left;
  if (r.complete) await sendMove(done);
}

function say(text, bad) { view.msg = text; view.bad = !!bad; }

async function act(fn) {
  try { await fn(); } catch (e) { say(e.message, true); render(); }
}

async function sendMove(text) {
  await act(async () => {
    view.state = await api("POST", `games/${view.id}/move`, {move: text}, view.token);
    view.done = [];
    view.picked = null;
    view.hints = null;
    say("");
    await loadSteps();
    render();
  });
}

function squareOfCell(cell) {
  const st = view.state, rs = ruleset(st.ruleset);
  const path = rs.paths[st.to - 1];
  for (let sq = 1; sq < path.length; sq++) if (path[sq] === cell) return sq;
  return null;
}
function cellOfSquare(sq) {
  const st = view.state, rs = ruleset(st.ruleset);
  return rs.paths[st.to - 1][sq];
}
function splitStep(t) { const [f, to] = t.split("-"); return {f, to}; }

/* Why a move is not legal, in words (the server's kemet_explain). */
async function explain(move, fallback) {
  try {
    const r = await api("GET", `games/${view.id}/explain?move=${encodeURIComponent(move)}`);
    return r.legal ? fallback : r.reason;
  } catch (e) {
    return e.message;
  }
}

/* A hole (or a zone: "in", "off") chosen. */
async function choose(where) {
  const v = view, st = v.state, rs = ruleset(st.ruleset);
  if (!myTurn()) {
    say(st.phase === "over" ? "The game is over." : st.you ? `It is ${whose(rs, st.to)} turn.` : "You are watching this game.", true);
    return render();
  }
  if (st.phase === "throw") { say("Throw the sticks first.", true); return render(); }
  const steps = (v.next || []).map(splitStep);
  if (v.picked === null) {
    if (steps.some(x => x.f === where)) { v.picked = where; say(""); return render(); }
    const cell = where === "in" ? 0 : cellOfSquare(+where);
    if (where !== "in" && !(st.cells[cell - 1] || [0, 0])[st.to - 1]) {
      say(`There is no piece of ${whoName(rs, st.to)}'s on ${where}: pick one of the highlighted pieces.`, true);
      return render();
    }
    /* why not: ask about the plainest move of this piece */
    const val = (v.left && v.left[0]) || (st.throw && st.throw.values[0]) || 1;
    const to = where === "in" ? String(val) : String(+where + val);
    say(await explain([...v.done, where + "-" + to].join("+"), "Pick one of the highlighted pieces."), true);
    return render();
  }
  /* the picked piece again: unpick it, unless it may end where it began
     (carried back by a river to its own hole) */
  const step = steps.find(x => x.f === v.picked && x.to === where);
  if (where === v.picked && !step) { v.picked = null; say(""); return render(); }
  if (!step) {
    if (steps.some(x => x.f === where)) { v.picked = where; say(""); return render(); }
    say(await explain([...v.done, v.picked + "-" + where].join("+"), "That is not one of the highlighted moves."), true);
    return render();
  }
  v.done.push(v.picked + "-" + where);
  v.picked = null;
  await act(async () => { await loadSteps(); render(); });
}

function render() {
  const v = view, st = v.state, rs = ruleset(st.ruleset);
  const marks = {};
  const steps = (v.next || []).map(splitStep);
  let handMark = null, offMark = null;
  if (myTurn() && st.phase === "move") {
    if (v.picked === null) {
      for (const x of steps) {
        if (x.f === "in") handMark = "source"; else marks[cellOfSquare(+x.f)] = "source";
      }
    } else {
      if (v.picked === "in") handMark = "picked"; else marks[cellOfSquare(+v.picked)] = "picked";
      for (const x of steps.filter(x => x.f === v.picked)) {
        if (x.to === "off") offMark = "target";
        else marks[cellOfSquare(+x.to)] = x.to === x.f ? "picked target" : "target";
      }
    }
  }
  const board = drawBoard(rs, st.cells, marks, cell => {
    const sq = squareOfCell(cell);
    if (sq !== null) choose(String(sq));
  });
  const zone = (p, what, n, mark, where) => {
    const z = h("div", {class: "zone" + (mark && p === st.to ? " " + mark : ""), "data-zone": where + p},
                `${whoName(rs, p)} ${what}: ${n}`);
    if (mark && p === st.to) activate(z, () => choose(where));
    return z;
  };
  const zones = h("div", {class: "zones"},
    rs.in_hand ? [1, 2].map(p => zone(p, rs.in_hand, st.hand[p - 1], handMark, "in")) : null,
    rs.gone ? [1, 2].map(p => zone(p, rs.gone, st.gone[p - 1], offMark, "off")) : null);
  const turn = st.phase === "over"
    ? (st.winner ? `${whoName(rs, st.winner)} won${st.you ? (st.winner === st.you ? " — you won!" : " — you lost.") : "."}` : "The game is drawn.")
    : `${whoName(rs, st.to)} to ${st.phase === "throw" ? "throw" : "move"}` + (st.you ? (st.to === st.you ? " — your turn" : " — waiting") : " (watching)");
  const controls = h("div", {class: "row"});
  if (myTurn() && st.phase === "throw") {
    controls.append(h("button", {id: "throw", onclick: () => act(async () => {
      view.state = await api("POST", `games/${view.id}/throw`, {}, view.token);
      say(""); await loadSteps(); render();
    })}, "Throw the sticks"));
    for (const m of st.prethrow) controls.append(h("button", {class: "secondary", onclick: () => sendMove(m)}, "Instead: " + m));
  }
  if (myTurn() && v.done.length) controls.append(h("button", {class: "secondary", onclick: () => { v.done = []; v.picked = null; act(async () => { await loadSteps(); render(); }); }}, "Undo step"));
  if (myTurn()) controls.append(h("button", {class: "secondary", id: "hint", onclick: () => act(async () => {
    say("Thinking…"); render();
    v.hints = await api("POST", `games/${v.id}/hint`, {}, v.token);
    say(""); render();
  })}, "Hint"));
  const typed = h("input", {id: "typed", size: 12, placeholder: "e.g. 9-12", "aria-label": "type a move"});
  const typedForm = h("form", {class: "row", onsubmit: e => { e.preventDefault(); if (typed.value.trim()) sendMove(typed.value.trim()); }},
    typed, h("button", {class: "secondary", type: "submit"}, "Play typed move"));
  const invite = st.you && sessionStorage.getItem("kemet.invite." + st.id);
  const side = h("div", {class: "panel"},
    h("p", {class: "status", id: "turn"}, turn),
    drawThrow(st.throw),
    v.done.length ? h("p", {}, "Steps so far: " + v.done.join(" + ") + (v.left && v.left.length ? " — left: " + v.left.join(", ") : "")) : null,
    controls,
    myTurn() && st.phase === "move" ? typedForm : null,
    h("p", {class: "msg" + (v.bad ? " bad" : ""), id: "msg", role: "status"}, v.msg),
    v.hints ? h("ol", {class: "hints", id: "hints"}, v.hints.moves.map(m => h("li", {}, `${m.move} — ${(100 * m.chance).toFixed(1)}%${m.exact ? " (exact)" : ""}`))) : null,
    h("h3", {}, "Moves"),
    h("ol", {class: "log", id: "log", start: Math.max(1, st.plies - st.last.length + 1)},
      st.last.map(p => h("li", {}, `${whoName(rs, p.player)}: ${p.throw ? "threw " + p.throw.text + ", " : ""}${p.move === "pass" ? "" : "played " + p.move + ". "}${p.words}`))),
    h("p", {}, st.opening),
    invite ? h("div", {}, h("p", {}, "Send this link to the other player:"),
                h("p", {class: "link", id: "invite"}, `${location.origin}/#/game/${st.id}/${invite}`)) : null,
    h("p", {}, "Watch link: ", h("a", {href: `#/game/${st.id}`}, "spectator view"), " · ", h("a", {href: `#/replay/${st.id}`}, "replay"), " · ", h("a", {href: `/api/games/${st.id}/record`}, "record")),
    h("details", {}, h("summary", {}, "Rules of " + rs.title), h("pre", {}, rs.text), rs.board_note ? h("p", {}, rs.board_note) : null));
  app.replaceChildren(h("h1", {}, rs.title), h("div", {class: "layout"}, h("div", {}, board, zones), side));
}

/* ----------------------------------------------------------- replay page */
async function replayPage(id) {
  await getRulesets();
  if (view && view.events) view.events.close();
  view = null;
  const g = await api("GET", `games/${id}/history`);
  const rs = ruleset(g.ruleset);
  let k = g.history.length - 1;
  const holder = h("div", {}), words = h("p", {id: "replay-words"});
  const slider = h("input", {type: "range", min: 0, max: g.history.length - 1, value: k, "aria-label": "move number"});
  const show = () => {
    const p = g.history[k];
    holder.replaceChildren(drawBoard(rs, p.cells, {}, null));
    words.textContent = k === 0 ? "Start. " + p.words
      : `Move ${k}: ${whoName(rs, p.player)} ${p.throw ? "threw " + p.throw.text + ", " : ""}played ${p.move}. ${p.words}`;
    slider.value = k;
  };
  slider.addEventListener("input", () => { k = +slider.value; show(); });
  const step = d => { k = Math.max(0, Math.min(g.history.length - 1, k + d)); show(); };
  const page = h("div", {tabindex: 0, onkeydown: e => { if (e.key === "ArrowLeft") step(-1); if (e.key === "ArrowRight") step(1); }},
    h("h1", {}, "Replay: " + rs.title),
    holder,
    h("div", {class: "row"}, h("button", {onclick: () => { k = 0; show(); }}, "⏮"), h("button", {id: "prev", onclick: () => step(-1)}, "◀ previous"),
      slider, h("button", {id: "next", onclick: () => step(1)}, "next ▶"), h("button", {onclick: () => { k = g.history.length - 1; show(); }}, "⏭")),
    words,
    h("p", {}, g.status === "over" ? (g.winner ? whoName(rs, g.winner) + " won." : "Drawn.") : "The game is still in play."));
  app.replaceChildren(page);
  show();
}

/* ---------------------------------------------------------------- router */
async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "game" && parts[1]) await gamePage(parts[1], parts[2] || null);
    else if (parts[0] === "replay" && parts[1]) await replayPage(parts[1]);
    else await home();
  } catch (e) {
    app.replaceChildren(h("p", {class: "msg bad"}, e.message), h("a", {href: "#/"}, "Back"));
  }
}
window.addEventListener("hashchange", route);
document.addEventListener("keydown", e => {
  if (!view || !view.state || e.target.tagName === "INPUT") return;
  if (e.key === "t" && myTurn() && view.state.phase === "throw") document.getElementById("throw").click();
  if (e.key === "Escape" && view.picked !== null) { view.picked = null; render(); }
});
route();
