/* board.js - every board drawn from the data the server sends
 * (kemet_art: holes, lines, rivers, home boxes); nothing here knows one
 * board from another. */
import {s, h, activate} from "./util.js";

/* The drawing of ruleset rs: holes by cell, decorations, frame. */
function geometry(rs) {
  if (rs._geo) return rs._geo;
  const a = rs.art, cells = {}, deco = [];
  for (const c of a.holes)
    cells[c.cell] = {x: c.x, y: c.y, r: c.r, square: c.shape === "square", label: c.label,
                     mark: c.mark || (c.marked ? "•" : null),
                     home: c.home,
                     /* a home hole is tinted, darker than any piece, and
                        ringed with dashes: never taken for a pale piece */
                     fill: c.home === 1 ? "#b48a55" : c.home === 2 ? "#7d90a8" : undefined};
  /* each hole's touch area: up to half the way to its nearest neighbour
     (far larger than the hole on the long boards, drawn small on a phone) */
  const list = Object.values(cells);
  for (const c of list) {
    let near = Infinity;
    for (const d of list) if (d !== c) near = Math.min(near, Math.hypot(d.x - c.x, d.y - c.y));
    c.hit = Math.max(c.r, Math.min(near / 2, 3 * c.r));
  }
  const palm = a.frame === "palm";
  for (const l of a.links) {
    const p = cells[l.from], q = cells[l.to];
    if (!p || !q) continue;
    if (l.kind === "river")
      deco.push(s("line", {x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: "#3b7dc4", "stroke-width": 6, "stroke-dasharray": "10 5", opacity: .8}));
    else if (l.bend)
      deco.push(s("path", {d: `M${p.x},${p.y} C${p.x + l.bend},${p.y} ${p.x + l.bend},${q.y} ${q.x},${q.y}`, fill: "none", stroke: "#7a5229", "stroke-width": palm ? 3 : 4}));
    else
      deco.push(s("line", {x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "boardline", stroke: "#7a5229", "stroke-width": palm ? 3 : 4}));
  }
  let frame = [4, 4, a.w - 8, a.h - 8];
  if (palm) {
    /* the palm: a rounded outline and the central stem */
    const c = a.w / 2, b = a.h - 15, top = 170;
    deco.unshift(s("path", {d: `M${c - 190},${b} L${c - 190},${top} Q${c - 190},10 ${c},10 Q${c + 190},10 ${c + 190},${top} L${c + 190},${b} Z`, fill: "#d8b27a", stroke: "#7a5229", "stroke-width": 4}));
    deco.push(s("path", {d: `M${c - 14},80 L${c - 14},470 M${c + 14},80 L${c + 14},470`, stroke: "#9c7444", "stroke-width": 3}));
    frame = null;
  }
  /* the narrowest drawing whose touch areas are all 44 px across: on a
     phone the long boards scroll sideways rather than shrink below it */
  const minHit = Math.min(...list.map(c => c.hit));
  rs._geo = {w: a.w, h: a.h, cells, deco, frame, minWidth: Math.ceil(a.w * 22 / minHit)};
  return rs._geo;
}


/* The cells a move's steps leave from and reach, for player p ("in" and
 * "off" are no cells). */
export function moveCells(rs, p, move) {
  const from = [], to = [];
  if (!move || move === "throw" || move === "pass") return {from, to};
  for (const st of move.split("+")) {
    const [f, t] = st.split("-");
    if (f !== "in" && rs.paths[p - 1][+f]) from.push(rs.paths[p - 1][+f]);
    if (t !== "off" && rs.paths[p - 1][+t]) to.push(rs.paths[p - 1][+t]);
  }
  return {from, to};
}

