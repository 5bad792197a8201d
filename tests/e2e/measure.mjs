// measure.mjs - figures for docs/wasm.md, not a test: the page's load time
// (five fresh loads to the start form) and level 5's whole reply in Senet
// (25 turns, the moves shown at once), served or offline.
//   node tests/e2e/measure.mjs http://127.0.0.1:8080/
//   node tests/e2e/measure.mjs file://$PWD/build/offline/index.html
import { chromium } from "playwright-core";
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox", "--allow-file-access-from-files"] });
const loads = [];
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const page = await ctx.newPage();
  const t0 = Date.now();
  await page.goto(url);
  await page.locator("#start").waitFor();
  loads.push(Date.now() - t0);
  await ctx.close();
}
const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
await ctx.addInitScript(() => localStorage.setItem("kemet.motion", "off"));
const page = await ctx.newPage();
await page.goto(url);
await page.selectOption("#ruleset", "senet-kendall");
await page.selectOption("#opponent", "computer:5");
await page.click("#start");
await page.locator(".board").waitFor();
const still = () => page.locator("body:not([data-busy]):not([data-playing])").waitFor({ timeout: 60000 });
const mine = async () => { await still(); return /your turn/.test(await page.locator("#turn").textContent()); };
const over = async () => /won|drawn/.test(await page.locator("#turn").textContent());
const replies = [];
for (let i = 0; i < 400 && replies.length < 25; i++) {
  if (await over()) break;
  if (!(await mine())) { await page.waitForTimeout(20); continue; }
  if (await page.locator("#throw").count()) { const v = await page.locator("#turn").getAttribute("data-version"); await page.click("#throw"); while ((await page.locator("#turn").getAttribute("data-version")) === v) await page.waitForTimeout(10); continue; }
  if (!(await page.locator(".source").count())) continue;
  await page.locator(".source").first().click();
  await page.locator(".target").first().waitFor();
  const v0 = +(await page.locator("#turn").getAttribute("data-version"));
  const t0 = Date.now();
  await page.locator(".target").first().click();
  /* until the turn is the player's again, the computer having played */
  for (;;) {
    const t = await page.locator("#turn").textContent();
    const v = +(await page.locator("#turn").getAttribute("data-version"));
    if (/won|drawn/.test(t)) break;
    if (/your turn/.test(t) && v > v0) {
      const lastMover = await page.locator("#log li").last().textContent();
      if (/Black/.test(lastMover)) replies.push(Date.now() - t0);
      break;
    }
    await page.waitForTimeout(5);
  }
}
await browser.close();
const med = a => { const b = [...a].sort((x, y) => x - y); return b[Math.floor(b.length / 2)]; };
console.log(`${url}: page load to the start form, 5 loads: median ${med(loads)} ms (${loads.join(", ")})`);
console.log(`level-5 reply (player's move clicked to the player's turn again, the computer's whole turn), ${replies.length} turns: median ${med(replies)} ms, max ${Math.max(...replies)} ms`);
