// build.mjs - makes the offline page (docs/wasm.md): a folder that plays
// every ruleset with no server, from file:// or any static host.
//   node web/offline/build.mjs ENGINE OUT
// ENGINE is the WebAssembly build's kemet-offline.js (one file, the module
// inside); OUT the folder made (its old files replaced). The page's
// modules become one classic script (app.js): a page opened from file://
// may load neither modules nor a worker's file, so the worker's script is
// carried as text (engine.js) and started from a blob.
import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, "..");
const [engine, out] = process.argv.slice(2);
if (!engine || !out) {
  console.error("usage: node build.mjs ENGINE OUT");
  process.exit(2);
}
const module = readFileSync(engine, "utf8");
const worker = readFileSync(join(here, "worker.js"), "utf8");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(web, "main.js")],
  bundle: true,
  format: "iife",
  target: "es2020",
  outfile: join(out, "app.js"),
  logLevel: "warning",
  legalComments: "none",
});
writeFileSync(join(out, "engine.js"),
  "/* kemet's engine for the offline page: web/offline/worker.js after the\n" +
  " * WebAssembly module (src/wasm/offline.c), as text for a worker. */\n" +
  "globalThis.KEMET_WORKER_SOURCE = " + JSON.stringify(module + "\n" + worker) + ";\n");
copyFileSync(join(web, "app.css"), join(out, "app.css"));
const page = readFileSync(join(web, "index.html"), "utf8");
const offline = page
  .replace('href="/app.css"', 'href="app.css"')
  .replace('<link rel="icon" href="/favicon.ico">', '<link rel="icon" href="data:,">')
  .replace('<script type="module" src="/main.js"></script>',
           '<script src="engine.js"></script>\n<script src="app.js"></script>');
if (offline === page || offline.includes("/main.js")) {
  console.error("build.mjs: web/index.html no longer has the lines this script replaces");
  process.exit(1);
}
writeFileSync(join(out, "index.html"), offline);
console.log(`the offline page is in ${out}: open ${join(out, "index.html")}`);
