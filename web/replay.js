/* replay.js - a game move by move, and its review (GET .../review): the
 * graded decisions, each player's accuracy, loss and luck, and the chances
 * over the game; a decision picked shows its position with the move played
 * and the best move marked. */
import {app, h, s} from "./util.js";
import {api, getRulesets, ruleset} from "./api.js";
import {drawBoard, moveCells} from "./board.js";
import {leaveGame, whoName} from "./game.js";

const pct = x => (100 * x).toFixed(1) + "%";

/* Player 1's chance over the decisions, as a line; a click picks one. */
function chanceGraph(rs, decisions, onPick) {
  const W = 600, H = 160, n = decisions.length;
  const x = i => 30 + (W - 40) * (n > 1 ? i / (n - 1) : 0);
  const y = c => 10 + (H - 30) * (1 - c);
  const p1 = d => d.player === 1 ? d.played_chance : 1 - d.played_chance;
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img",
                        "aria-label": `${rs.players[0]}'s chance of winning over the game`});
  for (const c of [0, 0.5, 1])
    svg.append(s("line", {x1: 30, x2: W - 10, y1: y(c), y2: y(c), class: c === 0.5 ? "mid" : "rule"}),
               s("text", {x: 0, y: y(c) + 4}, `${100 * c}%`));
  svg.append(s("polyline", {points: decisions.map((d, i) => `${x(i)},${y(p1(d))}`).join(" "), class: "chance"}));
  decisions.forEach((d, i) => {
    if (d.grade !== "bad" && d.grade !== "very bad") return;
    const dot = s("circle", {cx: x(i), cy: y(p1(d)), r: 5, class: "dot " + d.grade.replace(" ", "-")},
                  s("title", {}, `move ${d.ply}, ${whoName(rs, d.player)}: ${d.grade}`));
    dot.addEventListener("click", () => onPick(i));
    svg.append(dot);
  });
  return svg;
}

export async function replayPage(id) {
  await getRulesets();
  leaveGame();
  const g = await api("GET", `games/${id}/history`);
  const rs = ruleset(g.ruleset);
  let k = g.history.length - 1, review = null, picked = -1;
  const holder = h("div", {class: "boardwrap"}), words = h("p", {id: "replay-words", "aria-live": "polite"});
  const slider = h("input", {type: "range", min: 0, max: g.history.length - 1, value: k, "aria-label": "move number"});
  const reviewBox = h("div", {id: "review"});
  const show = () => {
    const p = g.history[k];
    const marks = {};
    let note = "";
    const d = review && picked >= 0 ? review.decisions[picked] : null;
    if (d && d.ply - 1 === k) {
      /* the position the decision was made in: the move played and the best */
      const pl = moveCells(rs, d.player, d.played), best = moveCells(rs, d.player, d.best);
      for (const c of [...pl.from, ...pl.to]) marks[c] = "played";
      for (const c of [...best.from, ...best.to]) marks[c] = marks[c] ? "played best" : "best";
      note = `Decision ${picked + 1}, before move ${d.ply}: ${whoName(rs, d.player)}${d.throw ? " with " + d.throw : " before the throw"} played ${d.played} ` +
             `(${pct(d.played_chance)}); the best was ${d.best} (${pct(d.best_chance)}): ${d.grade}` +
             (d.loss >= 0.0001 ? `, ${(100 * d.loss).toFixed(1)} points lost.` : ".");
    } else if (k > 0) {
      const m = moveCells(rs, p.player, p.move);
      for (const c of [...m.from, ...m.to]) marks[c] = "played";
    }
    holder.replaceChildren(drawBoard(rs, p.cells, marks, null));
    words.textContent = note || (k === 0 ? "Start. " + p.words
      : `Move ${k}: ${whoName(rs, p.player)} ${p.throw ? "threw " + p.throw.text + ", " : ""}played ${p.move}. ${p.words}`);
    slider.value = k;
    for (const li of reviewBox.querySelectorAll("li")) li.classList.toggle("current", +li.dataset.i === picked);
  };
  const pick = i => { picked = i; k = review.decisions[i].ply - 1; show(); };
  slider.addEventListener("input", () => { k = +slider.value; picked = -1; show(); });
  const step = d => { k = Math.max(0, Math.min(g.history.length - 1, k + d)); picked = -1; show(); };
  const showReview = async () => {
    reviewBox.replaceChildren(h("p", {}, "Reviewing every move…"));
    try { review = await api("GET", `games/${id}/review`); }
    catch (e) { reviewBox.replaceChildren(h("p", {class: "msg bad"}, e.message)); return; }
    const players = review.players.map(p => h("tr", {}, h("th", {}, p.name),
      h("td", {}, pct(p.accuracy)), h("td", {}, (100 * p.loss).toFixed(1)), h("td", {}, (p.luck >= 0 ? "+" : "") + (100 * p.luck).toFixed(1)),
      h("td", {}, `${p.grades.doubtful} / ${p.grades.bad} / ${p.grades["very bad"]}`)));
    const list = h("ul", {class: "review-list"}, review.decisions.map((d, i) => {
      const li = h("li", {"data-i": i, class: "grade-" + d.grade.replace(" ", "-")},
        h("button", {class: "link", onclick: () => pick(i)},
          `${d.ply}. ${whoName(rs, d.player)}${d.throw ? " (" + d.throw + ")" : " (before the throw)"}: ${d.played}`),
        ` ${d.grade}` + (d.loss >= 0.0001 ? `, −${(100 * d.loss).toFixed(1)}` : "") + (d.played === d.best ? "" : ` (best ${d.best})`));
      return li;
    }));
    reviewBox.replaceChildren(
      h("h2", {}, "Review"),
      h("p", {}, `Every decision graded by the ${review.agent} agent: the loss is the best move's chance of winning minus the chance of the move played, in points ` +
        `(doubtful from ${100 * review.thresholds.doubtful}, bad from ${100 * review.thresholds.bad}, very bad from ${100 * review.thresholds.very_bad}); ` +
        `a throw's luck is the chance after it minus the chance before.`),
      h("table", {class: "games"}, h("tr", {}, h("th", {}, ""), h("th", {}, "accuracy"), h("th", {}, "points lost"), h("th", {}, "luck"), h("th", {}, "doubtful / bad / very bad")), players),
      chanceGraph(rs, review.decisions, pick),
      list);
    show();
  };
  const page = h("div", {tabindex: 0, onkeydown: e => { if (e.key === "ArrowLeft") step(-1); if (e.key === "ArrowRight") step(1); }},
    h("h1", {}, "Replay: " + rs.title),
    holder,
    h("div", {class: "row"}, h("button", {onclick: () => { k = 0; picked = -1; show(); }, "aria-label": "first move"}, "|◀"), h("button", {id: "prev", onclick: () => step(-1)}, "◀ previous"),
      slider, h("button", {id: "next", onclick: () => step(1)}, "next ▶"), h("button", {onclick: () => { k = g.history.length - 1; picked = -1; show(); }, "aria-label": "last move"}, "▶|")),
    words,
    h("p", {}, g.status === "over" ? (g.winner ? whoName(rs, g.winner) + " won." : "Drawn.") : "The game is still in play."),
    g.status === "over" ? h("button", {id: "review-button", onclick: showReview}, "Review the game") : null,
    reviewBox);
  app.replaceChildren(page);
  show();
}
