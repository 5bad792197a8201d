/* board.js - every board drawn from the data the server sends
 * (kemet_art: holes, lines, rivers, home boxes); nothing here knows one
 * board from another. The drawing scales to its box (an SVG view box):
 * every hole of every board shows on any screen, and a tap picks the
 * nearest hole that may be chosen, so small holes stay easy to hit. */
import {s, h} from "./util.js";

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
export const reducedMotion = reduced;

/* Whether a wide board is drawn turned a quarter (on a narrow upright
 * screen, where drawn level its holes would be under 10 px across). */
function turned(rs) {
  const a = rs.art;
  if (a.frame !== "rect" || a.w < 1.6 * a.h || typeof innerWidth !== "number") return false;
  const width = Math.min(innerWidth, document.documentElement.clientWidth || innerWidth) - 16;
  const r = Math.min(...a.holes.map(c => c.r));
  return innerHeight > innerWidth && r * width / a.w < 10;
}
export const boardTurned = turned;

/* The drawing of ruleset rs: holes by cell, decorations, frame (turned a
 * quarter clockwise where turned() says). */
function geometry(rs) {
  const rot = turned(rs);
  if (rs._geo && rs._geo.rot === rot) return rs._geo;
  const a = rs.art, cells = {}, deco = [];
  const W = rot ? a.h : a.w, H = rot ? a.w : a.h;
  for (const c of a.holes)
    cells[c.cell] = {x: rot ? a.h - c.y : c.x, y: rot ? c.x : c.y, r: c.r, square: c.shape === "square", label: c.label,
                     mark: c.mark || null, gold: !!c.marked, safe: !!c.safe, home: c.home,
                     /* a home hole is tinted and ringed with dashes */
                     fill: c.home === 1 ? "#c9a06a" : c.home === 2 ? "#8aa0b8" : undefined};
  const list = Object.values(cells);
  for (const c of list) {
    let near = Infinity;
    for (const d of list) if (d !== c) near = Math.min(near, Math.hypot(d.x - c.x, d.y - c.y));
    c.near = near;
  }
  /* a sign on a round hole (other than the Sun, drawn as rays round its
     rim) stands beside it, where there is most room: the number inside
     and the sign both readable */
  for (const c of list) {
    if (!c.mark || c.square || c.mark === "☀") continue;
    let best = null, room = -Infinity;
    for (let k = 0; k < 8; k++) {
      const an = -Math.PI / 4 + k * Math.PI / 4, x = c.x + Math.cos(an) * c.r * 1.85, y = c.y + Math.sin(an) * c.r * 1.85;
      let free = Math.min(x - 4, y - 4, W - 4 - x, H - 4 - y);
      for (const d of list) if (d !== c) free = Math.min(free, Math.hypot(d.x - x, d.y - y) - d.r);
      if (free > room + .5) { room = free; best = {x, y}; }
    }
    c.signAt = best;
  }
  const palm = a.frame === "palm";
  for (const l of a.links) {
    const p = cells[l.from], q = cells[l.to];
    if (!p || !q) continue;
    if (l.kind === "river")
      deco.push(s("path", {d: `M${p.x},${p.y} L${q.x},${q.y}`, class: "river", stroke: "#3b7dc4", "stroke-width": 7, "stroke-dasharray": "10 5", opacity: .8, fill: "none"}));
    else if (l.bend)
      deco.push(s("path", {d: `M${p.x},${p.y} C${p.x + l.bend},${p.y} ${p.x + l.bend},${q.y} ${q.x},${q.y}`, fill: "none", stroke: "#7a5229", "stroke-width": palm ? 3 : 4}));
    else
      deco.push(s("line", {x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "boardline", stroke: "#7a5229", "stroke-width": palm ? 3 : 4}));
  }
  let frame = [4, 4, W - 8, H - 8], box = [0, 0, W, H];
  if (palm) {
    /* the palm: a rounded outline and the central stem */
    const c = a.w / 2, b = a.h - 15, top = 170;
    deco.unshift(s("path", {d: `M${c - 190},${b} L${c - 190},${top} Q${c - 190},10 ${c},10 Q${c + 190},10 ${c + 190},${top} L${c + 190},${b} Z`, fill: "#e2c08a", stroke: "#7a5229", "stroke-width": 4}));
    deco.push(s("path", {d: `M${c - 14},80 L${c - 14},470 M${c + 14},80 L${c + 14},470`, stroke: "#9c7444", "stroke-width": 3}));
    frame = null;
    /* the drawing is the palm: nothing of the view box beside it */
    box = [c - 192, 8, 384, b - 6];
  }
  const links = {};
  for (const l of a.links) { links[l.from + ">" + l.to] = l; links[l.to + ">" + l.from] = l; }
  rs._geo = {w: W, h: H, box, cells, deco, frame, links, pad: 8, rot};
  return rs._geo;
}

/* The point of player p's path square sq: off the track ("in": before
 * square 1; "off": beyond the last) it is drawn a step outside. */
function squarePoint(rs, p, sq) {
  const g = geometry(rs), path = rs.paths[p - 1], n = path.length - 1;
  const at = k => g.cells[path[k]];
  if (sq === "in" || sq === 0) {
    const a = at(1), b = at(2) || a;
    return a ? {x: a.x - (b.x - a.x) * .8, y: a.y - (b.y - a.y) * .8, off: true} : null;
  }
  if (sq === "off" || sq > n) {
    const a = at(n), b = at(n - 1) || a;
    return a ? {x: a.x + (a.x - b.x) * .8, y: a.y + (a.y - b.y) * .8, off: true} : null;
  }
  const c = at(sq);
  return c ? {x: c.x, y: c.y, cell: path[sq]} : null;
}

/* The points a step from square f to square t passes through: along the
 * track square by square, or along a line or river of the board where
 * the step takes one (a value v of `values` leads to a square linked to
 * t), or straight. */
