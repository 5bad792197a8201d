/* main.js - kemet's page: the games in the browser, on the JSON API of
 * `kemet serve` (docs/api.md). Plain JavaScript modules, no build step:
 * util.js, store.js, api.js, board.js, home.js, game.js, replay.js.
 *
 * Routes (in the address's #fragment, never sent to the server):
 *   #/                    new game, one's own games, the rules
 *   #/game/ID             a game: playing with the seat's token this browser
 *                         holds, else watching
 *   #/join/ID/TOKEN       an invitation: the token is kept by the browser
 *                         and the address becomes #/game/ID at once
 *   #/replay/ID           a game move by move, and its review
 *   #/rules/RULESET       a ruleset's rules, its board and its sources
 *   #/new/RULESET         the start page with that ruleset chosen
 */
import {tokenFor, errorPage} from "./util.js";
import {openStore} from "./store.js";
import {home, rulesPage} from "./home.js";
import {gamePage, gameKey, joinGame, leaveGame} from "./game.js";
import {replayPage} from "./replay.js";

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    /* (#/game/ID/TOKEN: the form of older invitations) */
    if ((parts[0] === "join" || parts[0] === "game") && parts[1] && parts[2]) await joinGame(parts[1], parts[2]);
    else if (parts[0] === "game" && parts[1]) await gamePage(parts[1], tokenFor(parts[1]));
    else if (parts[0] === "replay" && parts[1]) await replayPage(parts[1]);
    else if (parts[0] === "rules" && parts[1]) { leaveGame(); await rulesPage(decodeURIComponent(parts[1])); }
    else if (parts[0] === "new" && parts[1]) await home(decodeURIComponent(parts[1]));
    else await home();
  } catch (e) {
    errorPage(e.message);
  }
  window.scrollTo(0, 0);
}
/* (offline, what the browser keeps is read first: web/store.js) */
openStore().then(() => {
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", gameKey);
  route();
});