/* Which side is which: each side's piece, name, number, and "you". */
export function legend(rs, you) {
  return h("div", {class: "legend"}, [1, 2].map(p => h("span", {class: "who"},
    s("svg", {viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true"},
      s("circle", {class: "piece" + p, cx: 10, cy: 10, r: 8})),
    ` ${rs.players[p - 1]} (player ${p})${you === p ? " — you" : ""}`)));
}

/* Draws the board with the pieces of `cells`; `marks` maps a cell to
 * "source", "target" or "picked"; `onCell` (optional) is called with a
 * cell number when one is chosen. */
export function drawBoard(rs, cells, marks, onCell) {
  const g = geometry(rs);
  const svg = s("svg", {viewBox: `0 0 ${g.w} ${g.h}`, class: "board", role: "group",
                        "aria-label": rs.title + " board"});
  svg.style.minWidth = g.minWidth + "px";
  if (g.frame) svg.append(s("rect", {x: g.frame[0], y: g.frame[1], width: g.frame[2], height: g.frame[3], rx: 10, fill: "#d8b27a", stroke: "#7a5229", "stroke-width": 4}));
  svg.append(...g.deco.map(d => d.cloneNode(true)));
  for (const [key, c] of Object.entries(g.cells)) {
    const cell = +key, m = marks && marks[cell];
    const grp = s("g", {class: "hole" + (m ? " " + m : ""), "data-cell": cell});
    const bg = c.square
      ? s("rect", {class: "cellbg", x: c.x - c.r, y: c.y - c.r, width: 2 * c.r, height: 2 * c.r, rx: 4, fill: c.fill || "#ecd3a5", stroke: "#7a5229"})
      : s("circle", {class: "cellbg", cx: c.x, cy: c.y, r: c.r, fill: c.fill || "#6b4420", stroke: "#4a2e12"});
    grp.append(bg);
    if (c.home) bg.setAttribute("stroke-dasharray", "4 3");
    if (c.mark === "•" && !c.square) bg.setAttribute("stroke", "#e8b84a"), bg.setAttribute("stroke-width", 3);
    else if (c.mark) grp.append(s("text", {x: c.x, y: c.square ? c.y + c.r - 6 : c.y - c.r - 2, "text-anchor": "middle", "font-size": c.square ? 13 : 11, fill: "#5a3a18"}, c.mark));
    if (c.square) grp.append(s("text", {x: c.x - c.r + 3, y: c.y - c.r + 11, "font-size": 10, fill: "#7a5229"}, c.label));
    else grp.append(s("text", {class: "num", x: c.x, y: c.y + c.r + 11, "text-anchor": "middle", "font-size": 10}, c.label));
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
    const on = [0, 1].filter(p => n[p]).map(p => `${n[p] > 1 ? n[p] + " " : ""}${rs.players[p]}${n[p] > 1 ? " pieces" : " piece"}`);
    const name = `${c.square ? "square" : "hole"} ${c.label}: ${on.length ? on.join(" and ") : "empty"}`;
    grp.append(s("title", {}, name));
    grp.setAttribute("aria-label", name);
    grp.append(s("circle", {class: "hit", cx: c.x, cy: c.y, r: c.hit, fill: "transparent"}));
    if (onCell && m) activate(grp, () => onCell(cell));
    else if (onCell) grp.addEventListener("click", () => onCell(cell));
    svg.append(grp);
  }
  return svg;
}

let lastThrow = null;
export function drawThrow(t) {
  if (!t) { lastThrow = null; return h("div", {class: "sticks", "aria-label": "no throw yet"}, "—"); }
  /* a new throw is shown falling (briefly; not with reduced motion) */
  const fresh = lastThrow !== JSON.stringify(t);
  lastThrow = JSON.stringify(t);
  const box = h("div", {class: "sticks" + (fresh ? " fresh" : ""), "aria-label": "throw " + t.text});
  if (t.sticks && t.faces.length && t.values.length === 1) {
    for (const f of t.faces) box.append(h("span", {class: "stick " + (f ? "marked" : "plain"), title: f ? "marked side up" : "plain side up"}));
  } else {
    t.values.forEach((v, i) => box.append(h("span", {class: "die", title: t.only[i] ? "usable by player " + t.only[i] + " only" : "value " + v}, v)));
  }
  box.append(h("span", {class: "throwvalue"}, t.text));
  return box;
}