function stepPoints(rs, p, f, t, values, via) {
  const g = geometry(rs), path = rs.paths[p - 1], n = path.length - 1;
  const F = f === "in" ? 0 : +f, T = t === "off" ? n + 1 : +t;
  const along = (a, b) => {
    const pts = [], d = a <= b ? 1 : -1;
    for (let k = a; d > 0 ? k <= b : k >= b; k += d) {
      const q = squarePoint(rs, p, k === 0 ? "in" : k > n ? "off" : k);
      if (q) pts.push(q);
    }
    return pts;
  };
  const link = (a, b) => a >= 1 && a <= n && b >= 1 && b <= n && g.links[path[a] + ">" + path[b]];
  if (via) { /* written FROM-END-TO: the count reached END */
    const M = +via, l = link(M, T);
    if (M === T || !l) return along(F, M);
    return along(F, M).concat([{...squarePoint(rs, p, T), bend: l.bend && l.kind !== "river" ? l.bend : 0}]);
  }
  for (const v of values || []) {
    for (const m of [F + v, F - v]) {
      if (m === T) return along(F, T);
      const l = link(m, T);
      if (l) return along(F, m).concat([{...squarePoint(rs, p, T), bend: l.bend && l.kind !== "river" ? l.bend : 0}]);
    }
  }
  /* round a loop (Tab): from the path's last square on to its first */
  for (const v of values || [])
    if (F + v > n && F + v - n === T) return along(F, n).concat(along(1, T));
  if (link(F, T)) return [squarePoint(rs, p, F), squarePoint(rs, p, T)];
  if (Math.abs(T - F) <= 12) return along(F, T);
  return [squarePoint(rs, p, F), squarePoint(rs, p, T)].filter(Boolean);
}

/* A move's steps for player p: [{from, to, points}] ("throw" and "pass"
 * have none). */
/* One written step: FROM-TO, or FROM-END-TO where the count reached END
 * and a line or river carried the piece on to TO (docs/notation.md). */
export function parseStep(st) {
  const x = st.split("-");
  return {from: x[0], via: x.length > 2 ? x[1] : null, to: x[x.length - 1]};
}

export function moveSteps(rs, p, move, values) {
  if (!move || move === "throw" || move === "pass") return [];
  return move.split("+").map(st => {
    const {from, via, to} = parseStep(st);
    return {from, to, via, points: stepPoints(rs, p, from, to, values, via)};
  });
}

/* The cells a move's steps leave from and reach, for player p ("in" and
 * "off" are no cells). */
export function moveCells(rs, p, move) {
  const from = [], to = [];
  for (const st of moveSteps(rs, p, move, [])) {
    if (st.from !== "in" && rs.paths[p - 1][+st.from]) from.push(rs.paths[p - 1][+st.from]);
    if (st.to !== "off" && rs.paths[p - 1][+st.to]) to.push(rs.paths[p - 1][+st.to]);
  }
  return {from, to};
}

/* The number the side `viewer` gives to player who's square sq, as the
 * board is numbered for it: a hole on the viewer's own track by the
 * viewer's square (in Tab, Black's hole 9 is White's 51), a hole off it
 * (the other side's own holes on the 58 holes) by its owner's number, as
 * it is labelled. "in", "off" and the mover's own squares as they are. */
export function squareAs(rs, who, sq, viewer) {
  if (!viewer || !who || viewer === who || !/^\d+$/.test(String(sq))) return String(sq);
  const cell = rs.paths[who - 1][+sq];
  const k = cell ? rs.paths[viewer - 1].indexOf(cell, 1) : -1;
  return k > 0 ? String(k) : String(sq);
}

/* A move in plain words: "6 → 8", "a new piece onto 3", "28 → borne off";
 * steps joined by ", then ". Options: `who` made it and `viewer` reads
 * it (its squares in the viewer's numbers: squareAs); `values`, the
 * throw's, to say where a piece carried back by a line first went. */
export function moveWords(rs, move, o = {}) {
  if (!move) return "";
  if (move === "throw") return "throw the sticks";
  if (move === "pass") return "no move (the throw is lost)";
  return move.split("+").map(st => stepWords(rs, st, o)).join(", then ");
}

/* One step in plain words: "6 → 8", "7 → 13, carried on to 9", "7 → 9
 * by count" (a count that ends where a line or river also leads), "8 →
 * 10, carried back to 8" (options as moveWords). */
export function stepWords(rs, step, o = {}) {
  const {from, via, to} = parseStep(step);
  const as = x => squareAs(rs, o.who, x, o.viewer);
  const f = as(from), t = as(to);
  if (from === "in") return `a new piece onto ${t}`;
  if (via && via !== to) return `${f} → ${as(via)}, carried on to ${t}`;
  if (via) return `${f} → ${t} by count`;
  if (from === to) {
    /* a count onto a line's end that carries the piece back where it
       began: where the count ended, from the throw's values and the
       board's lines */
    const p = o.who || 1, path = rs.paths[p - 1], g = geometry(rs), F = +from;
    for (const v of o.values || [])
      for (const m of [F + v, F - v])
        if (m >= 1 && m < path.length && g.links[path[m] + ">" + path[F]]) return `${f} → ${as(m)}, carried back to ${t}`;
    return `${f}, carried back to ${t} by a line`;
  }
  if (to === "off") return `${f} → ${rs.gone || "off"}`;
  return `${f} → ${t}`;
}

/* A throw in plain words and numbers, never notation: "3", "2 + 5 + 6 +
 * 3 (the last for the Jackals only)". */
export function throwWords(rs, t) {
  if (!t) return "";
  const only = t.values.map((v, i) => t.only[i] ? `${v} for ${rs.players[t.only[i] - 1]} only` : null).filter(Boolean);
  const v = t.values.map(String);
  const sum = v.length > 1 ? v.slice(0, -1).join(", ") + " and " + v[v.length - 1] : v[0];
  return sum + (only.length ? ` (${only.join(", ")})` : "");
}

