/* home.js - the start page (a new game, one's own games, the rules of
 * every ruleset) and the rules page of one ruleset. */
import {app, h, myGames, remember, keepInvite, errorPage} from "./util.js";
import {api, getRulesets, playLevels, offline, ruleset} from "./api.js";
import {leaveGame} from "./game.js";
import {drawBoard, legend} from "./board.js";

/* The start page; `chosen`, a ruleset to offer first (from its rules
 * page's "Play" link). */
export async function home(chosen) {
  leaveGame();
  const rulesets = await getRulesets();
  const pick = h("select", {id: "ruleset", "aria-label": "ruleset"},
                 rulesets.map(r => h("option", {value: r.id, selected: r.id === chosen}, r.title)));
  const opp = h("select", {id: "opponent", "aria-label": "opponent"},
    playLevels().map(l => h("option", {value: "computer:" + l.level, selected: l.level === 2},
      `the computer, level ${l.level} (${l.about})`)),
    h("option", {value: "human"}, offline ? "a person at this device (taking turns)" : "a person on another device (you get a link)"));
  const seat = h("select", {id: "seat", "aria-label": "your seat"},
    h("option", {value: "1"}, "as player 1"), h("option", {value: "2"}, "as player 2"));
  const msg = h("p", {class: "msg", role: "status"});
  const start = h("button", {id: "start", onclick: async () => {
    const me = +seat.value, players = ["human", "human"];
    players[2 - me] = opp.value;
    start.disabled = true;
    try {
      const g = await api("POST", "games", {ruleset: pick.value, players});
      /* where the opening decides who plays black (Jéquier's first 1),
         the server seats the players named by it: "seated" gives each
         one's seat */
      const mine = g.seated ? g.seated[me - 1] : me;
      remember(g.id, g.tokens[String(mine)], mine);
      if (!offline && g.tokens[String(3 - mine)]) keepInvite(g.id, g.tokens[String(3 - mine)]);
      location.hash = `#/game/${g.id}`;
    } catch (e) { msg.textContent = e.message; msg.className = "msg bad"; }
    finally { start.disabled = false; }
  }}, "Start the game");
  const rulesLink = h("a", {href: "#/rules/" + pick.value, id: "rules-link"}, "Read its rules");
  /* the game chosen, by its author, year and what sets it apart */
  const about = h("p", {class: "small", id: "ruleset-about"}, byline(ruleset(pick.value)));
  pick.addEventListener("change", () => {
    rulesLink.setAttribute("href", "#/rules/" + pick.value);
    about.textContent = byline(ruleset(pick.value));
  });
  const mine = h("div", {}, "…");
  app.replaceChildren(h("div", {class: "home"},
    h("h1", {}, "Play a race game of ancient Egypt"),
    h("div", {class: "panel"},
      h("div", {class: "form"}, h("label", {}, "Game ", pick), h("label", {}, "Against ", opp), h("label", {}, "Playing ", seat)),
      about,
      h("div", {class: "row"}, start, rulesLink), msg),
    offline ? h("p", {class: "small", id: "offline-note"}, "Playing offline: the computer thinks in this browser and your games are kept in it. " +
                "Playing a person on another device needs the server (kemet serve).") : "",
    h("h2", {}, "Your games"), mine,
    h("h2", {}, "The rules"),
    h("ul", {class: "rules-list"}, rulesets.map(r => h("li", {}, h("a", {href: "#/rules/" + r.id}, r.title), h("span", {class: "small"}, " — " + byline(r)))))));
  /* offline, two people at this device hold one game's two seats: listed once */
  const list = myGames().filter((g, i, all) => !offline || all.findIndex(x => x.id === g.id) === i);
  if (!list.length) { mine.textContent = "None yet."; return; }
  let got;
  try { got = (await api("GET", "games?ids=" + list.slice(0, 200).map(g => g.id).join(","))).games; }
  catch (e) { mine.replaceChildren(h("p", {class: "msg bad"}, e.message)); return; }
  const byId = Object.fromEntries(got.map(g => [g.id, g]));
  const kept = list.filter(g => byId[g.id]).slice(0, 30);
  /* whose turn: from the summary, or the game's state where it does not say */
  await Promise.all(kept.map(async g => {
    const x = byId[g.id];
    if (x.status === "over" || x.to !== undefined) return;
    try { x.to = (await api("GET", "games/" + x.id, undefined, g.token)).to; } catch (e) { x.to = null; }
  }));
  const rows = kept.map(g => {
    const x = byId[g.id];
    const other = x.players[2 - g.seat];
    const both = x.players.every(p => p.kind === "human") && offline;
    const state = x.status === "over" ? (x.winner === g.seat || both ? (both ? "over" : "won") : x.winner === 0 ? "drawn" : "lost")
      : x.to === g.seat || both ? "your turn" : x.to ? (other.kind === "computer" ? "the computer's turn" : `${other.name}' turn`.replace(/([^s])' turn/, "$1's turn")) : "in play";
    return h("tr", {class: state === "your turn" ? "yours" : ""}, h("td", {}, x.title), h("td", {}, both ? "both sides" : "as " + x.players[g.seat - 1].name),
      h("td", {}, other.kind === "computer" ? "the computer, level " + other.level : "a person"),
      h("td", {class: "state"}, state + ` · ${x.plies} moves`),
      h("td", {}, x.status === "over" ? h("a", {href: `#/replay/${x.id}`}, "replay")
                                      : h("a", {href: `#/game/${x.id}`}, "resume")));
  });
  mine.replaceChildren(h("div", {class: "tablewrap"}, h("table", {class: "games"}, h("tr", {}, h("th", {}, "game"), h("th", {}, "you"), h("th", {}, "against"), h("th", {}, "state"), h("th", {}, "")), rows)));
}

/* The rules' text (plain text of the library) as HTML: paragraphs, and
 * lists where lines begin "- " (a list item's own lines indented). */
function rulesHtml(text) {
  const out = [];
  let para = [], list = null;
  const flush = () => {
    if (para.length) out.push(h("p", {}, para.join(" ")));
    para = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (!line.trim()) { flush(); list = null; continue; }
    const item = line.match(/^\s*[-*]\s+(.*)$/) || line.match(/^\s*(\d+\.\s+.*)$/);
    if (item) {
      flush();
      if (!list) { list = h("ul", {}); out.push(list); }
      list.append(h("li", {}, item[1]));
    } else if (list && /^\s+/.test(line)) {
      list.lastChild.append(" " + line.trim());
    } else {
      list = null;
      if (/^[A-Z][^.]{2,60}:$/.test(line.trim())) { flush(); out.push(h("h3", {}, line.trim().replace(/:$/, ""))); }
      else para.push(line.trim());
    }
  }
  flush();
  return out;
}

/* A ruleset's rules: the text, the board with its legend, where it comes
 * from and, for a reconstructed board, how it was made. */
/* A ruleset for a player: its author, year and what sets it apart. */
export function byline(rs) {
  const who = rs.author.charAt(0).toUpperCase() + rs.author.slice(1);
  return `${who}, ${rs.year || "year not given"}. ${rs.about}`;
}

export async function rulesPage(id) {
  await getRulesets();
  const rs = ruleset(id);
  if (!rs) { errorPage(`There is no ruleset ${id}.`); return; }
  /* (the signs of round holes, a Sun's rays, are in the legend itself) */
  const a = rs.art, marks = [...new Set(a.holes.filter(c => c.shape === "square").map(c => c.mark).filter(Boolean))];
  const note = (rs.board_note || "").replace(/;?\s*see docs\/boards\.md\.?/, ".").replace(/\.\.$/, ".");
  const sample = drawBoard(rs, rs.start || [], {you: 1, numbers: true});
  app.replaceChildren(h("article", {class: "rules"},
    h("p", {class: "small"}, h("a", {href: "#/"}, "← the start page"), " · ", h("a", {href: "#", onclick: e => { e.preventDefault(); history.back(); }}, "back")),
    h("h1", {}, rs.title),
    h("p", {class: "byline"}, byline(rs)),
    h("p", {class: "small"}, "Source: " + rs.source),
    h("h2", {}, "The board"),
    h("div", {class: "boardwrap rulesboard"}, sample),
    h("h3", {}, "Legend"),
    h("ul", {class: "legendlist"},
      h("li", {}, legend(rs, null)),
      h("li", {}, `Pieces in play: ${rs.pieces} a side on a track of ${rs.squares} squares; the numbers are the squares of ${rs.players[0]}${rs.players[0].endsWith("s") ? "'" : "'s"} track` +
        (rs.paths[1].some((c, i) => c !== rs.paths[0][i]) ? ` (${rs.players[1]} run their own track: the board's arrows show the way of the side you play).` : ".")),
      a.holes.some(c => c.marked && !c.mark) ? h("li", {}, "A hole ringed in gold is a marked hole (see the rules).") : null,
      marks.length ? h("li", {}, "Signs on the holes: " + marks.join(" ") + " (named in the rules).") : null,
      a.holes.some(c => c.home) ? h("li", {}, `Tinted holes with dashed rings are the home rows (light brown: ${rs.players[0]}; grey-blue: ${rs.players[1]}).`) : null,
      a.links.some(l => l.kind === "line") ? h("li", {}, "Brown lines join holes a piece may jump between (see the rules).") : null,
      a.links.some(l => l.kind === "river") ? h("li", {}, "Blue dashed lines are rivers: a piece ending its step on one is carried back along it.") : null,
      rs.in_hand ? h("li", {}, `Pieces ${rs.in_hand} wait beside the board to enter.`) : null,
      rs.gone ? h("li", {}, `Pieces ${rs.gone} are counted beside the board.`) : null),
    h("h2", {}, "The rules"),
    h("div", {class: "rulestext"}, rulesHtml(rs.text)),
    note ? [h("h2", {}, "About this board"), h("p", {}, note)] : null,
    rs.board_file ? h("details", {}, h("summary", {}, "The board file it is drawn from"), h("pre", {}, rs.board_file)) : null,
    h("p", {}, h("a", {href: `#/new/${encodeURIComponent(rs.id)}`, class: "button", id: "play-it"}, "Play " + rs.title))));
}
