// Drives `twiddle serve`'s page in headless Chromium (playwright-core, Debian's chromium): the
// slider plays on load to the last pass; dragging it takes over; the gap buttons change the
// pictures; the readouts follow; a screenshot is taken and the pictures are not blank.
// Usage: node serve_page.cjs URL SCREENSHOT.png   (playwright-core on NODE_PATH)
"use strict";
const { chromium } = require("playwright-core");

function check(condition, what) {
  if (!condition) throw new Error("failed: " + what);
}

// Distinct colours of a loaded <img>, drawn into a canvas.
async function colours(page, id) {
  return page.evaluate((id) => {
    const img = document.getElementById(id);
    const c = document.createElement("canvas");
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, id);
}

async function loaded(page, id) {
  await page.waitForFunction((id) => {
    const img = document.getElementById(id);
    return img.complete && img.naturalWidth > 0;
  }, id, { timeout: 60000 });
}

(async () => {
  const [url, screenshot] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url);
    const info = await (await page.request.get(url + "info")).json();
    const last = info.passes;
    // It plays by itself to the last pass.
    await page.waitForFunction((last) => document.getElementById("readout").textContent.startsWith(`pass ${last}:`),
                               last, { timeout: 60000 });
    check((await page.textContent("#readout")) === `pass ${last}: the pattern`, "the readout at the end");
    check((await page.textContent("#pass-label")) === `${last} of ${last}`, "the pass label at the end");
    check(/transform on .*: [0-9.]+ ms/.test(await page.textContent("#speed")), "the GPU time readout");
    await loaded(page, "frame");
    await loaded(page, "gap");
    check((await colours(page, "frame")) > 1, "the pattern is not blank");
    check((await colours(page, "gap")) > 1, "the gap is not blank");
    // Dragging the slider takes over: pass 3 stays.
    await page.locator("#pass").fill("3");
    await page.waitForFunction(() => document.getElementById("readout").textContent.startsWith("pass 3:"));
    check((await page.textContent("#readout")) === "pass 3: down the columns, in blocks of 8", "the readout at pass 3");
    check((await page.getAttribute("#frame", "src")).includes("pass=3"), "the frame of pass 3");
    // Another gap: the pictures change, the pass stays.
    await page.click("button[data-gap=circle]");
    await page.waitForFunction(() => document.getElementById("frame").src.includes("gap=circle"));
    check((await page.getAttribute("#gap", "src")).includes("gap=circle"), "the circle's gap");
    check((await page.getAttribute("button[data-gap=circle]", "class")) === "on", "the circle button is on");
    await loaded(page, "frame");
    check((await colours(page, "frame")) > 1, "the circle's pass 3 is not blank");
    await page.waitForTimeout(600);
    check((await page.textContent("#readout")).startsWith("pass 3:"), "the slider stayed where it was put");
    // The chart.
    await loaded(page, "chart");
    check(await page.evaluate(() => document.getElementById("chart").naturalWidth > 100), "the timing chart");
    const shot = await page.screenshot({ path: screenshot, fullPage: true });
    check(shot.length > 20000, "the screenshot has content");
    check(errors.length === 0, "no script errors: " + errors.join("; "));
    console.log("ok: played to pass " + last + ", took over at pass 3, changed the gap, screenshot " + shot.length + " bytes");
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