/* A throw as its player met it: "threw 1, 4 and 2", or where no throw
 * was made, the values of the turn's throws still to play (Tab): "had 4
 * and 2 still to play". `you`: said to the player ("you threw …",
 * "you have … still to play"). */
export function threwWords(rs, t, you) {
  if (!t) return "";
  if (t.kept) return (you ? "you have " : "had ") + throwWords(rs, t) + " still to play";
  return (you ? "you threw " : "threw ") + throwWords(rs, t);
}

/* Which side is which: each side's piece, name, number, and "you"; how
 * the holes are numbered where the sides count them differently. */
export function legend(rs, you) {
  const note = numbering(rs, you);
  return h("div", {class: "legend"}, [1, 2].map(p => h("span", {class: "who"},
    s("svg", {viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true"},
      s("circle", {class: "piece" + p, cx: 10, cy: 10, r: 7.5})),
    ` ${rs.players[p - 1]} (player ${p})${you === p ? " — you" : ""}`)),
    h("span", {class: "who"}, s("svg", {viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true"},
      s("path", {d: "M3 10 H15 M11 6 L15 10 L11 14", class: "trackarrow", fill: "none"})), " way the pieces run"),
    /* a cross on squares: the marked squares (the rules say what they do) */
    rs.art.holes.some(c => c.mark === "×") ? h("span", {class: "who marked-squares"},
      s("svg", {viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true"},
        s("rect", {x: 1.5, y: 1.5, width: 17, height: 17, rx: 3, fill: "#f0dbb2", stroke: "#7a5229"}),
        s("text", {class: "mark", x: 10, y: 15, "text-anchor": "middle", "font-size": 15, "stroke-width": .75}, "×")),
      ` marked square: ${squaresWith(rs, c => c.mark === "×", you || 1)} (see the rules)`) : null,
    /* a sign drawn beside its round hole (the Sun of Lions & Jackals) */
    [...new Set(rs.art.holes.filter(c => c.mark && c.shape !== "square").map(c => c.mark))].map(m =>
      h("span", {class: "who signed-holes"}, signSvg(m),
        ` ${SIGN_NAMES[m] || "sign"}${rs.art.holes.filter(c => c.mark === m).every(c => c.safe) ? " (safe)" : ""}: ` +
        squaresWith(rs, c => c.mark === m, you || 1))),
    note ? h("span", {class: "numbering", id: "numbering"}, note) : null);
}

/* What the signs on round holes are called in the legend. */
const SIGN_NAMES = {"☀": "Sun", "☥": "Ankh"};

/* A round hole with its sign, as the board draws it, for the legend. */
function signSvg(mark) {
  const sun = mark === "☀";
  return s("svg", {viewBox: sun ? "0 0 24 24" : "0 0 36 24", width: sun ? 22 : 33, height: 22, "aria-hidden": "true"},
    sun ? sunRays(12, 12, 7, "legend-rays") : null,
    s("circle", {cx: 12, cy: 12, r: 7, fill: "#9a6a38", stroke: "#4a2e12", "stroke-width": 1.2}),
    sun ? null : s("text", {class: "mark", x: 28, y: 18, "text-anchor": "middle", "font-size": 17}, mark));
}

/* The rays of a Sun hole: short strokes round its rim. */
function sunRays(cx, cy, r, cls) {
  const d = [];
  for (let k = 0; k < 12; k++) {
    const a = k * Math.PI / 6, c = Math.cos(a), n = Math.sin(a);
    d.push(`M${cx + c * r * 1.15},${cy + n * r * 1.15} L${cx + c * r * 1.45},${cy + n * r * 1.45}`);
  }
  return s("path", {d: d.join(" "), class: "rays " + cls, fill: "none", "stroke-width": Math.max(1.2, r * .2)});
}

/* How the holes are numbered, where the sides count them differently,
 * said once beside the board: the numbers are the squares of the seat
 * looking (player 1's for a spectator), and the other side's moves are
 * written in them too; or, where each side has holes of its own, that
 * each counts its own. null where both count the board alike. */
export function numbering(rs, you) {
  const v = you || 1, o = 3 - v, name = p => rs.players[p - 1];
  const mine = rs.paths[v - 1], theirs = rs.paths[o - 1];
  let differ = false, apart = false;
  for (let k = 1; k < theirs.length; k++) {
    const at = mine.indexOf(theirs[k], 1);
    if (at > 0 && at !== k) differ = true;
    if (at < 0) apart = true;
  }
  const yours = you ? `your squares (${whose(rs, v)})` : `${whose(rs, v)} squares`;
  const they = name(o).endsWith("s") ? `the ${name(o)} count` : `${name(o)} counts`;
  const theirMoves = name(o).endsWith("s") ? "their moves" : "its moves";
  if (differ) return `The numbers are ${yours}; ${they} the same holes from the other end, and ${theirMoves} are written here in these numbers.`;
  if (apart) return `Each side counts its own holes: the numbers on ${whose(rs, o)} side are ${name(o).endsWith("s") ? "theirs" : "its own"}.`;
  return null;
}

/* The squares (of player p's track) of the holes `pick` chooses, in
 * words: "26-29", "15, 26 and 30". */
function squaresWith(rs, pick, p) {
  const path = rs.paths[p - 1], sq = [];
  for (let k = 1; k < path.length; k++) {
    const c = rs.art.holes.find(x => x.cell === path[k]);
    if (c && pick(c)) sq.push(k);
  }
  const runs = [];
  for (const k of sq) {
    const r = runs[runs.length - 1];
    if (r && r[1] === k - 1) r[1] = k; else runs.push([k, k]);
  }
  const words = runs.map(([a, b]) => a === b ? String(a) : b === a + 1 ? `${a}, ${b}` : `${a}-${b}`);
  return words.length > 1 ? words.slice(0, -1).join(", ") + " and " + words[words.length - 1] : words[0] || "";
}

/* Player p's n pieces beside the board, drawn overlapping (at most 7). */
export function pieceSvg(p, n) {
  const k = Math.min(n, 7), w = k ? 18 + (k - 1) * 8 : 0;
  return s("svg", {viewBox: `0 0 ${Math.max(w, 1)} 20`, width: w, height: 20, "aria-hidden": "true", class: "stack"},
    Array.from({length: k}, (_, i) => s("circle", {class: "piece" + p, cx: 9 + i * 8, cy: 10, r: 7.5, "stroke-width": 1.5})));
}

/* "White's", "the Lions'": a side's name as an owner. */
export function whose(rs, p) { const n = rs.players[p - 1]; return n.endsWith("s") ? `the ${n}'` : `${n}'s`; }

const NUMBER = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
/* Why a finished game ended, in a sentence, from its final position
 * (st: cells, and hand and gone where known; winner) and the ruleset:
 * every piece borne off or taken, every piece in the Duat, the home row
 * reached; "" where the position does not say. A resignation is said by
 * the caller. */
export function endWords(rs, st) {
  const W = st.winner, L = 3 - W, n = rs.pieces, cells = st.cells || [];
  const name = p => rs.players[p - 1];
  const all = p => name(p).endsWith("s") ? `all ${NUMBER[n] || n} ${name(p)}` : `all ${NUMBER[n] || n} ${name(p)} pieces`;
  const one = p => name(p).endsWith("s") ? `a ${name(p).slice(0, -1)}` : `a ${name(p)} piece`;
  const owner = p => whose(rs, p);
  const cap = x => x.charAt(0).toUpperCase() + x.slice(1);
  /* a score (Bell): the game ends when no piece is left on the board */
  if (rs.scores && st.gone) {
    const score = `${name(1)} bore off ${st.gone[0]}, ${name(2)} ${st.gone[1]}`;
    return `No piece is left on the board: ${score}${W ? "" : ", as many"}.`;
  }
  if (!W) return rs.text && /nothing can ever move/i.test(rs.text) ? "Nothing can move any more." : "";
  const on = p => cells.reduce((a, c) => a + ((c || [0, 0])[p - 1] || 0), 0);
  const homeOf = {};
  for (const c of rs.art.holes) if (c.home) homeOf[c.cell] = c.home;
  const inHome = (p, q) => cells.reduce((a, c, i) => a + (homeOf[i + 1] === q ? ((c || [0, 0])[p - 1] || 0) : 0), 0);
  if (inHome(W, L) === n) return cap(`${all(W)} are in ${owner(L)} home row.`);
  const gone = st.gone, hand = st.hand;
  if (rs.gone && gone && gone[W - 1] === n) return cap(`${all(W)} are ${rs.gone}.`);
  if (rs.gone && gone && gone[L - 1] === n) return cap(`${all(L)} are ${rs.gone}.`);
  if (rs.in_hand && hand && hand[L - 1] === n) return cap(`${all(L)} are ${rs.in_hand}.`);
  /* (the position alone, as a replay has it) */
  if (!gone && !hand) {
    if (rs.gone && on(W) === 0) return cap(`${all(W)} are ${rs.gone}.`);
    if (on(L) === 0) return cap(`${all(L)} are ${rs.gone || rs.in_hand || "off the board"}.`);
  }
  /* a piece of the loser off the board while its home row is full */
  const homeL = Object.keys(homeOf).filter(c => homeOf[c] === L);
  if (rs.in_hand && hand && hand[L - 1] > 0 && homeL.length && homeL.every(c => (cells[c - 1] || [0, 0]).some(x => x > 0)))
    return cap(`${one(L)} is ${rs.in_hand} while ${owner(L)} home row is full.`);
  if (inHome(W, L) > 0) return cap(`${one(W)} reached ${owner(L)} home row.`);
  return "";
}

/* The points of an arrow `w` wide moved aside, across its way, as little
 * as needed (up to two lanes either side) to run clear of the arrows
 * `runs` already drawn. */
function lane(pts, w, runs, unit) {
  if (pts.length < 2 || !runs.length) return pts;
  const moved = d => pts.map((q, i) => {
    const a = pts[Math.max(0, i - 1)], b = pts[Math.min(pts.length - 1, i + 1)];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    return {...q, x: q.x - (b.y - a.y) / len * d, y: q.y + (b.x - a.x) / len * d};
  });
  let best = pts, least = Infinity;
  for (const k of [0, 1, -1, 2, -2]) {
    const cand = k ? moved(k * Math.max(unit * .62, w * 1.5)) : pts, cost = crowding(cand, w, runs) + Math.abs(k) * .01;
    if (cost < least) { least = cost; best = cand; }
    if (cost < .5) break;
  }
  return best;
}

/* How much of the path `pts` (w wide) runs on the arrows `runs`: the
 * share of points along it (its ends left out, where steps meet) that lie
 * within the two shafts' width of another. */
function crowding(pts, w, runs) {
  let hits = 0, n = 0;
  const segs = [];
  for (const r of runs) for (let i = 1; i < r.pts.length; i++) segs.push({a: r.pts[i - 1], b: r.pts[i], w: r.w});
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1], b = pts[i], len = Math.hypot(b.x - a.x, b.y - a.y), k = Math.max(2, Math.ceil(len / (w * 1.5)));
    for (let j = 1; j < k; j++) {
      const t = j / k;
      if ((i === 1 && t < .2) || (i === pts.length - 1 && t > .8)) continue;
      const x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
      n++;
      if (segs.some(sg => distToSeg(x, y, sg.a, sg.b) < (w + sg.w) / 2 + w * .2)) hits++;
    }
  }
  return n ? hits / n * 10 : 0;
}

function distToSeg(x, y, a, b) {
  const dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
  const t = l2 ? Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / l2)) : 0;
  return Math.hypot(x - a.x - t * dx, y - a.y - t * dy);
}

