/* replay.js - a game move by move, with its review: each side's accuracy
 * (docs/review.md: from the chances lost, as lichess does), the graded
 * decisions, the key moments and player 1's chance over the game; a click
 * on the graph or a decision shows its position with the move played and
 * the best. */
import {getItem} from "./store.js";
import {app, h, s, errorPage, myGames, tokenFor} from "./util.js";
import {api, getRulesets, ruleset, playLevels} from "./api.js";
import {drawBoard, fitBoard, moveSteps, moveWords, threwWords, endWords, whose, numbering} from "./board.js";
import {leaveGame, whoName} from "./game.js";

const pct = x => (100 * x).toFixed(1) + "%";
/* points of win chance: a tenth of a point, a hundredth below that */
const pts = x => (100 * Math.abs(x) < 0.1 && x !== 0 ? (100 * x).toFixed(2) : (100 * x).toFixed(1));

/* A decision's accuracy from the points of win chance it lost, L (0-100):
 * 103.1668 e^(-0.04354 L) - 3.1669, within 0-100 (lichess's move accuracy;
 * docs/review.md; src/lib/tools/review.c computes the same). */
export function moveAccuracy(loss) {
  const a = 103.1668 * Math.exp(-0.04354 * 100 * loss) - 3.1669;
  return Math.max(0, Math.min(100, a));
}
/* A side's accuracy: the mean over its real choices (two or more). */
export function accuracyOf(decisions, player) {
  const real = decisions.filter(d => d.player === player && d.choices > 1);
  return real.length ? real.reduce((a, d) => a + moveAccuracy(d.loss), 0) / real.length : 100;
}

/* A decision's move played or best, in words, as the seat looking reads
 * the board (`viewer`). */
function playedWords(rs, d, which, viewer, values) {
  const m = which === "best" ? (d.best_throws ? "throw" : d.best) : (d.throw ? d.played : d.played || "throw");
  return moveWords(rs, m, {who: d.player, viewer, values});
}

/* Player 1's chance after each decision, as a line; a click anywhere on
 * it picks the nearest decision. */
function chanceGraph(rs, decisions, onPick, width) {
  /* drawn at the width it is shown at (its words 12 px on any screen) */
  const W = Math.round(Math.max(280, Math.min(700, width || 640))), H = 170, n = decisions.length, L = 38;
  const x = i => L + (W - L - 10) * (n > 1 ? i / (n - 1) : 0);
  const y = c => 10 + (H - 30) * (1 - c);
  const p1 = d => d.player === 1 ? d.played_chance : 1 - d.played_chance;
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img",
                        "aria-label": `${whose(rs, 1)} chance of winning over the game; click to see a position`});
  for (const c of [0, 0.5, 1])
    svg.append(s("line", {x1: L, x2: W - 10, y1: y(c), y2: y(c), class: c === 0.5 ? "mid" : "rule"}),
               s("text", {x: 2, y: y(c) + 4}, `${100 * c}%`));
  svg.append(s("text", {x: L + 4, y: 22, class: "who"}, `${whose(rs, 1)} chance of winning`));
  const area = `${x(0)},${y(0.5)} ` + decisions.map((d, i) => `${x(i)},${y(p1(d))}`).join(" ") + ` ${x(n - 1)},${y(0.5)}`;
  svg.append(s("polygon", {points: area, class: "area"}));
  svg.append(s("polyline", {points: decisions.map((d, i) => `${x(i)},${y(p1(d))}`).join(" "), class: "chance"}));
  const cursor = s("line", {class: "cursor", x1: -10, x2: -10, y1: 10, y2: H - 20});
  svg.append(cursor);
  decisions.forEach((d, i) => {
    if (d.grade !== "bad" && d.grade !== "very bad") return;
    svg.append(s("circle", {cx: x(i), cy: y(p1(d)), r: 5, class: "dot " + d.grade.replace(" ", "-")},
                  s("title", {}, `move ${d.ply}, ${whoName(rs, d.player)}: ${d.grade}`)));
  });
  const hit = s("rect", {x: L, y: 0, width: W - L, height: H, fill: "transparent", class: "hit", "data-n": n});
  hit.addEventListener("click", e => {
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const i = Math.round((pt.x - L) / (W - L - 10) * (n - 1));
    onPick(Math.max(0, Math.min(n - 1, i)));
  });
  svg.append(hit);
  svg.setCursor = i => { cursor.setAttribute("x1", i < 0 ? -10 : x(i)); cursor.setAttribute("x2", i < 0 ? -10 : x(i)); };
  return svg;
}

