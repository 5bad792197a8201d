/* game.js - a game: playing with a seat's token, or watching. */
import {app, h, activate, remember, inviteFor, keepInvite} from "./util.js";
import {api, getRulesets, ruleset, offline} from "./api.js";
import {offlineWatch} from "./offline.js";
import {drawBoard, drawThrow, moveCells, legend} from "./board.js";

let view = null; /* the current game view, or null */

/* The changes of games reach the page by one event stream per game, held
 * by a worker all of the site's tabs share (events.js); where there is no
 * SharedWorker, by the tab's own stream. watch(id, fn) returns the
 * function that stops watching. */
let shared = null;
function watch(id, fn) {
  if (offline) return offlineWatch(id, fn);
  if (typeof SharedWorker === "function") {
    try {
      if (!shared) {
        shared = new SharedWorker("/events.js", {name: "kemet-events"});
        shared.port.start();
        shared.handlers = new Map();
        shared.port.onmessage = m => { const f = shared.handlers.get(m.data.id); if (f) f(m.data.version); };
        addEventListener("pagehide", () => { for (const g of shared.handlers.keys()) shared.port.postMessage({unwatch: g}); });
      }
      shared.handlers.set(id, fn);
      shared.port.postMessage({watch: id});
      return () => { shared.handlers.delete(id); shared.port.postMessage({unwatch: id}); };
    } catch (e) { /* no shared worker here: a stream of the tab's own */ }
  }
  const es = new EventSource(`/api/games/${id}/events`);
  es.addEventListener("change", ev => fn(JSON.parse(ev.data).version));
  return () => es.close();
}

/* Leaves the game on show, if any (its event stream closed). */
export function leaveGame() {
  if (view && view.stop) view.stop();
  view = null;
}

/* The keys of the game page: t throws, Escape drops the picked piece. */
export function gameKey(e) {
  if (!view || !view.state || e.target.tagName === "INPUT") return;
  if (e.key === "t" && myTurn() && view.state.phase === "throw") document.getElementById("throw").click();
  if (e.key === "Escape" && view.picked !== null) { view.picked = null; render(); }
}

export function whoName(rs, p) { return rs.players[p - 1]; }
/* "White's", and "Hounds'" for a side named in the plural. */
function whose(rs, p) { const n = whoName(rs, p); return n.endsWith("s") ? `${n}'` : `${n}'s`; }

/* An invitation's link: the seat's token is checked and kept by this
 * browser, and the address loses it (history, bookmarks and a shared
 * address never carry it). */
export async function joinGame(id, token) {
  let st;
  try { st = await api("GET", "games/" + id, undefined, token); }
  catch (e) { app.replaceChildren(h("p", {class: "msg bad"}, e.message), h("a", {href: "#/"}, "Back")); return; }
  remember(id, token, st.you);
  history.replaceState(null, "", `#/game/${id}`);
  await gamePage(id, token);
}

/* The game's record (docs/notation.md) as a file: offline, where there
 * is no address to fetch it from. */