/* An arrow along points: its line and head (and the link's bend). */
function arrow(pts, cls, width, back = 0) {
  if (pts.length < 2) return null;
  if (back) {
    /* the head stops short of the hole's middle: the piece stays seen */
    const b = pts[pts.length - 1], a = pts[pts.length - 2], len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len > 2 * back) pts = [...pts.slice(0, -1), {...b, x: b.x - (b.x - a.x) * back / len, y: b.y - (b.y - a.y) * back / len}];
  }
  let d = `M${pts[0].x},${pts[0].y}`;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1], b = pts[i];
    d += b.bend ? ` C${a.x + b.bend},${a.y} ${a.x + b.bend},${b.y} ${b.x},${b.y}` : ` L${b.x},${b.y}`;
  }
  const b = pts[pts.length - 1], a = pts[pts.length - 2];
  const ang = Math.atan2(b.y - a.y, b.x - a.x), L = width * 3.2;
  const hx = b.x, hy = b.y;
  const head = `M${hx},${hy} L${hx - L * Math.cos(ang - .45)},${hy - L * Math.sin(ang - .45)} L${hx - L * Math.cos(ang + .45)},${hy - L * Math.sin(ang + .45)} Z`;
  return s("g", {class: cls},
    s("path", {d, fill: "none", "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round", class: "shaft"}),
    s("path", {d: head, class: "head"}));
}

