// Times the fabric page in Debian's Chromium: login, then open a fabric until its topology
// drawing and capacity bars are on screen. Needs a running stack with the fabric imported:
//   lightpath fixtures fb-fabric --pods 261 -o big.json && lightpath fabric import big.json --background
//   LIGHTPATH_URL=http://127.0.0.1:8000 FABRIC=fb-fabric-261pods node e2e/bench-fabric-page.mjs
import { chromium } from '@playwright/test';

const base = process.env.LIGHTPATH_URL ?? 'http://127.0.0.1:8000';
const fabricName = process.env.FABRIC ?? 'fb-fabric-261pods';
const runs = Number(process.env.RUNS ?? 3);

const browser = await chromium.launch({
  executablePath: process.env.LIGHTPATH_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
await page.goto(`${base}/login`);
await page.getByLabel('Username').fill(process.env.LIGHTPATH_USER ?? 'viewer');
await page.getByLabel('Password').fill(process.env.LIGHTPATH_PASSWORD ?? 'lightpath-demo');
await page.getByRole('button', { name: 'Log in' }).click();
await page.waitForURL((url) => !url.pathname.startsWith('/login'));
const found = await (await page.request.get(`${base}/api/fabrics/?name=${encodeURIComponent(fabricName)}`)).json();
if (!found.results?.length) throw new Error(`fabric ${fabricName} not found`);
const { id, link_count: links } = found.results[0];

const times = [];
for (let run = 0; run < runs; run += 1) {
  const started = Date.now();
  await page.goto(`${base}/fabrics/${id}`);
  await page.getByTestId('topology').waitFor({ timeout: 120_000 });
  await page.getByTestId('capacity-bars').waitFor({ timeout: 120_000 });
  times.push(Date.now() - started);
}
const renderer = await page.getByTestId('topology').getAttribute('data-renderer');
times.sort((a, b) => a - b);
console.log(`${fabricName}: ${links} links, ${renderer} renderer; page ready in best ${times[0]} ms, median ${times[Math.floor(times.length / 2)]} ms over ${runs} runs`);
await browser.close();