/* How the game ended, in words. */
function ending(rs, g) {
  if (g.status !== "over") return "The game is still in play.";
  const who = g.winner ? whoName(rs, g.winner) + " won" : "The game was drawn";
  if (g.resigned) return `${whoName(rs, g.resigned)} resigned after ${g.plies} moves: ${who}.`;
  /* why: from the final position */
  const last = g.history && g.history[g.history.length - 1];
  const why = last ? endWords(rs, {cells: last.cells, winner: g.winner}) : "";
  return `${who} after ${g.plies} moves.${why ? " " + why : ""}`;
}

export async function replayPage(id) {
  await getRulesets();
  leaveGame();
  /* the seat this browser plays in the game reads the moves in its own
     numbers (as its board is numbered); anyone else in player 1's */
  const mine = myGames().find(x => x.id === id);
  const viewer = mine ? mine.seat : 1;
  let g;
  try { g = await api("GET", `games/${id}/history`, undefined, tokenFor(id)); }
  catch (e) { errorPage(e.status === 404 ? `There is no game ${id} to replay.` : e.message); return; }
  const rs = ruleset(g.ruleset);
  /* the values of a decision's throw (for the words of a line's step) */
  const valuesOf = d => g.history[d.ply] && g.history[d.ply].throw ? g.history[d.ply].throw.values : [];
  let k = g.history.length - 1, review = null, picked = -1, graph = null;
  const holder = h("div", {class: "boardwrap"}), words = h("p", {id: "replay-words", "aria-live": "polite"});
  const slider = h("input", {type: "range", min: 0, max: g.history.length - 1, value: k, "aria-label": "move number"});
  const reviewBox = h("div", {id: "review"});
  const show = () => {
    const p = g.history[k];
    const marks = {}, arrows = [];
    let note = "";
    const d = review && picked >= 0 ? review.decisions[picked] : null;
    if (d && d.ply - 1 === k) {
      /* the position the decision was made in: the move played and the best */
      const vals = d.throw ? (g.history[d.ply] && g.history[d.ply].throw ? g.history[d.ply].throw.values : []) : [];
      const played = d.throw ? d.played : d.played;
      if (played && played !== "throw") arrows.push({steps: moveSteps(rs, d.player, played, vals), kind: "hint", move: "played", label: "played", numbered: false});
      if (d.loss >= 0.0001 && d.best && !d.best_throws) arrows.push({steps: moveSteps(rs, d.player, d.best, vals), kind: "best", move: "best", label: "best", numbered: false});
      const same = d.loss < 0.0001;
      note = `Move ${d.ply}, ${whoName(rs, d.player)}${d.throw ? " " + threwWords(rs, g.history[d.ply] && g.history[d.ply].throw || {values: [d.throw], only: [0]}) : ", before throwing"}: ` +
             `played ${playedWords(rs, d, "played", viewer, valuesOf(d))} (chance of winning after it ${pct(d.played_chance)})` +
             (same ? ` — ${d.grade === "forced" ? "the only move" : "the best move"}.` :
               `; the best was ${playedWords(rs, d, "best", viewer, valuesOf(d))} (${pct(d.best_chance)}): ${d.grade}, ${pts(d.loss)} points lost.`);
    } else if (k > 0) {
      arrows.push({steps: moveSteps(rs, p.player, p.move, p.throw ? p.throw.values : []), kind: "last", move: ""});
    }
    const board = drawBoard(rs, p.cells, {marks, arrows, ply: k, you: viewer, numbers: getItem("kemet.numbers") !== "0"});
    holder.replaceChildren(board);
    fitBoard(board);
    words.textContent = note || (k === 0 ? "Start. " + p.words
      /* the move said once, in the words of the move list (they name
         each step in the numbers of the seat looking) */
      : `Move ${k}: ${whoName(rs, p.player)}${p.throw ? " " + threwWords(rs, p.throw) : ""}${p.move === "pass" ? ", no move." : ":"} ${p.words}`);
    if (k === g.history.length - 1 && !note) words.textContent += " " + ending(rs, g);
    slider.value = k;
    for (const li of reviewBox.querySelectorAll("li[data-i]")) li.classList.toggle("current", +li.dataset.i === picked);
    if (graph) graph.setCursor(picked >= 0 ? picked : review.decisions.findIndex(x => x.ply - 1 >= k));
  };
  /* a decision picked (in the list, the key moments or the graph): its
     position shown, the board brought onto the screen where it is not */
  const pick = i => {
    picked = i; k = review.decisions[i].ply - 1; show();
    const r = holder.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) holder.scrollIntoView({block: "start"});
  };
  slider.addEventListener("input", () => { k = +slider.value; picked = -1; show(); });
  const step = d => { k = Math.max(0, Math.min(g.history.length - 1, k + d)); picked = -1; show(); };
  const reviewButton = h("button", {id: "review-button", onclick: () => showReview()}, "Review the game");
  const showReview = async () => {
    reviewButton.disabled = true;
    reviewBox.replaceChildren(h("p", {}, "Reviewing every move…"));
    try { review = await api("GET", `games/${id}/review`); }
    catch (e) { reviewBox.replaceChildren(h("p", {class: "msg bad"}, e.message)); reviewButton.disabled = false; return; }
    reviewButton.remove();
    const level = (playLevels() || []).find(l => l.agent === review.agent);
    /* each side's accuracy as the server gives it (0-1), else worked out
       here by the same formula */
    const acc = [1, 2].map((p, i) => typeof review.players[i].accuracy === "number" ? 100 * review.players[i].accuracy : accuracyOf(review.decisions, p));
    /* how the game ended, as the review says (resigned games too) */
    const end = review.end || (g.resigned ? {resigned: g.resigned, winner: g.winner,
      words: `${whoName(rs, g.resigned)} resigned; ${whoName(rs, 3 - g.resigned)} won.`} : null);
    /* (each figure labelled: on a phone a row is read as a card, its
       labels beside the figures: app.css) */
    const players = review.players.map((p, i) => h("tr", {}, h("th", {scope: "row"}, p.name + (g.players[i].kind === "computer" ? ` (the computer, level ${g.players[i].level})` : "")),
      h("td", {class: "accuracy", "data-accuracy": acc[i].toFixed(2), "data-label": "accuracy"}, acc[i].toFixed(1) + "%"),
      h("td", {"data-label": "points lost"}, pts(p.loss)), h("td", {"data-label": "luck"}, (p.luck >= 0 ? "+" : "") + pts(p.luck)),
      h("td", {"data-label": "doubtful / bad / very bad"}, `${p.grades.doubtful} / ${p.grades.bad} / ${p.grades["very bad"]}`)));
    const line = (d, i) => {
      const same = d.loss < 0.0001;
      return h("li", {"data-i": i, class: "grade-" + d.grade.replace(" ", "-")},
        h("button", {class: "link", onclick: () => pick(i)},
          `Move ${d.ply}, ${whoName(rs, d.player)}${d.throw ? " (" + threwWords(rs, g.history[d.ply] && g.history[d.ply].throw || {values: [d.throw], only: [0]}) + ")" : " (before throwing)"}: ${playedWords(rs, d, "played", viewer, valuesOf(d))}`),
        h("span", {class: "grade"}, ` ${d.grade}`),
        same ? "" : ` −${pts(d.loss)} · best: ${playedWords(rs, d, "best", viewer, valuesOf(d))}`);
    };
    /* the key moments: each side's three largest losses, the three
       luckiest and unluckiest throws */
    const order = review.decisions.map((d, i) => i);
    const losses = order.filter(i => review.decisions[i].loss >= 0.02).sort((a, b) => review.decisions[b].loss - review.decisions[a].loss).slice(0, 5);
    const lucky = order.filter(i => review.decisions[i].luck !== undefined).sort((a, b) => Math.abs(review.decisions[b].luck) - Math.abs(review.decisions[a].luck)).slice(0, 3);
    const key = h("ul", {class: "key-moments"},
      losses.map(i => { const d = review.decisions[i]; return h("li", {}, h("button", {class: "link", onclick: () => pick(i)}, `Move ${d.ply}`), ` ${whoName(rs, d.player)}: ${d.grade}, ${pts(d.loss)} points of win chance lost (${playedWords(rs, d, "played", viewer, valuesOf(d))}; best ${playedWords(rs, d, "best", viewer, valuesOf(d))}).`); }),
      lucky.map(i => { const d = review.decisions[i]; return h("li", {}, h("button", {class: "link", onclick: () => pick(i)}, `Move ${d.ply}`), ` ${whose(rs, d.player)} throw: ${d.luck >= 0 ? "lucky" : "unlucky"}, ${d.luck >= 0 ? "+" : "−"}${pts(Math.abs(d.luck))} points.`); }));
    graph = chanceGraph(rs, review.decisions, pick, reviewBox.clientWidth);
    reviewBox.replaceChildren(
      h("h2", {}, "Review"),
      end ? h("p", {id: "review-end"}, `${review.plies} moves. ${end.words}`, end.resigned ? "" : " " + endWords(rs, {cells: g.history[g.history.length - 1].cells, winner: g.winner})) : null,
      h("table", {class: "games review-table"}, h("tr", {}, h("th", {}, ""), h("th", {}, "accuracy"), h("th", {}, "points lost"), h("th", {}, "luck"), h("th", {}, "doubtful / bad / very bad")), players),
      h("p", {class: "small", id: "accuracy-note"},
        "Accuracy: each real choice scores 100 when it is the best move, and less the more chance of winning it gives up: " +
        "91 for 2 points of chance lost, 80 for 5, 64 for 10, 40 for 20 (the scale lichess uses); a side's accuracy is the mean of its scores. " +
        `Graded by the ${review.agent} agent${level ? ` (level ${level.level}, ${level.about})` : ""}: a search that gives the same grades for the same game every time. ` +
        "The computer's level 5 plays the stronger best agent, whose sampling would grade a game differently from one reading to the next. " +
        `Grades by the points lost: best; good (below ${100 * review.thresholds.doubtful}); doubtful (from ${100 * review.thresholds.doubtful}); bad (from ${100 * review.thresholds.bad}); very bad (from ${100 * review.thresholds.very_bad}). ` +
        "A throw's luck is the chance after it minus the chance before."),
      h("details", {class: "small", id: "formula"}, h("summary", {}, "The formula"),
        h("p", {}, "A choice that loses L points of win chance scores 103.17 × e^(−0.04354 × L) − 3.17, at most 100 (docs/review.md).")),
      graph,
      h("h3", {}, "Key moments"), key.children.length ? key : h("p", {}, "No move lost 2 points or more."),
      h("h3", {}, "Every decision"),
      h("ul", {class: "review-list"}, review.decisions.map(line),
        end && end.resigned ? h("li", {class: "resigned"}, `After move ${review.plies}: ${end.words}`) : null));
    show();
  };
  /* a closer look on a small screen, as on the game page */
  const zoom = h("button", {class: "secondary zoom", id: "zoom", "aria-pressed": "false", onclick: () => {
    const on = !holder.classList.contains("zoomed");
    holder.classList.toggle("zoomed", on);
    zoom.setAttribute("aria-pressed", on ? "true" : "false");
    zoom.textContent = on ? "− Zoom" : "+ Zoom";
    show();
    if (on) { holder.scrollLeft = (holder.scrollWidth - holder.clientWidth) / 2; holder.scrollTop = (holder.scrollHeight - holder.clientHeight) / 2; }
  }}, "+ Zoom");
  const page = h("div", {class: "replay", tabindex: 0, onkeydown: e => { if (e.key === "ArrowLeft") step(-1); if (e.key === "ArrowRight") step(1); }},
    h("div", {class: "gamehead"}, h("h1", {}, "Replay: " + rs.title), zoom),
    h("p", {id: "ending", class: "status"}, ending(rs, g)),
    holder,
    numbering(rs, mine ? viewer : null) ? h("p", {class: "small", id: "numbering"}, numbering(rs, mine ? viewer : null)) : null,
    h("div", {class: "row"}, h("button", {onclick: () => { k = 0; picked = -1; show(); }, "aria-label": "first move"}, "|◀"), h("button", {id: "prev", onclick: () => step(-1)}, "◀"),
      slider, h("button", {id: "next", onclick: () => step(1)}, "▶"), h("button", {onclick: () => { k = g.history.length - 1; picked = -1; show(); }, "aria-label": "last move"}, "▶|")),
    words,
    h("div", {class: "row"}, g.status === "over" ? reviewButton : null, h("a", {href: "#/", class: "button secondary"}, "Start page"),
      g.status !== "over" ? h("a", {href: `#/game/${id}`, class: "button secondary"}, "Back to the game") : null),
    reviewBox);
  app.replaceChildren(page);
  show();
}
