/* events.js - a shared worker holding one event stream per game for all
 * of this site's tabs: a browser gives a site about 6 connections, so 8
 * tabs each holding their own stream would leave the last ones waiting for
 * ever. Tabs send {watch: ID} and {unwatch: ID}; each gets
 * {id, version} when that game changes. */
const games = new Map(); /* id -> {es, ports: Set, version} */

function unwatch(port, id) {
  const g = games.get(id);
  if (!g) return;
  g.ports.delete(port);
  if (!g.ports.size) { g.es.close(); games.delete(id); }
}

onconnect = e => {
  const port = e.ports[0];
  port.onmessage = m => {
    const {watch, unwatch: leave} = m.data || {};
    if (leave) unwatch(port, leave);
    if (!watch) return;
    let g = games.get(watch);
    if (!g) {
      g = {es: new EventSource(`/api/games/${encodeURIComponent(watch)}/events`), ports: new Set(), version: null};
      g.es.addEventListener("change", ev => {
        g.version = JSON.parse(ev.data).version;
        for (const p of g.ports) p.postMessage({id: watch, version: g.version});
      });
      games.set(watch, g);
    }
    g.ports.add(port);
    if (g.version !== null) port.postMessage({id: watch, version: g.version});
  };
  port.start();
};