/* Draws the board with the pieces of `cells`. Options:
 *   marks: cell -> "source", "target", "picked", "picked target"
 *   onCell(cell): a hole chosen (a tap picks the nearest marked hole)
 *   you: the side whose way is drawn and whose squares number the holes;
 *   numbers: the holes' numbers shown
 *   arrows: [{steps, player, kind ("last", "hint", "best"), label, onClick, move}]
 *   struck: cells where a piece was taken (captured, swapped, knocked off)
 *   ply: the ply the drawing shows (data-ply) */
export function drawBoard(rs, cells, opts = {}) {
  const g = geometry(rs), marks = opts.marks || {}, P = g.pad;
  const unit = Math.min(...Object.values(g.cells).map(c => c.r));
  const [bx, by, bw, bh] = g.box;
  const svg = s("svg", {viewBox: `${bx - P} ${by - P} ${bw + 2 * P} ${bh + 2 * P}`, class: "board" + (opts.numbers ? " numbers" : ""),
                        role: "group", "aria-label": rs.title + " board", "data-ply": opts.ply ?? ""});
  if (g.frame) svg.append(s("rect", {x: g.frame[0], y: g.frame[1], width: g.frame[2], height: g.frame[3], rx: 10, fill: "#e2c08a", stroke: "#7a5229", "stroke-width": 4}));
  svg.append(...g.deco.map(d => d.cloneNode(true)));
  /* the way the side `you` runs: small chevrons between its squares */
  const way = opts.you || 1, path = rs.paths[way - 1], track = s("g", {class: "track", "aria-hidden": "true"});
  for (let k = 1; k + 1 < path.length; k++) {
    const a = g.cells[path[k]], b = g.cells[path[k + 1]];
    if (!a || !b) continue;
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy);
    if (len < a.r + b.r + 2 || len > 3.2 * Math.min(a.near, b.near)) continue;
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, ang = Math.atan2(dy, dx) * 180 / Math.PI, q = Math.min(a.r, b.r) * .32;
    track.append(s("path", {d: `M${-q},${-q} L0,0 L${-q},${q}`, transform: `translate(${mx},${my}) rotate(${ang})`, class: "trackarrow", fill: "none"}));
  }
  svg.append(track);
  /* the holes' numbers: the squares of the side `you`, as its moves, its
     hints and what it is told name them (a hole off its way, or named
     rather than numbered, keeps the board's own label) */
  const square = {};
  for (let q = path.length - 1; q >= 1; q--) square[path[q]] = q;
  const label = (cell, c) => square[cell] !== undefined && /^\d+$/.test(c.label) ? String(square[cell]) : c.label;
  const nums = s("g", {class: "nums", "aria-hidden": "true"});
  for (const [key, c] of Object.entries(g.cells)) {
    const cell = +key, m = marks[cell];
    const grp = s("g", {class: "hole" + (m ? " " + m : ""), "data-cell": cell});
    const bg = c.square
      ? s("rect", {class: "cellbg", x: c.x - c.r, y: c.y - c.r, width: 2 * c.r, height: 2 * c.r, rx: 4, fill: c.fill || "#f0dbb2", stroke: "#7a5229"})
      : s("circle", {class: "cellbg", cx: c.x, cy: c.y, r: c.r, fill: c.fill || "#9a6a38", stroke: "#4a2e12", "stroke-width": 1.5});
    grp.append(bg);
    if (c.home) bg.setAttribute("stroke-dasharray", "4 3");
    /* a marked hole ringed in gold; a Sun hole with rays round its rim;
       another sign on a round hole beside it (geometry); a square's sign
       inside it, under its number (fitBoard) */
    if (c.gold && !c.square) bg.setAttribute("stroke", "#f0c24a"), bg.setAttribute("stroke-width", Math.max(2, c.r * .22));
    if (c.mark === "☀" && !c.square) grp.insertBefore(sunRays(c.x, c.y, c.r, "sun"), bg);
    else if (c.mark && !c.square && c.signAt) {
      grp.append(s("text", {class: "mark badge", x: c.signAt.x, y: c.signAt.y + c.r * .36, "text-anchor": "middle", "font-size": c.r,
                            "data-fs": c.r, "data-r": c.r, "data-cx": c.signAt.x, "data-cy": c.signAt.y, "data-badge": "1", "data-square": "0"}, c.mark));
    } else if (c.mark) {
      const fs = c.square ? c.r * .75 : c.r;
      grp.append(s("text", {class: "mark", x: c.x, y: c.square ? c.y + c.r * .8 : c.y + fs * .36, "text-anchor": "middle", "font-size": fs,
                            "data-fs": fs, "data-r": c.r, "data-cx": c.x, "data-cy": c.y, "data-square": c.square ? "1" : "0"}, c.mark));
    }
    const n = cells[cell - 1] || [0, 0];
    const pr = c.r * (c.square ? 0.62 : 0.82);
    const both = n[0] > 0 && n[1] > 0;
    for (let p = 0; p < 2; p++) {
      if (!n[p]) continue;
      const x = both ? c.x + (p ? pr * .55 : -pr * .55) : c.x;
      const r = both ? pr * .65 : pr;
      grp.append(s("circle", {class: "piece piece" + (p + 1), cx: x, cy: c.y, r, "stroke-width": Math.max(1.2, r * .16)}));
      if (n[p] > 1) grp.append(s("text", {class: "count", x, y: c.y + r * .38, "text-anchor": "middle", "font-size": r * 1.05, fill: p ? "#fff" : "#000"}, n[p]));
    }
    /* the hole's number, inside it (never over the next hole), in the
       layer over the arrows */
    nums.append(s("text", {class: "num", "data-of": cell, x: c.square ? c.x - c.r * .9 : c.x, y: c.square ? c.y - c.r + c.r * .42 : c.y + c.r * .32, "text-anchor": c.square ? "start" : "middle",
                          "font-size": c.square ? c.r * .42 : c.r * .9, "data-fs": c.square ? c.r * .42 : c.r * .9,
                          "data-r": c.r, "data-square": c.square ? "1" : "0", "data-top": c.y - c.r}, label(cell, c)));
    const on = [0, 1].filter(p => n[p]).map(p => `${n[p] > 1 ? n[p] + " " : ""}${rs.players[p]}${n[p] > 1 ? " pieces" : " piece"}`);
    const sign = c.mark && !c.square ? ` (${SIGN_NAMES[c.mark] || c.mark})` : "";
    const name = `${c.square ? "square" : "hole"} ${label(cell, c)}${sign}: ${on.length ? on.join(" and ") : "empty"}`;
    grp.append(s("title", {}, name));
    grp.setAttribute("aria-label", name);
    if (opts.onCell && m) {
      grp.setAttribute("tabindex", "0");
      grp.setAttribute("role", "button");
      grp.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onCell(cell); } });
    }
    svg.append(grp);
  }
  if ((opts.struck || []).length)
    for (const cell of opts.struck) {
      const c = g.cells[cell];
      if (c) svg.append(s("circle", {class: "struck", cx: c.x, cy: c.y, r: c.r * 1.35}));
    }
  /* arrows: the last move, the hints (the best last, on top). Arrows
     take no click: a tap on a piece under one picks the piece. Each step
     runs in a lane of its own where another arrow already runs (beside
     it, never on it); the holes' numbers are drawn over the arrows. Their
     labels (a hint's rank, a step's number) are placed once the board is
     on the screen (fitBoard), at a readable size, beside their arrow and
     off every piece, number and other label. */
  const over = s("g", {class: "arrows", "aria-hidden": "true"});
  const labels = [], runs = [];
  for (const a of opts.arrows || []) {
    const w = a.kind === "last" ? unit * .42 : a.kind === "best" ? unit * .5 : unit * .34;
    const grp = s("g", {class: "arrow " + a.kind, "data-move": a.move || ""});
    const numbered = a.numbered !== false && a.steps.length > 1 && a.kind !== "last";
    const all = [], mine = [];
    a.steps.forEach((st, i) => {
      const pts = lane(st.points, w, runs, unit), run = {pts, w};
      runs.push(run);
      mine.push(run);
      all.push(...pts);
      const ar = arrow(pts, "step", w, i === a.steps.length - 1 ? unit * .45 : 0);
      if (ar) grp.append(ar);
      /* a turn of several steps: each step's number by its end */
      if (numbered && pts.length > 1)
        labels.push({text: String(i + 1), kind: "stepno " + a.kind, title: `step ${i + 1}`, at: pts.slice().reverse(), own: [run]});
    });
    if (a.label) labels.push({text: a.label, kind: "chip " + a.kind, move: a.move, title: a.title || a.label, at: all.reverse(), own: mine});
    if (a.title) grp.append(s("title", {}, a.title));
    over.append(grp);
  }
  svg.append(over, nums, s("g", {class: "labels"}));
  svg._runs = runs;
  /* what a label must not cover: every piece (and the holes of pieces) */
  svg._labels = labels;
  svg._pieces = [];
  for (const [key, c] of Object.entries(g.cells))
    if ((cells[+key - 1] || [0, 0]).some(x => x > 0)) svg._pieces.push({x: c.x, y: c.y, r: c.r * (c.square ? .7 : .9)});
  svg._box = [bx - P, by - P, bx + bw + P, by + bh + P];
  /* never so small that a hole is under 19 px across: at least as tall as
     that takes, where the screen's width allows it (the height the board
     has at the page's width) */
  const VW = bw + 2 * P, VH = bh + 2 * P;
  svg.style.minHeight = `min(${(19 / (2 * unit) * VH).toFixed(1)}px, calc((100vw - 14px) * ${(VH / VW).toFixed(4)}))`;
  if (typeof ResizeObserver === "function") {
    let last = 0;
    new ResizeObserver(() => {
      const wd = svg.getBoundingClientRect().width;
      if (wd && wd !== last) { last = wd; fitBoard(svg); }
    }).observe(svg);
  }
  /* a tap or click: the nearest marked hole within reach (28 px on the
     screen, or half the way to its neighbour), else the hole under it */
  if (opts.onCell) svg.addEventListener("click", e => {
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    const scale = Math.hypot(ctm.a, ctm.b) || 1, reach = 28 / scale;
    let best = null, bd = Infinity;
    for (const [key, c] of Object.entries(g.cells)) {
      const d = Math.hypot(c.x - pt.x, c.y - pt.y);
      if (marks[key] && d <= Math.max(reach, c.r, c.near / 2) && d < bd) { best = +key; bd = d; }
    }
    if (best === null)
      for (const [key, c] of Object.entries(g.cells)) {
        const d = Math.hypot(c.x - pt.x, c.y - pt.y);
        if (d <= Math.max(c.r, c.near / 2) && d < bd) { best = +key; bd = d; }
      }
    if (best !== null) opts.onCell(best);
  });
  return svg;
}

