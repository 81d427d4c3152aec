// Speed on a phone (issue #20): how long a technician waits, cold cache on a throttled phone
// network, until the ticket page is useful (the ticket header's "what to do" is on screen).
// Chromium's own throttling through CDP (Network.emulateNetworkConditions): 1.6 Mb/s down,
// 750 kb/s up, 300 ms round trip; 390x844 phone viewport. Each run is a new browser context, so
// nothing is cached; the session cookie is the only thing carried over. Not part of `make test`.
// Needs a running stack with the demo data (`backend/scripts/run-stack.sh --demo`):
//   LIGHTPATH_URL=http://127.0.0.1:8000 node e2e/bench/phone.bench.mjs
// RUNS (default 5), TICKET (default: the highest-penalty open repair ticket), LIGHTPATH_USER.
import { chromium } from '@playwright/test';

const base = process.env.LIGHTPATH_URL ?? 'http://127.0.0.1:8000';
const runs = Number(process.env.RUNS ?? 5);
const username = process.env.LIGHTPATH_USER ?? 'technician';
const password = process.env.LIGHTPATH_PASSWORD ?? 'lightpath-demo';
const PHONE_NETWORK = {
  offline: false,
  latency: 300,
  downloadThroughput: (1.6e6 / 8) | 0,
  uploadThroughput: (750e3 / 8) | 0,
};
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

const browser = await chromium.launch({
  executablePath: process.env.LIGHTPATH_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-quic',
  ],
});

// Log in once, unthrottled: the runs measure opening a ticket, not typing a password.
const loginContext = await browser.newContext(PHONE);
const loginPage = await loginContext.newPage();
await loginPage.goto(`${base}/login`);
await loginPage.getByLabel('Username').fill(username);
await loginPage.getByLabel('Password').fill(password);
await loginPage.getByRole('button', { name: 'Log in' }).click();
// Attached, not visible: on a phone the user sits behind the Menu button.
await loginPage.getByTestId('current-user').waitFor({ state: 'attached' });
const session = await loginContext.storageState();
let ticketId = process.env.TICKET;
if (!ticketId) {
  const answer = await loginPage.request.get(`${base}/api/tickets/?kind=repair&state=open&ordering=-penalty&limit=1`);
  const found = await answer.json();
  if (!found.results?.length) throw new Error('no open repair ticket: load the demo data first');
  ticketId = String(found.results[0].id);
}
await loginContext.close();

// Recorded in the page: when the first paint happened and when the header's "what to do" showed.
function watchTicketHeader() {
  const marks = (window.__phoneBench = { firstPaint: null, useful: null });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-contentful-paint') marks.firstPaint = entry.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
  const check = () => {
    const todo = document.querySelector('[data-testid="ticket-header-todo"]');
    if (marks.useful === null && todo && todo.textContent.trim() && todo.getBoundingClientRect().top < innerHeight) {
      // The next frame is when it is painted.
      requestAnimationFrame(() => (marks.useful = performance.now()));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

async function oneRun() {
  const context = await browser.newContext({ ...PHONE, storageState: session });
  const page = await context.newPage();
  await page.addInitScript(watchTicketHeader);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', PHONE_NETWORK);
  const scripts = new Map();
  let scriptBytes = 0;
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.set(event.requestId, event.response.url);
  });
  cdp.on('Network.loadingFinished', (event) => {
    if (scripts.has(event.requestId)) scriptBytes += event.encodedDataLength;
  });
  await page.goto(`${base}/tickets/${ticketId}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__phoneBench.useful !== null, null, { timeout: 60_000, polling: 50 });
  const marks = await page.evaluate(() => window.__phoneBench);
  await context.close();
  return { ...marks, scriptKb: scriptBytes / 1024, scriptCount: scripts.size };
}

// The first download: the scripts index.html names (entry and modulepreloads), as sent (gzip).
async function initialScripts() {
  const html = await (await fetch(`${base}/login`)).text();
  const paths = [...html.matchAll(/<(?:script[^>]*\ssrc|link rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map(
    (match) => match[1],
  );
  let bytes = 0;
  for (const path of paths) {
    const answer = await fetch(`${base}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
    bytes += Number(answer.headers.get('content-length') ?? (await answer.arrayBuffer()).byteLength);
  }
  return { count: paths.length, kb: bytes / 1024 };
}
const initial = await initialScripts();

const results = [];
for (let run = 0; run < runs; run += 1) results.push(await oneRun());
await browser.close();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;
console.log(`initial JavaScript: ${initial.count} files, ${initial.kb.toFixed(1)} KB as sent (gzip)`);
console.log(`ticket ${ticketId} as ${username}, ${runs} cold runs, 1.6 Mb/s down, 750 kb/s up, 300 ms RTT, 390x844`);
for (const [index, result] of results.entries()) {
  console.log(
    `  run ${index + 1}: first paint ${ms(result.firstPaint)}, useful ${ms(result.useful)}, ` +
      `${result.scriptCount} scripts, ${result.scriptKb.toFixed(1)} KB transferred`,
  );
}
console.log(
  `median: first paint ${ms(median(results.map((r) => r.firstPaint)))}, ` +
    `ticket page useful ${ms(median(results.map((r) => r.useful)))} (target < 2000 ms)`,
);
