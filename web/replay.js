/* replay.js - a game move by move. */
import {app, h} from "./util.js";
import {api, getRulesets, ruleset} from "./api.js";
import {drawBoard} from "./board.js";
import {leaveGame, whoName} from "./game.js";

export async function replayPage(id) {
  await getRulesets();
  leaveGame();
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