/* The ink of a sign as drawn (its font, bold), in units of its font
 * size: how far it reaches above and below its baseline, its width, and
 * how far to move its anchor for the ink to be centred on it. Measured on
 * a canvas; a typical capital's where that cannot be done. */
let meter;
const inks = new Map();
function inkOf(t) {
  const cs = getComputedStyle(t), font = `${cs.fontStyle} ${cs.fontWeight} 100px ${cs.fontFamily}`, key = font + "\n" + t.textContent;
  if (inks.has(key)) return inks.get(key);
  let ink = {asc: .75, desc: .05, w: .65 * t.textContent.length, shift: 0};
  try {
    meter = meter || document.createElement("canvas").getContext("2d");
    meter.font = font;
    meter.textAlign = "center";
    const m = meter.measureText(t.textContent);
    if (m.actualBoundingBoxAscent > 0)
      ink = {asc: m.actualBoundingBoxAscent / 100, desc: Math.max(0, m.actualBoundingBoxDescent) / 100,
             w: (m.actualBoundingBoxLeft + m.actualBoundingBoxRight) / 100,
             shift: (m.actualBoundingBoxLeft - m.actualBoundingBoxRight) / 200};
  } catch (e) { /* no canvas: the typical capital */ }
  inks.set(key, ink);
  return ink;
}

