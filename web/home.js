/* home.js - the start page: a new game, and one's own games. */
import {app, h, myGames, remember, keepInvite} from "./util.js";
import {api, getRulesets, playLevels, offline} from "./api.js";
import {leaveGame} from "./game.js";

export async function home() {
  leaveGame();
  const rulesets = await getRulesets();
  const pick = h("select", {id: "ruleset", "aria-label": "ruleset"},
                 rulesets.map(r => h("option", {value: r.id}, r.title)));
  const opp = h("select", {id: "opponent", "aria-label": "opponent"},
    playLevels().map(l => h("option", {value: "computer:" + l.level, selected: l.level === 2},
      `the computer, level ${l.level} (${l.about})`)),
    h("option", {value: "human"}, offline ? "a person at this device (taking turns)" : "a person on another device (you get a link)"));
  const seat = h("select", {id: "seat", "aria-label": "your seat"},
    h("option", {value: "1"}, "as player 1"), h("option", {value: "2"}, "as player 2"));
  const msg = h("p", {class: "msg"});
  const start = h("button", {id: "start", onclick: async () => {
    const me = +seat.value, players = ["human", "human"];
    players[2 - me] = opp.value;
    try {
      const g = await api("POST", "games", {ruleset: pick.value, players});
      remember(g.id, g.tokens[String(me)], me);
      if (!offline && g.tokens[String(3 - me)]) keepInvite(g.id, g.tokens[String(3 - me)]);
      location.hash = `#/game/${g.id}`;
    } catch (e) { msg.textContent = e.message; msg.className = "msg bad"; }
  }}, "Start the game");
  const mine = h("div", {}, "…");
  app.replaceChildren(
    h("h1", {}, "Play a race game of ancient Egypt"),
    h("div", {class: "panel"}, h("div", {class: "row"}, h("label", {}, "Game ", pick), h("label", {}, "against ", opp), seat, start), msg),
    offline ? h("p", {class: "small", id: "offline-note"}, "Playing offline: the computer thinks in this browser and your games are kept in it. " +
                "Playing a person on another device needs the server (kemet serve).") : null,
    h("h2", {}, "Your games"), mine);
  /* offline, two people at this device hold one game's two seats: listed once */
  const list = myGames().filter((g, i, all) => !offline || all.findIndex(x => x.id === g.id) === i);
  if (!list.length) { mine.textContent = "None yet."; return; }
  const got = (await api("GET", "games?ids=" + list.map(g => g.id).join(","))).games;
  const byId = Object.fromEntries(got.map(g => [g.id, g]));
  const rows = list.filter(g => byId[g.id]).map(g => {
    const x = byId[g.id];
    const other = x.players[2 - g.seat];
    const state = x.status === "over" ? (x.winner === g.seat ? "won" : x.winner === 0 ? "drawn" : "lost") : "in play";
    return h("tr", {}, h("td", {}, x.title), h("td", {}, x.players.every(p => p.kind === "human") && offline ? "both sides" : "as " + x.players[g.seat - 1].name),
      h("td", {}, other.kind === "computer" ? "computer level " + other.level : "a person"),
      h("td", {}, state + ", " + x.plies + " moves"),
      h("td", {}, x.status === "over" ? h("a", {href: `#/replay/${x.id}`}, "replay")
                                      : h("a", {href: `#/game/${x.id}`}, "resume")));
  });
  mine.replaceChildren(h("table", {class: "games"}, h("tr", {}, h("th", {}, "game"), h("th", {}, "you"), h("th", {}, "against"), h("th", {}, "state"), h("th", {}, "")), rows));
}

