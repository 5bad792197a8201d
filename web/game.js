/* game.js - a game: playing with a seat's token, or watching.
 *
 * Every change of the game is shown as it happened: each ply since the
 * one on show is played back in order (the piece glides along its path,
 * the move's arrow stays until the next move), at a readable pace,
 * skippable, with no gliding where the reader asked for reduced motion. */
import {getItem, setItem} from "./store.js";
import {app, h, activate, remember, inviteFor, keepInvite, motion, setMotion, errorPage} from "./util.js";
import {api, getRulesets, ruleset, offline, serverInfo} from "./api.js";
import {offlineWatch} from "./offline.js";
import {drawBoard, fitBoard, drawThrow, moveSteps, moveCells, legend, glide, moveWords, stepWords, threwWords, reducedMotion, endWords, pieceSvg, whose} from "./board.js";

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
  if (view) view.gone = true;
  view = null;
}

/* The keys of the game page: t throws, Escape drops the picked piece or
 * skips the moves being played back. */
export function gameKey(e) {
  if (!view || !view.state || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const t = document.getElementById("throw");
  if (e.key === "t" && t && !t.disabled) t.click();
  if (e.key === "Escape" && view.playing) view.skip = true;
  else if (e.key === "Escape" && view.picked !== null) { view.picked = null; render(); }
}

/* A turned phone may want the board drawn the other way. */
let resized = null;
addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => { if (view && view.state && !view.playing) render(); }, 150);
});

export function whoName(rs, p) { return rs.players[p - 1]; }

/* An invitation's link: the seat's token is checked and kept by this
 * browser, and the address loses it (history, bookmarks and a shared
 * address never carry it). */