/* Sizes what is written on a drawn board for the screen it is on: the
 * holes' numbers and signs readable, and the arrows' labels at 12 CSS px
 * or more, each where it covers no piece and no other label (tried at the
 * arrow's end, back along its path, then around its end). Called once
 * the board is laid out, and again when its size changes. */
export function fitBoard(svg) {
  if (!svg || !svg.isConnected || !svg._labels) return;
  const ctm = svg.getScreenCTM(), k = ctm ? Math.hypot(ctm.a, ctm.b) : 0;
  if (!k) return;
  const px = n => n / k; /* n CSS px in the drawing's units */
  for (const t of svg.querySelectorAll("text.num")) {
    const r = +t.dataset.r, sq = t.dataset.square === "1";
    const fs = Math.min(Math.max(+t.dataset.fs, px(11)), r * (sq ? .8 : 1.1));
    t.setAttribute("font-size", fs);
    if (sq) t.setAttribute("y", +t.dataset.top + fs * .95);
  }
  const numbered = svg.classList.contains("numbers");
  for (const t of svg.querySelectorAll("text.mark")) {
    const r = +t.dataset.r, sq = t.dataset.square === "1", cy = +t.dataset.cy;
    if (t.dataset.badge) {
      /* a sign beside its hole: 13 CSS px at least, within its room */
      const fs = Math.max(Math.min(r * 1.5, px(26)), px(16));
      const ink = inkOf(t);
      t.setAttribute("font-size", fs);
      t.setAttribute("stroke-width", fs * .05);
      t.setAttribute("x", +t.dataset.cx + ink.shift * fs);
      t.setAttribute("y", cy + (ink.asc - ink.desc) * fs / 2);
      continue;
    }
    let fs = Math.min(Math.max(+t.dataset.fs, px(sq ? 21 : 18)), r * (sq ? 1.3 : 1.5));
    t.setAttribute("font-size", fs);
    /* (a word such as nfr kept within its square) */
    const wide = t.getComputedTextLength ? t.getComputedTextLength() : 0;
    if (wide > 1.8 * r) { fs = Math.max(+t.dataset.fs, fs * 1.8 * r / wide); t.setAttribute("font-size", fs); }
    const num = numbered && sq ? svg.querySelector(`text.num[data-of="${t.parentNode.dataset.cell}"]`) : null;
    if (num) {
      /* in a numbered square: the sign's ink in the room under the
         number in its corner, as large as that room allows (never larger
         than above), centred there */
      const ink = inkOf(t), pad = Math.max(r * .06, px(1.5));
      const top = +num.getAttribute("y") + px(2.5), bottom = cy + r - pad;
      fs = Math.min(fs, (bottom - top) / (ink.asc + ink.desc + .06), (2 * r - 2 * Math.max(r * .08, px(2))) / (ink.w + .06));
      t.setAttribute("font-size", fs);
      t.setAttribute("stroke-width", fs * .05); /* (thin signs such as the ankh drawn bolder) */
      t.setAttribute("x", +t.dataset.cx + ink.shift * fs);
      t.setAttribute("y", top + (bottom - top - (ink.asc + ink.desc) * fs) / 2 + ink.asc * fs);
      continue;
    }
    /* (in a square, a little below its middle, clear of the number in
       its corner where the numbers are shown) */
    t.setAttribute("stroke-width", fs * .05);
    t.setAttribute("x", +t.dataset.cx);
    t.setAttribute("y", sq ? Math.min(cy + fs * .36 + r * .15, cy + r * .85) : cy + fs * .36);
  }
  const layer = svg.querySelector("g.labels");
  if (!layer) return;
  layer.replaceChildren();
  /* (at least 12.5 CSS px; larger on a large board, up to 16) */
  const unit = Math.min(...[...svg.querySelectorAll(".hole .cellbg")].map(c => +(c.getAttribute("r") || c.getAttribute("width") / 2)));
  const fs = Math.max(px(12.5), Math.min(unit * .5, px(16))), ht = fs * 1.55, placed = [];
  const [x0, y0, x1, y1] = svg._box;
  /* what a label keeps off: the pieces, the numbers shown, the arrows'
     shafts (other than its own) and the labels placed */
  const numbers = numbered ? [...svg.querySelectorAll("text.num")].map(t => {
    const f = +t.getAttribute("font-size"), x = +t.getAttribute("x"), y = +t.getAttribute("y"), wd = f * .62 * t.textContent.length;
    return {x: t.getAttribute("text-anchor") === "middle" ? x - wd / 2 : x, y: y - f * .75, w: wd, h: f * .8};
  }) : [];
  const shafts = [];
  for (const r of svg._runs || [])
    for (let i = 1; i < r.pts.length; i++) {
      const a = r.pts[i - 1], b = r.pts[i], n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / (ht / 3)));
      for (let j = 0; j <= n; j++) shafts.push({x: a.x + (b.x - a.x) * j / n, y: a.y + (b.y - a.y) * j / n, run: r});
    }
  const circleIn = (b, c) => {
    const dx = Math.max(b.x - c.x, 0, c.x - (b.x + b.w)), dy = Math.max(b.y - c.y, 0, c.y - (b.y + b.h));
    return Math.max(0, c.r - Math.hypot(dx, dy)) / c.r;
  };
  const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  for (const l of svg._labels) {
    if (!l.at.length) continue;
    const wd = Math.max(ht, fs * (l.text.length * .62 + .9));
    const box = q => ({x: q.x - wd / 2, y: q.y - ht / 2, w: wd, h: ht});
    /* where it may go: along its arrow from the end back, or beside it
       (at most about a label's height across): the one that covers least,
       nearest the arrow's end */
    const along = [];
    let run = 0;
    for (let i = 0; i < l.at.length; i++) {
      const a = l.at[i], b = l.at[i + 1];
      along.push({x: a.x, y: a.y, d: run, nx: 0, ny: 0});
      if (!b) break;
      const len = Math.hypot(b.x - a.x, b.y - a.y), k = Math.max(1, Math.ceil(len / (ht / 2)));
      const nx = -(b.y - a.y) / (len || 1), ny = (b.x - a.x) / (len || 1);
      along[along.length - 1].nx = nx; along[along.length - 1].ny = ny;
      for (let j = 1; j < k; j++) along.push({x: a.x + (b.x - a.x) * j / k, y: a.y + (b.y - a.y) * j / k, d: run + len * j / k, nx, ny});
      run += len;
    }
    let at = null, least = Infinity;
    for (const q of along) {
      const nx = q.nx || 0, ny = q.ny || (q.nx ? 0 : 1);
      for (const side of [0, .8, -.8, 1.25, -1.25]) {
        const c = {x: q.x + nx * ht * side, y: q.y + ny * ht * side}, b = box(c);
        if (b.x < x0 || b.y < y0 || b.x + b.w > x1 || b.y + b.h > y1 || placed.some(p => overlap(b, p))) continue;
        let cost = q.d / ht * .4 + Math.abs(side) * .6;
        for (const pc of svg._pieces) cost += 40 * circleIn(b, pc);
        for (const nb of numbers) if (overlap(b, nb)) cost += 25;
        for (const sp of shafts) if (!l.own.includes(sp.run) && sp.x > b.x && sp.x < b.x + b.w && sp.y > b.y && sp.y < b.y + b.h) cost += 2;
        if (cost < least) { least = cost; at = c; }
      }
    }
    if (!at) at = {x: Math.min(Math.max(l.at[0].x, x0 + wd / 2), x1 - wd / 2), y: Math.min(Math.max(l.at[0].y - ht, y0 + ht / 2), y1 - ht / 2)};
    const b = box(at);
    placed.push(b);
    layer.append(s("g", {class: l.kind, "data-move": l.move || ""},
      s("rect", {x: b.x, y: b.y, width: b.w, height: b.h, rx: ht / 2}),
      s("text", {x: at.x, y: at.y + fs * .36, "text-anchor": "middle", "font-size": fs}, l.text),
      s("title", {}, l.title || l.text)));
  }
}