async function saveRecord(id) {
  const text = await api("GET", `games/${id}/record`);
  const a = h("a", {href: URL.createObjectURL(new Blob([text], {type: "text/plain"})), download: `kemet-${id}.txt`});
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/* A new game like the one that just ended: same ruleset, same seats. */
async function rematch() {
  const st = view.state;
  const players = st.players.map(p => p.kind === "computer" ? {computer: p.level} : "human");
  const g = await api("POST", "games", {ruleset: st.ruleset, players});
  remember(g.id, g.tokens[String(st.you)], st.you);
  if (!offline && g.tokens[String(3 - st.you)]) keepInvite(g.id, g.tokens[String(3 - st.you)]);
  location.hash = `#/game/${g.id}`;
}

export async function gamePage(id, token) {
  await getRulesets();
  leaveGame();
  view = {id, token, state: null, done: [], picked: null, next: null, msg: "", bad: false, hints: null};
  if (token) {
    try { const st = await api("GET", "games/" + id, undefined, token); remember(id, token, st.you); }
    catch (e) { app.replaceChildren(h("p", {class: "msg bad"}, e.message)); return; }
  }
  const mine = view;
  await refresh();
  if (view !== mine) return;
  view.stop = watch(id, v => {
    if (view === mine && (!view.state || v !== view.state.version)) refresh();
  });
}

/* Takes a state the server sent, unless the view moved on meanwhile (to
 * another game, or to a newer state of this one: answers may arrive out
 * of order, an event stream's read overtaking one's own move's answer). */
function accept(v, st) {
  if (v !== view || (v.state && st.version < v.state.version)) return false;
  v.state = st;
  return true;
}

async function refresh() {
  const v = view;
  try {
    if (!accept(v, await api("GET", "games/" + v.id, undefined, v.token))) return;
  } catch (e) {
    if (v === view) app.replaceChildren(h("p", {class: "msg bad"}, e.message));
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
    const v = view;
    if (!accept(v, await api("POST", `games/${v.id}/move`, {move: text}, v.token))) return;
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
function splitStep(t) { const p = t.split("-"); return {f: p[0], to: p[p.length - 1], text: t}; }

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
      say(`There is no piece of ${whose(rs, st.to)} on ${where}: pick one of the highlighted pieces.`, true);
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
  v.done.push(step.text);
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
  /* the last move (one's own or the other side's), from and to */
  const last = st.last.length ? st.last[st.last.length - 1] : null;
  if (last && !Object.keys(marks).length) {
    const m = moveCells(rs, last.player, last.move);
    for (const c of [...m.from, ...m.to]) marks[c] = "last";
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
  /* offline, two people at one device: both sides are "you" */
  const both = offline && st.players.every(p => p.kind === "human");
  const turn = st.phase === "over"
    ? (st.resigned ? `${whoName(rs, st.resigned)} resigned. ` : "") +
      (st.winner ? `${whoName(rs, st.winner)} won${st.you && !both ? (st.winner === st.you ? " — you won!" : " — you lost.") : "."}` : "The game is drawn.")
    : `${whoName(rs, st.to)} to ${st.phase === "throw" ? "throw" : "move"}` +
      (both ? " — your turn" : st.you ? (st.to === st.you ? " — your turn" : " — waiting") : " (watching)");
  const controls = h("div", {class: "row"});
  if (myTurn() && st.phase === "throw") {
    controls.append(h("button", {id: "throw", onclick: () => act(async () => {
      const w = view;
      if (!accept(w, await api("POST", `games/${w.id}/throw`, {}, w.token))) return;
      say(""); await loadSteps(); render();
    })}, "Throw the sticks"));
    for (const m of st.prethrow) controls.append(h("button", {class: "secondary", onclick: () => sendMove(m)}, "Instead: " + m));
  }
  if (myTurn() && v.done.length) controls.append(h("button", {class: "secondary", onclick: () => { v.done = []; v.picked = null; act(async () => { await loadSteps(); render(); }); }}, "Undo step"));
  if (st.you && st.phase !== "over") controls.append(h("button", {class: "secondary", id: "resign", onclick: () => act(async () => {
    if (!confirm(`Resign, and let ${whoName(rs, 3 - st.you)} win?`)) return;
    const w = view;
    if (!accept(w, await api("POST", `games/${w.id}/resign`, {}, w.token))) return;
    say(""); render();
  })}, "Resign"));
  const vsComputer = st.you && st.players[2 - st.you].kind === "computer";
  if (vsComputer && st.phase !== "over" && st.plies > 0) controls.append(h("button", {class: "secondary", id: "takeback", onclick: () => act(async () => {
    const w = view;
    if (!accept(w, await api("POST", `games/${w.id}/takeback`, {}, w.token))) return;
    v.done = []; v.picked = null; v.hints = null;
    say("Your last move is taken back: the same throw is yours again."); await loadSteps(); render();
  })}, "Take back"));
  if (myTurn()) controls.append(h("button", {class: "secondary", id: "hint", onclick: () => act(async () => {
    say("Thinking…"); render();
    v.hints = await api("POST", `games/${v.id}/hint`, {}, v.token);
    say(""); render();
  })}, "Hint"));
  const typed = h("input", {id: "typed", size: 12, placeholder: "e.g. 9-12", "aria-label": "type a move"});
  const typedForm = h("form", {class: "row", onsubmit: e => { e.preventDefault(); if (typed.value.trim()) sendMove(typed.value.trim()); }},
    typed, h("button", {class: "secondary", type: "submit"}, "Play typed move"));
  const invite = st.you && inviteFor(st.id);
  const inviteLink = invite ? `${location.origin}${location.pathname}#/join/${st.id}/${invite}` : "";
  const copied = h("span", {class: "msg", role: "status"});
  const side = h("div", {class: "panel"},
    h("p", {class: "status", id: "turn", "data-version": st.version}, turn),
    drawThrow(st.throw),
    v.done.length ? h("p", {}, "Steps so far: " + v.done.join(" + ") + (v.left && v.left.length ? " — left: " + v.left.join(", ") : "")) : null,
    controls,
    myTurn() && st.phase === "move" ? typedForm : null,
    h("p", {class: "msg" + (v.bad ? " bad" : ""), id: "msg", role: "status"}, v.msg),
    v.hints ? h("ol", {class: "hints", id: "hints"}, v.hints.moves.map(m => h("li", {}, `${m.move} — ${(100 * m.chance).toFixed(1)}%${m.exact ? " (exact)" : ""}`))) : null,
    st.phase === "over" && st.you ? h("div", {class: "row"},
      h("button", {id: "rematch", onclick: () => act(rematch)}, "Rematch"),
      h("a", {href: "#/", class: "button secondary"}, "New game"),
      h("a", {href: `#/replay/${st.id}`, class: "button secondary"}, "Review")) : null,
    h("h3", {}, "Moves"),
    h("ol", {class: "log", id: "log", start: Math.max(1, st.plies - st.last.length + 1)},
      st.last.map(p => h("li", {}, `${whoName(rs, p.player)}: ${p.throw ? "threw " + p.throw.text + ", " : ""}${p.move === "pass" ? "" : "played " + p.move + ". "}${p.words}`))),
    h("p", {}, st.opening),
    invite ? h("div", {}, h("p", {}, "Send this link to the other player (it gives their seat; keep it to them):"),
                h("p", {class: "link", id: "invite"}, inviteLink),
                h("button", {class: "secondary", id: "copy-invite", onclick: async () => {
                  try { await navigator.clipboard.writeText(inviteLink); copied.textContent = " copied"; }
                  catch (e) { copied.textContent = " select the link and copy it"; }
                }}, "Copy the link"), copied) : null,
    h("p", {}, "Watch link: ", h("a", {href: `#/game/${st.id}`}, "spectator view"), " · ", h("a", {href: `#/replay/${st.id}`}, "replay"), " · ", offline
      ? h("a", {href: "#", id: "record", onclick: e => { e.preventDefault(); act(() => saveRecord(st.id)); }}, "record")
      : h("a", {href: `/api/games/${st.id}/record`}, "record")),
    h("details", {}, h("summary", {}, "Rules of " + rs.title), h("pre", {}, rs.text), rs.board_note ? h("p", {}, rs.board_note) : null));
  if (localStorage.getItem("kemet.numbers") === "1") board.classList.add("numbers");
  const numbers = h("label", {class: "small"}, h("input", {type: "checkbox", id: "numbers", checked: localStorage.getItem("kemet.numbers") === "1",
    onchange: e => { localStorage.setItem("kemet.numbers", e.target.checked ? "1" : "0"); board.classList.toggle("numbers", e.target.checked); }}), " hole numbers");
  /* what just happened, read out by screen readers (and nothing else) */
  const heard = h("div", {class: "sr-only", "aria-live": "polite", id: "heard"},
    last ? `${whoName(rs, last.player)}: ${last.throw ? "threw " + last.throw.text + ", " : ""}${last.move === "pass" ? "" : "played " + last.move + ". "}${last.words}` : "");
  app.replaceChildren(h("h1", {}, rs.title), h("div", {class: "layout"}, h("div", {}, h("div", {class: "boardwrap"}, board), legend(rs, st.you), numbers, zones), side), heard);
  const log = document.getElementById("log");
  if (log) log.scrollTop = log.scrollHeight;
}

