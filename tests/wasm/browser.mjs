// browser.mjs - the WebAssembly module in Chromium: the same seeded game
// as the native program, and the search speed in the browser.
//
//   KEMET_BIN=build/release/kemet node tests/wasm/browser.mjs build/wasm
//
// Serves build/wasm and a small page on 127.0.0.1 (a page cannot fetch a
// .wasm from file://), loads the module in headless Chromium (driven by
// playwright-core from tests/e2e) and in a Web Worker, and prints the
// figures.
import { createServer } from "node:http";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(resolve("tests/e2e/package.json"));
const { chromium } = require("playwright-core");
const dir = resolve(process.argv[2] || "build/wasm");
const bin = process.env.KEMET_BIN || "build/release/kemet";
const page = `<!doctype html><meta charset="utf-8"><title>kemet wasm</title>
<script src="kemet.js"></script><script>
window.run = async () => {
  const K = await createKemet();
  const play = K.cwrap("kw_play", "number",
    ["string", "string", "string", "string", "number", "number"]);
  const search = K.cwrap("kw_search", "number",
    ["string", "string", "string", "number"]);
  const take = (p) => { const s = K.UTF8ToString(p); K._kw_free(p); return s; };
  const record = take(play("senet-kendall", "77", "greedy", "expectimax:500",
                           1e9, 1));
  const t0 = performance.now();
  const r = take(search("senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14",
                        "3", "expectimax:200k", 5)).split(" ");
  return { record, nodes: Number(r[0]), secs: (performance.now() - t0) / 1000 };
};
window.inWorker = () => new Promise((done) => {
  const w = new Worker(URL.createObjectURL(new Blob([
    "importScripts(location.origin + '/kemet.js');" +
    "createKemet({locateFile: (f) => location.origin + '/' + f}).then((K) => {" +
    "const t = K.UTF8ToString(K.ccall('kw_version', 'number', [], []));" +
    "postMessage(t); });"], { type: "text/javascript" })));
  w.onmessage = (e) => done(e.data);
});
</script>`;
const types = { ".js": "text/javascript", ".wasm": "application/wasm",
                ".html": "text/html" };
const server = createServer((req, res) => {
  const name = req.url === "/" ? "index.html" : req.url.slice(1);
  try {
    const body = name === "index.html" ? page : readFileSync(join(dir, name));
    res.writeHead(200, { "Content-Type": types[name.slice(name.lastIndexOf("."))] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
let failed = 0;
try {
  const tab = await browser.newPage();
  await tab.goto(url);
  const got = await tab.evaluate(() => window.run());
  const tmp = mkdtempSync(join(tmpdir(), "kemet-wasm-"));
  const file = join(tmp, "g.rec");
  execFileSync(bin, ["play", "senet-kendall", "--p1", "greedy", "--p2",
                     "expectimax:500", "--seed", "77", "--record", file,
                     "--tables", "race"], { stdio: "ignore" });
  const native = readFileSync(file, "utf8");
  rmSync(tmp, { recursive: true, force: true });
  if (got.record === native) {
    console.log("ok - a seeded game in Chromium gives the native record byte for byte");
  } else {
    failed++;
    console.log("not ok - the game in Chromium differs from the native one");
  }
  const version = await tab.evaluate(() => window.inWorker());
  console.log(`ok - the module runs in a Web Worker (version ${version})`);
  console.log(`# Chromium: expectimax:200k x5 on Senet's opening, throw 3: ` +
              `${got.nodes} positions in ${got.secs.toFixed(2)} s = ` +
              `${(got.nodes / got.secs / 1e6).toFixed(2)} M positions/s`);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