/* Glides a piece of player p along each step's points, one step after
 * another, over the drawing `svg` (resolves at once with reduced motion). */
export function glide(svg, rs, p, steps, speed = 1) {
  const g = geometry(rs), unit = Math.min(...Object.values(g.cells).map(c => c.r));
  const pts = steps.flatMap(st => st.points);
  if (pts.length < 2 || reduced()) return Promise.resolve();
  const r = (g.cells[pts[0].cell] || {r: unit}).r * .7 || unit;
  const ghost = s("circle", {class: "piece piece" + p + " ghost", cx: 0, cy: 0, r, "stroke-width": Math.max(1.2, r * .16)});
  svg.append(ghost);
  const frames = pts.map(q => ({transform: `translate(${q.x}px, ${q.y}px)`}));
  const ms = Math.min(1400, Math.max(380, 110 * pts.length)) / speed;
  const anim = ghost.animate(frames, {duration: ms, easing: "ease-in-out", fill: "forwards"});
  svg._anim = anim;
  return anim.finished.catch(() => {}).then(() => ghost.remove());
}

/* The throw: sticks (marked side up or not) or dice, and the plain number. */
let lastThrow = null;
export function drawThrow(rs, t) {
  if (!t) { lastThrow = null; return h("div", {class: "sticks empty", "aria-label": "no throw yet"}); }
  const fresh = lastThrow !== JSON.stringify(t);
  lastThrow = JSON.stringify(t);
  const box = h("div", {class: "sticks" + (fresh ? " fresh" : "") + (t.kept ? " kept" : ""),
    "aria-label": (t.kept ? "still to play: " : "throw: ") + throwWords(rs, t)});
  if (t.kept) box.append(h("span", {class: "keptnote"}, "still to play"));
  if (t.sticks && t.faces.length && t.values.length === 1) {
    for (const f of t.faces) box.append(h("span", {class: "stick " + (f ? "marked" : "plain"), title: f ? "marked side up" : "plain side up"}));
  } else {
    t.values.forEach((v, i) => box.append(h("span", {class: "die" + (t.only[i] ? " only" + t.only[i] : ""),
      title: t.only[i] ? `${v}: for ${rs.players[t.only[i] - 1]} only` : "value " + v}, v)));
  }
  if (t.values.length === 1 && !t.kept) box.append(h("span", {class: "throwvalue", id: "throwvalue"}, String(t.values[0])));
  return box;
}