export async function joinGame(id, token) {
  let st;
  try { st = await api("GET", "games/" + id, undefined, token); }
  catch (e) { errorPage(e.message); return; }
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

/* A rematch: offered to the other player (or, against the computer,
 * started at once); once the new game exists both pages move to it. */
async function rematch(v) {
  const st = v.state;
  let r;
  try {
    r = await api("POST", `games/${st.id}/rematch`, {}, v.token);
  } catch (e) {
    if (e.status !== 404 && e.status !== 405) throw e;
    /* a server without rematches: a new game like this one, for this side */
    const players = st.players.map(p => p.kind === "computer" ? {computer: p.level} : "human");
    const g = await api("POST", "games", {ruleset: st.ruleset, players});
    const mine = g.seated ? g.seated[st.you - 1] : st.you;
    r = {id: g.id, token: g.tokens[String(mine)], you: mine};
    if (!offline && g.tokens[String(3 - mine)]) keepInvite(g.id, g.tokens[String(3 - mine)]);
  }
  if (r && r.id && r.token) {
    remember(r.id, r.token, r.you);
    if (v === view) location.hash = `#/game/${r.id}`;
  } else if (r && r.offered_by) {
    v.rematchOffered = true;
    say(`Rematch offered: waiting for ${whoName(ruleset(st.ruleset), 3 - st.you)} to accept.`);
  }
}

export async function gamePage(id, token) {
  await getRulesets();
  leaveGame();
  const v = view = {id, token, state: null, done: [], picked: null, next: null, left: null, msg: "", bad: false,
                    hints: null, busy: false, playing: false, skip: false, queue: null, reading: false, again: false};
  let st;
  try { st = await api("GET", "games/" + id, undefined, token); }
  catch (e) {
    if (view === v) errorPage(e.status === 404 ? `There is no game ${id} on this ${offline ? "browser" : "server"}.` : e.message);
    return;
  }
  if (view !== v) return;
  if (token && st.you) remember(id, token, st.you);
  v.state = st;
  await loadSteps(v);
  if (view !== v) return;
  render();
  v.stop = watch(id, version => {
    if (view === v && (!v.state || version !== v.state.version)) refresh(v);
  });
  if (!offline) serverInfo().then(() => { if (view === v && !v.playing) render(); });
}

/* Reads the state, one read at a time (a change meanwhile reads again). */
async function refresh(v) {
  if (v.reading) { v.again = true; return; }
  v.reading = true;
  try {
    do {
      v.again = false;
      let st;
      try { st = await api("GET", "games/" + v.id, undefined, v.token); }
      catch (e) {
        if (v !== view) return;
        say(e.message, true); render();
        if (e.network) setTimeout(() => { if (v === view) refresh(v); }, 2000);
        return;
      }
      await take(v, st);
    } while (v.again && v === view);
  } finally { v.reading = false; }
}

/* Takes a state the server sent, unless the view moved on meanwhile (to
 * another game, or to a newer state: answers may arrive out of order). A
 * state of the version on show changes nothing, so a late read never
 * wipes a piece picked or steps entered. The plies made since the state
 * on show are played back first. */
async function take(v, st) {
  if (v !== view) return;
  const cur = v.queue || v.state;
  if (cur && st.version <= cur.version) return;
  if (v.playing) { v.queue = st; return; }
  v.playing = true;
  try {
    let next = st;
    while (next) {
      v.queue = null;
      await playBack(v, v.state, next);
      if (v !== view) return;
      v.state = next;
      v.done = []; v.picked = null; v.ways = null; v.hints = null; v.allHints = false; v.rematchOffered = v.rematchOffered && !!next.rematch;
      await loadSteps(v);
      next = v.queue && v.queue.version > v.state.version ? v.queue : null;
    }
  } finally { v.playing = false; v.skip = false; }
  if (v === view) {
    render();
    followRematch(v);
  }
}

/* The plies between two states, each with the cells after it: from the
 * new state alone when one ply was made, else from the game's history. */
async function pliesBetween(v, a, b) {
  if (!a || b.plies <= a.plies) return [];
  if (b.plies === a.plies + 1 && b.last.length && b.last[b.last.length - 1].ply === b.plies)
    return [{...b.last[b.last.length - 1], cells: b.cells}];
  /* (a busy server may refuse a request: asked again, twice, before the
     plies are shown without their glide) */
  for (let tries = 0; tries < 3; tries++) {
    try {
      const g = await api("GET", `games/${v.id}/history`, undefined, v.token);
      return g.history.filter(p => p.ply > a.plies && p.ply <= b.plies);
    } catch (e) { await new Promise(res => setTimeout(res, 200 * (tries + 1))); }
  }
  return [];
}

/* Plays back the plies from state a to state b: each move's piece glides
 * along its path, then the board shows the position after it with the
 * move's arrow and anything taken ringed. */
async function playBack(v, a, b) {
  const plies = await pliesBetween(v, a, b);
  if (!plies.length || v !== view) return;
  const rs = ruleset(b.ruleset), mode = motion();
  if (mode === "off") return;
  document.body.dataset.playing = "1";
  let cells = a.cells;
  try {
    for (const p of plies) {
      if (v !== view) return;
      const fast = v.skip;
      const steps = moveSteps(rs, p.player, p.move, p.throw ? p.throw.values : []);
      /* the piece leaves its hole and glides */
      const before = cells.map(c => c.slice());
      for (const st of steps) {
        const cell = st.from === "in" ? 0 : rs.paths[p.player - 1][+st.from];
        if (cell && before[cell - 1] && before[cell - 1][p.player - 1] > 0) { before[cell - 1][p.player - 1]--; break; }
      }
      const board = drawBoard(rs, before, {you: b.you || 1, ply: p.ply, numbers: numbersOn()});
      board.dataset.anim = "1";
      showPlaying(v, rs, b, board, `${whoName(rs, p.player)}${p.throw ? " " + threwWords(rs, p.throw) : ""}` +
                  (p.move === "pass" ? ": no move (the throw is lost)." : ": " + moveWords(rs, p.move, seen(b, p)) + "."));
      if (!fast && steps.length) await glide(board, rs, p.player, steps, mode === "fast" ? 2.2 : 1);
      /* the position after it, with the move's arrow */
      const after = drawBoard(rs, p.cells, {you: b.you || 1, ply: p.ply, numbers: numbersOn(),
        arrows: lastArrow(rs, p, b.you || 1), struck: struck(rs, p, cells, p.cells)});
      showPlaying(v, rs, b, after, p.words);
      cells = p.cells;
      if (!fast) await pause(v, reducedMotion() ? 900 : mode === "fast" ? 250 : 600);
    }
  } finally { delete document.body.dataset.playing; }
}
function pause(v, ms) {
  return new Promise(res => {
    const t0 = performance.now();
    const tick = () => (v.skip || performance.now() - t0 >= ms || v !== view) ? res() : setTimeout(tick, 40);
    tick();
  });
}
/* While plies are played back: the board, what happens, a skip button. */
function showPlaying(v, rs, st, board, words) {
  const holder = document.getElementById("boardholder");
  if (!holder) return;
  holder.replaceChildren(board);
  board.addEventListener("click", () => { v.skip = true; });
  const line = document.getElementById("turn");
  if (line) { line.textContent = words; line.dataset.playing = "1"; }
  const hints = document.getElementById("hints");
  if (hints) hints.remove();
  const bar = document.getElementById("actions");
  if (bar) {
    bar.hidden = false;
    bar.replaceChildren(h("button", {class: "secondary", id: "skip", onclick: () => { v.skip = true; }}, "Skip ▸▸"));
  }
}

/* The cells where the mover took something: the other side has fewer
 * pieces there after the ply than before. */
function struck(rs, p, before, after) {
  const o = 2 - p.player, out = [];
  for (let i = 0; i < after.length; i++) if ((after[i] || [0, 0])[o] < (before[i] || [0, 0])[o]) out.push(i + 1);
  return out;
}
/* How a ply is read by the seat looking (player 1 for a spectator): its
 * squares in that seat's numbers, as the board is numbered for it. */
function seen(st, p) {
  return {who: p.player, viewer: st.you || 1, values: p.throw ? p.throw.values : []};
}
function lastArrow(rs, p, viewer) {
  if (!p || !p.move || p.move === "pass") return [];
  return [{steps: moveSteps(rs, p.player, p.move, p.throw ? p.throw.values : []), kind: "last", move: "",
           title: `last move: ${whoName(rs, p.player)}, ${moveWords(rs, p.move, {who: p.player, viewer, values: p.throw ? p.throw.values : []})}`}];
}

function myTurn(v = view) {
  const st = v.state;
  return st.phase !== "over" && st.you === st.to;
}

async function loadSteps(v) {
  const st = v.state;
  v.next = null;
  if (!myTurn(v) || st.phase !== "move") return;
  const done = v.done.join("+");
  const r = await api("GET", `games/${v.id}/steps?done=${encodeURIComponent(done)}`);
  if (v !== view || v.state !== st) return;
  v.next = r.next;
  v.left = r.left;
  v.finish = r.ways || null; /* a turn begun: the ways to finish it */
  v.mid = v.done.length ? r.cells : null; /* the board as the steps so far leave it */
  if (r.complete) await sendMove(v, done);
}

function say(text, bad) { if (view) { view.msg = text; view.bad = !!bad; } }

/* An action: its buttons disabled until the answer, its state taken. */
async function act(fn) {
  const v = view;
  if (!v || v.busy) return;
  v.busy = true;
  for (const b of document.querySelectorAll("#actions button, #side button.act")) b.disabled = true;
  try { await fn(v); }
  catch (e) { if (v === view) say(e.message, true); }
  finally { v.busy = false; }
  if (v === view && !v.playing) render();
}

async function post(v, what, body) {
  const st = await api("POST", `games/${v.id}/${what}`, body || {}, v.token);
  say("");
  await take(v, st);
}

async function sendMove(v, text) {
  if (v.busy && v.sending) return;
  v.sending = true;
  try { await post(v, "move", {move: text}); }
  catch (e) { say(e.message, true); v.done = []; v.picked = null; v.ways = null; await loadSteps(v); }
  finally { v.sending = false; }
}

/* A typed move: sent when it is one of the legal moves; anything else
 * is read as the server reads it and, if written well, the server is
 * asked why it is not legal (it may be a short form of a legal move: then
 * it is sent). A move that is not legal is explained, as the server's
 * refusal would, without a request refused. */
async function typedMove(v, text) {
  const st = v.state;
  if (!(st.moves || []).includes(text)) {
    let why = notationError(ruleset(st.ruleset), text);
    if (!why) {
      try {
        const r = await api("GET", `games/${v.id}/explain?move=${encodeURIComponent(text)}`);
        why = r.legal ? "" : r.reason;
      } catch (e) { why = e.message; }
    }
    if (v !== view || v.state !== st) return;
    if (why) {
      say(why, true);
      v.done = []; v.picked = null; v.ways = null;
      await loadSteps(v);
      return;
    }
  }
  await sendMove(v, text);
}

/* What is wrong with a move's writing (docs/notation.md), in the words of
 * the library's reader (kemet_move_parse), or "" where it reads well:
 * FROM-TO or FROM-END-TO steps joined by "+" (at most 8), FROM a square
 * or "in", TO a square or "off", or "pass". */
function notationError(rs, text) {
  if (text === "pass") return "";
  const end = (x, what) => {
    if ((what === "from" && x === "in") || (what === "to" && x === "off")) return "";
    if (!/^[0-9]{1,4}$/.test(x)) return `'${x.slice(0, 20)}' is not a square${what === "from" ? " or 'in'" : what === "to" ? " or 'off'" : ""}`;
    return +x < 1 || +x > rs.squares ? `square ${+x} is outside the board (1-${rs.squares})` : "";
  };
  const steps = text.split("+");
  for (let i = 0; i < steps.length; i++) {
    const x = steps[i].split("-");
    if (x.length < 2 || x.length > 3) return `'${text.slice(0, 40)}' is not a move (FROM-TO, FROM-END-TO, or pass)`;
    if (i === 8) return `too many steps in '${text.slice(0, 40)}'`;
    const why = end(x[0], "from") || (x.length === 3 ? end(x[1], "via") : "") || end(x[x.length - 1], "to");
    if (why) return why;
  }
  return "";
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

/* The library's reason for a player who taps rather than writes: without
 * the notation it may add (": write 5-6-20"). */
function plain(why) { return (why || "").replace(/^write [\w-]+: /, "").replace(/:?\s*write [\w-]+(\s|$).*$/, "").replace(/\.$/, ""); }
const cap = x => x.charAt(0).toUpperCase() + x.slice(1);

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
  if (v.playing) { v.skip = true; return; }
  if (v.busy) return;
  if (!myTurn()) {
    say(st.phase === "over" ? "The game is over." : st.you ? `It is ${whose(rs, st.to)} turn.` : "You are watching this game.", true);
    return render();
  }
  if (st.phase === "throw") { say("Throw the sticks first.", true); return render(); }
  const steps = (v.next || []).map(splitStep);
  v.ways = null;
  if (v.picked === null) {
    if (steps.some(x => x.f === where)) { v.picked = where; say(""); return render(); }
    const cell = where === "in" ? 0 : cellOfSquare(+where);
    const cells = v.done.length && v.mid ? v.mid : st.cells;
    if (where !== "in" && !(cells[cell - 1] || [0, 0])[st.to - 1]) {
      say(`None of your pieces is on ${where}: pick one of the highlighted pieces.`, true);
      return render();
    }
    /* why not: ask about the plainest move of this piece */
    const val = (v.left && v.left[0]) || (st.throw && st.throw.values[0]) || 1;
    const to = where === "in" ? String(val) : String(+where + val);
    const why = plain(await explain([...v.done, where + "-" + to].join("+"), ""));
    const piece = where === "in" ? "A new piece" : `The piece on ${where}`;
    say(!why || /^no value/.test(why) ? `${piece} cannot move with this throw${v.left && v.left.length ? ` (${v.left.join(", ")})` : ""}: pick one of the highlighted pieces.`
      : /^(the piece on|a new piece)/i.test(why) ? `${cap(why)}. Pick one of the highlighted pieces.`
      : `${piece} cannot move: ${why}. Pick one of the highlighted pieces.`, true);
    return render();
  }
  /* the picked piece again: unpick it, unless it may end where it began
     (carried back by a river to its own hole) */
  const ways = steps.filter(x => x.f === v.picked && x.to === where);
  if (ways.length > 1) { /* a count onto a line's or river's end and one straight there (7-13-9, 7-9-9) */
    v.ways = ways;
    say(`Two ways end on ${where}: choose one below.`);
    return render();
  }
  const step = ways[0];
  if (where === v.picked && !step) { v.picked = null; say(""); return render(); }
  if (!step) {
    if (steps.some(x => x.f === where)) { v.picked = where; say(""); return render(); }
    /* the library's reason, where it names a rule; else in plain words
       where this piece may go */
    const why = plain(await explain([...v.done, v.picked + "-" + where].join("+"), ""));
    const piece = v.picked === "in" ? "The new piece" : `The piece on ${v.picked}`;
    const there = where === "off" ? `be ${rs.gone || "borne off"}` : `go to ${where}`;
    const can = [...new Set(steps.filter(x => x.f === v.picked).map(x => x.to === "off" ? rs.gone || "off" : x.to))];
    const tail = can.length ? ` It can go to ${can.join(" or ")} (in blue).` : "";
    say((!why || /^no value/.test(why) ? `${piece} cannot ${there} with this throw${v.left && v.left.length ? ` (${v.left.join(", ")})` : ""}.`
      : /^(the piece on|a new piece|a \d+ takes)/i.test(why) ? `${cap(why)}.`
      : `${piece} cannot ${there}: ${why}.`) + tail, true);
    return render();
  }
  await takeStep(step);
}

async function takeStep(step) {
  const v = view;
  v.done.push(step.text);
  v.picked = null;
  v.ways = null;
  await act(async w => { await loadSteps(w); });
}

const pct = x => Math.round(100 * x) + "%";
const pct1 = x => (100 * x).toFixed(1) + "%";
/* Chances as shown side by side: with the fewest decimals (1 to 3) that
 * tell each from the next where they differ, and each one's points
 * behind the first's. */
function chanceTexts(list) {
  let d = 1;
  const f = k => list.map(m => (100 * m.chance).toFixed(k));
  while (d < 3 && f(d).some((x, i) => i && x === f(d)[i - 1] && list[i].chance !== list[i - 1].chance)) d++;
  const top = list.length ? list[0].chance : 0;
  return list.map((m, i) => {
    const gap = 100 * (top - m.chance);
    return {chance: (100 * m.chance).toFixed(d) + "%",
            diff: i === 0 ? "" : gap < 0.5 * Math.pow(10, -d) ? "as good" : `${gap.toFixed(d)} less`};
  });
}
/* A phone held upright: the page in one column. */
function narrow() { return typeof matchMedia === "function" && matchMedia("(max-width: 820px) and (orientation: portrait)").matches; }
/* the squares' numbers: shown unless the player hid them */
function numbersOn() { return getItem("kemet.numbers") !== "0"; }

/* The hints fitting the steps entered so far, best first: before a step,
 * the moves ranked; in a turn begun, each way to finish it (the steps
 * made first, in the order made) with the chance of the listed move that
 * ends the same (the server's `ways`). */
function hintsNow(v) {
  if (!v.hints || v.hints.version !== v.state.version) return [];
  const moves = v.hints.moves.filter(m => m.move !== "throw");
  if (!v.done.length) return moves;
  const by = new Map(moves.map(m => [m.move, m]));
  const out = [];
  for (const w of v.finish || []) {
    const m = by.get(w.as);
    if (m) out.push({...m, move: w.move});
  }
  if (!out.length) return moves.filter(m => v.done.every((d, i) => m.move.split("+")[i] === d));
  return out.sort((a, b) => b.chance - a.chance);
}
/* What is left of a hinted move once the steps made are taken off. */
function rest(v, move) { return move.split("+").slice(v.done.length).join("+"); }

/* The line that says whose turn it is and what to do. */
function turnLine(v, rs) {
  const st = v.state;
  const both = offline && st.players.every(p => p.kind === "human");
  const other = st.players[st.to - 1];
  if (st.phase === "over") {
    /* who won, and why the game ended (from the final position) */
    const why = st.resigned ? "" : endWords(rs, st);
    return (st.resigned ? `${whoName(rs, st.resigned)} resigned. ` : "") +
      (st.winner ? `${whoName(rs, st.winner)} won${st.you && !both ? (st.winner === st.you ? " — you won!" : " — you lost.") : "."}` : "The game is drawn.") +
      (why ? " " + why : "");
  }
  const what = `${whoName(rs, st.to)} to ${st.phase === "throw" ? "throw" : "move"}`;
  if (!st.you) return what + " (watching)";
  if (myTurn(v) || both) {
    if (st.phase === "throw") return what + " — your turn: throw the sticks" + (st.prethrow.length ? " or make the move offered instead" : "") + ".";
    const left = v.done.length && v.left && v.left.length ? ` Still to use: ${v.left.join(", ")}.` : "";
    /* a piece to enter is picked beside the board, under it */
    const steps = (v.next || []).map(splitStep), hand = `"${whoName(rs, st.to)} ${rs.in_hand}" under the board`;
    const enter = steps.some(x => x.f === "in"), onBoard = steps.some(x => x.f !== "in");
    const pick = enter && !onBoard ? `bring a new piece on: tap ${hand}.`
      : enter ? `pick a highlighted piece, or a new one from ${hand}.` : "pick a highlighted piece.";
    return what + ` — your turn: ${threwWords(rs, st.throw, true)}; ` +
      (v.picked === null ? pick : v.picked === "in" ? "now pick where the new piece goes (blue)." : "now pick where it goes (blue).") + left;
  }
  if (other.kind === "computer") return what + ` — waiting: the computer (level ${other.level}) is thinking…`;
  return what + ` — waiting for the other player.`;
}

function render() {
  const v = view, st = v.state, rs = ruleset(st.ruleset);
  if (v.playing) return;
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
  /* the last move (one's own or the other side's), drawn as an arrow
     until the next move is made; the hints as arrows with their chances */
  const last = st.last.length ? st.last[st.last.length - 1] : null;
  const lastMove = [...st.last].reverse().find(p => p.move && p.move !== "pass");
  const arrows = lastMove ? lastArrow(rs, lastMove, st.you || 1) : [];
  /* (the best three moves, each labelled with its rank in the list; of
     turns of several steps the best only, its steps numbered) */
  const hints = hintsNow(v), shown = chanceTexts(hints.slice(0, 3));
  const multi = hints.some(m => m.move.split("+").length - v.done.length > 1);
  const drawn = hints.slice(0, multi ? 1 : 3);
  drawn.slice().reverse().forEach(m => {
    const rank = hints.indexOf(m) + 1;
    arrows.push({steps: moveSteps(rs, st.to, m.move, st.throw ? st.throw.values : []).slice(v.done.length), kind: rank === 1 ? "best" : "hint", move: m.move,
                 label: multi ? null : String(rank),
                 title: `${rank}. ${moveWords(rs, rest(v, m.move), {who: st.to, values: st.throw ? st.throw.values : []})}: your chance of winning after this move: ${shown[rank - 1].chance}${m.exact ? " (exact)" : ""}`});
  });
  const board = drawBoard(rs, v.done.length && v.mid ? v.mid : st.cells, {marks, you: st.you || 1, numbers: numbersOn(), arrows, ply: st.plies,
    onCell: cell => { const sq = squareOfCell(cell); if (sq !== null) choose(String(sq)); }});
  /* the pieces beside the board (in hand, borne off), under it: shown
     where the ruleset has them and they mean something now (pieces there,
     or a move from or to there); the one to act on looks like a button */
  const startHand = p => rs.pieces - rs.start.reduce((a, c) => a + ((c || [0, 0])[p - 1] || 0), 0);
  const showHand = rs.in_hand && (handMark || [1, 2].some(p => st.hand[p - 1] > 0 || startHand(p) > 0));
  /* where the pieces borne off are a score (Bell's Senet), a piece hit
     leaves the game for good: each side's pieces captured so, beside its
     score (the pieces neither on the board, in hand nor borne off) */
  const onBoard = p => st.cells.reduce((a, c) => a + ((c || [0, 0])[p - 1] || 0), 0);
  const captured = rs.scores ? [1, 2].map(p => Math.max(0, rs.pieces - onBoard(p) - (st.hand[p - 1] || 0) - (st.gone[p - 1] || 0))) : null;
  const showGone = rs.gone && (offMark || [1, 2].some(p => st.gone[p - 1] > 0 || (captured && captured[p - 1] > 0)));
  const zone = (p, what, n, mark, where) => {
    const live = mark && p === st.to;
    const z = h("div", {class: "zone" + (live ? " " + mark : ""), "data-zone": where + p},
                pieceSvg(p, n), h("span", {}, `${whoName(rs, p)} ${what}: ${n}`),
                live && mark === "source" ? h("span", {class: "zonedo"}, "tap to bring one on") : null,
                live && mark === "target" ? h("span", {class: "zonedo"}, "tap to take it there") : null);
    if (live) activate(z, () => choose(where));
    return z;
  };
  const zones = showHand || showGone ? h("div", {class: "zones", id: "zones"},
    showHand ? [1, 2].map(p => zone(p, rs.in_hand, st.hand[p - 1], handMark, "in")) : null,
    showGone ? [1, 2].flatMap(p => [zone(p, rs.gone, st.gone[p - 1], offMark, "off"), captured ?
      h("div", {class: "zone captured", "data-zone": "captured" + p, title: `${whoName(rs, p)} pieces hit: out of the game for good`},
        pieceSvg(p, captured[p - 1]), h("span", {}, `${whoName(rs, p)} captured: ${captured[p - 1]}`)) : null]) : null) : null;
  const mine = myTurn();
  const actions = h("div", {class: "row", id: "actions"});
  if (mine && st.phase === "throw") {
    actions.append(h("button", {id: "throw", class: "act", title: "Throw the sticks (key t)", "aria-keyshortcuts": "t", onclick: () => act(w => post(w, "throw"))}, "Throw the sticks"));
    for (const m of st.prethrow) actions.append(h("button", {class: "secondary act", onclick: () => act(w => sendMove(w, m))}, "Instead: " + moveWords(rs, m, {who: st.to})));
  }
  if (mine && st.phase === "move" && v.ways)
    for (const x of v.ways) actions.append(h("button", {class: "act way", "data-step": x.text, onclick: () => takeStep(x)}, stepWords(rs, x.text, {who: st.to, values: st.throw ? st.throw.values : []})));
  if (mine && v.done.length) actions.append(h("button", {class: "secondary act", onclick: () => { v.done = []; v.picked = null; v.ways = null; act(w => loadSteps(w)); }}, "Undo step"));
  if (mine) actions.append(h("button", {class: "secondary act", id: "hint", onclick: () => act(async w => {
    say("Thinking…"); render();
    const r = await api("POST", `games/${w.id}/hint`, {}, w.token);
    if (w.state.version === st.version) w.hints = {...r, version: st.version};
    say("");
  })}, "Hint"));
  /* the hints in words: the chance now before a throw; else each move,
     ranked as on the board, its chance told apart from its neighbours'
     and the points it gives up against the best; a move is played only
     by its own button here */
  let hintBox = null;
  if (v.hints && v.hints.version === st.version) {
    const best = v.hints.moves[0];
    const list = st.phase === "throw" ? v.hints.moves.filter(m => m.move !== "throw" || v.hints.moves.length > 1) : hints;
    const most = narrow() ? 3 : 8, texts = chanceTexts(list.slice(0, v.allHints ? 1000 : most));
    hintBox = h("div", {id: "hints", class: "hints"},
      h("p", {class: "small"},
        st.phase === "throw" ? `Your chance of winning now: ${pct1(best.chance)}${best.exact ? " (exact)" : ""}.`
          : v.done.length ? "Your chance of winning after each way to finish the turn:" : "Your chance of winning after each move:"),
      h("ol", {}, list.slice(0, v.allHints ? 1000 : most).map((m, i) =>
        h("li", {class: i === 0 ? "best" : ""},
          h("span", {class: "rank"}, String(i + 1)),
          h("span", {class: "chance"}, texts[i].chance + (m.exact ? " exact" : "")),
          h("span", {class: "diff"}, i === 0 ? "★ best" : texts[i].diff),
          h("button", {class: "link hintmove", "data-move": m.move, title: "play this move",
                       onclick: () => act(w => m.move === "throw" ? post(w, "throw") : sendMove(w, m.move))},
            m.move === "throw" ? "throw the sticks" : (st.phase === "throw" ? "instead of throwing: " : v.done.length ? "then " : "play ") +
              moveWords(rs, rest(v, m.move), {who: st.to, values: st.throw ? st.throw.values : []}))))),
      h("p", {class: "small agent"}, list.length > most && !v.allHints ? [h("button", {class: "link", id: "all-hints", onclick: () => { v.allHints = true; render(); }}, `show all ${list.length}`), " · "] : null,
        st.phase === "move" && drawn.length ? (multi ? "The best is drawn on the board, its steps numbered. " : "Their numbers are on the board. ") : "",
        `Hints by the ${v.hints.agent} agent.`));
  }
  const vsComputer = st.you && st.players[2 - st.you].kind === "computer";
  const mineToTake = st.last.some(p => p.player === st.you && p.move && p.move !== "pass");
  const more = h("div", {class: "row"});
  if (vsComputer && st.phase !== "over" && mineToTake) more.append(h("button", {class: "secondary act", id: "takeback", onclick: () => act(async w => {
    await post(w, "takeback");
    say("Your last move is taken back: the same throw is yours again.");
  })}, "Take back"));
  if (st.you && st.phase !== "over") more.append(h("button", {class: "secondary act", id: "resign", onclick: () => {
    if (!confirm(`Resign, and let ${whoName(rs, 3 - st.you)} win?`)) return;
    act(w => post(w, "resign"));
  }}, "Resign"));
  const typed = h("input", {id: "typed", size: 10, placeholder: "e.g. 9-12", "aria-label": "type a move"});
  const typedForm = h("form", {class: "row typed", onsubmit: e => { e.preventDefault(); if (typed.value.trim()) act(w => typedMove(w, typed.value.trim())); }},
    typed, h("button", {class: "secondary", type: "submit"}, "Play typed move"));
  /* the end: a rematch, offered to the other player */
  let end = null;
  if (st.phase === "over" && st.you) {
    const rm = st.rematch || null;
    const theyOffer = rm && rm.offered_by && rm.offered_by !== st.you;
    const iOffered = (rm && rm.offered_by === st.you) || v.rematchOffered;
    end = h("div", {class: "row", id: "end"},
      h("button", {id: "rematch", class: "act", disabled: iOffered && !theyOffer ? true : null, onclick: () => act(rematch)},
        theyOffer ? `Accept the rematch ${whoName(rs, rm.offered_by)} offers` : iOffered ? "Rematch offered…" : "Rematch"),
      h("a", {href: "#/", class: "button secondary"}, "New game"),
      h("a", {href: `#/replay/${st.id}`, class: "button secondary", id: "review-link"}, "Replay and review"));
    if (theyOffer && !v.msg) say(`${whoName(rs, rm.offered_by)} offers a rematch.`);
  }
  const invite = st.you && inviteFor(st.id) && st.phase !== "over" ? inviteFor(st.id) : null;
  const {origin, loopback} = shareOrigin(serverInfo.known);
  const inviteLink = invite ? `${origin}${location.pathname}#/join/${st.id}/${invite}` : "";
  const copied = h("span", {class: "msg", role: "status"});
  const copy = (text) => async () => {
    try { await navigator.clipboard.writeText(text); copied.textContent = " copied"; }
    catch (e) { copied.textContent = " select the link and copy it"; }
  };
  const side = h("div", {class: "panel", id: "side"},
    h("p", {class: "status", id: "turn", "data-version": st.version, "aria-live": "polite"}, turnLine(v, rs)),
    st.throw || actions.children.length ? h("div", {class: "throwrow"}, drawThrow(rs, st.throw), actions) : h("div", {id: "actions", hidden: true}),
    v.done.length ? h("p", {class: "small", id: "so-far"}, "Steps so far: " + moveWords(rs, v.done.join("+"), {who: st.to, values: st.throw ? st.throw.values : []})) : null,
    h("p", {class: "msg" + (v.bad ? " bad" : ""), id: "msg", role: "status"}, v.msg),
    hintBox, end,
    mine && st.phase === "move" ? typedForm : null,
    more,
    invite ? h("div", {class: "invite"}, h("p", {}, "Send this link to the other player (it gives their seat; keep it to them):"),
                h("p", {class: "link", id: "invite"}, inviteLink),
                h("button", {class: "secondary", id: "copy-invite", onclick: copy(inviteLink)}, "Copy the link"), copied,
                loopback ? h("p", {class: "small", id: "loopback-note"}, "This server listens on this computer only (the loopback address), so the link opens only in a browser on this computer. " +
                  "To play someone on another device, start it with kemet serve --host 0.0.0.0 (and --allow-host NAME for a name) and send the link with this machine's address in it.") : null) : null,
    h("details", {class: "log-box", open: true}, h("summary", {}, "Moves"),
      h("ol", {class: "log", id: "log", start: Math.max(1, st.plies - st.last.length + 1)},
        st.last.map(p => h("li", {}, `${p.throw ? threwWords(rs, p.throw) + ": " : ""}${p.words}`))),
      h("p", {class: "small"}, st.opening)),
    h("p", {class: "small links"},
      h("a", {href: `#/rules/${rs.id}`}, "Rules of " + rs.title), " · ",
      h("a", {href: `#/replay/${st.id}`}, "replay"), " · ",
      offline ? h("a", {href: "#", id: "record", onclick: e => { e.preventDefault(); act(() => saveRecord(st.id)); }}, "save the record")
              : h("a", {href: `/api/games/${st.id}/record`}, "record"),
      !offline && st.you ? [" · ", h("button", {class: "link", id: "watch-link", onclick: copy(`${origin}/#/game/${st.id}`)}, "copy a watch link")] : null),
    h("div", {class: "row small"},
      h("label", {}, h("input", {type: "checkbox", id: "numbers", checked: numbersOn(),
        onchange: e => { setItem("kemet.numbers", e.target.checked ? "1" : "0"); render(); }}), " numbers on the board"),
      h("label", {}, "moves shown ", h("select", {id: "motion", onchange: e => setMotion(e.target.value)},
        ["normal", "fast", "off"].map(m => h("option", {value: m, selected: motion() === m}, m === "off" ? "at once" : m)))),
      h("span", {id: "keys"}, "Keys: t throws the sticks; Tab and Enter pick a piece and its hole; Esc drops the piece picked.")));
  /* what just happened, read out by screen readers (and nothing else) */
  const heard = h("div", {class: "sr-only", "aria-live": "polite", id: "heard"},
    last ? `${whoName(rs, last.player)}: ${last.throw ? threwWords(rs, last.throw) + ", " : ""}${last.words}` : "");
  const focus = document.activeElement && document.activeElement.id;
  const oldHolder = document.getElementById("boardholder");
  if (oldHolder && v.zoom && oldHolder.classList.contains("zoomed")) v.zoomAt = [oldHolder.scrollLeft, oldHolder.scrollTop];
  /* (one grid: on a phone held upright the panel comes straight after
     the board and what is under it, the legend last) */
  app.replaceChildren(h("div", {class: "game" + (hintBox ? " hinting" : "") + (zones ? " zoned" : "")},
    h("div", {class: "gamehead"},
      h("h1", {class: "gametitle"}, rs.title, h("span", {class: "small"}, st.players.map((p, i) => `${p.name}: ${p.kind === "computer" ? "the computer, level " + p.level : st.you === i + 1 ? "you" : "a person"}`).join(" · "))),
      /* a closer look on a small screen: the board twice as large, in a
         box of its usual size that scrolls */
      h("button", {class: "secondary zoom", id: "zoom", "aria-pressed": v.zoom ? "true" : "false", title: v.zoom ? "the board at the screen's size" : "the board twice as large (scroll it)",
                   onclick: () => { v.zoom = !v.zoom; v.zoomAt = null; render(); }}, v.zoom ? "− Zoom" : "+ Zoom")),
    h("div", {class: "boardwrap" + (v.zoom ? " zoomed" : ""), id: "boardholder"}, board), zones, legend(rs, st.you),
    side), heard);
  fitBoard(board);
  if (v.zoom) zoomTo(v, board);
  if (focus) { const f = document.getElementById(focus); if (f) f.focus({preventScroll: true}); }
  if (v.busy) for (const b of document.querySelectorAll("#actions button, #side button.act")) b.disabled = true;
  const log = document.getElementById("log");
  if (log) showLast(log);
}

/* The zoomed board scrolled where it was, or at first to the pieces that
 * may move (else the middle). */
function zoomTo(v, board) {
  const box = document.getElementById("boardholder");
  if (!box) return;
  if (v.zoomAt) { [box.scrollLeft, box.scrollTop] = v.zoomAt; return; }
  let holes = [...board.querySelectorAll(".hole.picked, .hole.target")];
  if (!holes.length) holes = [...board.querySelectorAll(".hole.source")];
  let rects = holes.map(e => e.querySelector(".cellbg").getBoundingClientRect());
  const b = box.getBoundingClientRect();
  /* all of them where they fit in the box, else the first */
  const span = (lo, hi) => Math.max(...rects.map(hi)) - Math.min(...rects.map(lo));
  if (rects.length > 1 && (span(r => r.left, r => r.right) > box.clientWidth || span(r => r.top, r => r.bottom) > box.clientHeight)) rects = rects.slice(0, 1);
  let x = box.scrollWidth / 2, y = box.scrollHeight / 2;
  if (rects.length) {
    x = (Math.min(...rects.map(r => r.left)) + Math.max(...rects.map(r => r.right))) / 2 - b.left + box.scrollLeft;
    y = (Math.min(...rects.map(r => r.top)) + Math.max(...rects.map(r => r.bottom))) / 2 - b.top + box.scrollTop;
  }
  box.scrollLeft = x - box.clientWidth / 2;
  box.scrollTop = y - box.clientHeight / 2;
  v.zoomAt = [box.scrollLeft, box.scrollTop];
}

/* The move list scrolled to its end with its top line whole: the box
 * ends at its last line and begins at a line's top (its lines may wrap,
 * so its height is set from them). Done again whenever the list's width
 * changes after (a scroll bar of the page that comes or goes, a font
 * that arrives), since its lines then wrap anew. */
function showLast(log) {
  fitLog(log);
  if (typeof ResizeObserver !== "function") return;
  let width = log.clientWidth;
  new ResizeObserver(() => {
    if (log.isConnected && log.clientWidth !== width) { width = log.clientWidth; fitLog(log); }
  }).observe(log);
}

function fitLog(log) {
  log.style.height = "";
  log.scrollTop = 0;
  const room = log.clientHeight, items = [...log.children];
  if (log.scrollHeight <= room + 1 || !items.length) return;
  const top = li => li.getBoundingClientRect().top, zero = top(items[0]);
  const end = items[items.length - 1].getBoundingClientRect().bottom;
  const first = items.find(li => end - top(li) <= room) || items[items.length - 1];
  /* the exact height, fractions kept: a box rounded up would leave the
     list too little to scroll for its first line to reach the top */
  log.style.height = (end - top(first)) + "px";
  log.scrollTop = top(first) - zero;
}

/* The address to put in a link for another device, and whether the
 * server listens on this machine only (GET /api/server): the page's own
 * address unless it is a loopback one, which no other device can open;
 * then the first address the server says others may use. */
const LOOPBACK = /^(127\.|localhost$|\[::1\]$)/;
export function shareOrigin(info) {
  const here = LOOPBACK.test(location.hostname);
  if (!info) return {origin: location.origin, loopback: here};
  const url = here && info.urls && info.urls.length ? info.urls[0].replace(/\/$/, "") : location.origin;
  return {origin: url, loopback: !!info.loopback};
}

/* Once the rematch exists, both players' pages move to it. */
function followRematch(v) {
  const rm = v.state && v.state.rematch;
  if (!rm || !rm.id || !v.state.you || v.following) return;
  v.following = true;
  act(rematch);
}

export {moveCells};
