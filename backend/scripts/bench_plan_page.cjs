// Times the plan page of a stored plan in Chromium (BENCHMARKS.md, "Large results over HTTP"): from
// navigation to the summary (the savings headline) and to the first link row, with the bytes its API
// requests moved (as sent, compressed or not). Against a running stack serving a built UI:
//
//   node backend/scripts/bench_plan_page.cjs URL JOB_ID [RUNS] [identity]
//
// with LIGHTPATH_BENCH_USER and LIGHTPATH_BENCH_PASSWORD a user of that stack; `identity` asks the
// server not to compress. Uses the e2e suite's Playwright and Debian's chromium.
const path = require('node:path');
const { chromium } = require(path.join(__dirname, '../../e2e/node_modules/playwright'));

const [url, job, runs = '3', identity] = process.argv.slice(2);

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.LIGHTPATH_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.getByLabel('Username').fill(process.env.LIGHTPATH_BENCH_USER);
  await page.getByLabel('Password').fill(process.env.LIGHTPATH_BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((where) => !where.pathname.startsWith('/login'));
  const results = [];
  for (let run = 0; run < Number(runs); run++) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    const urls = new Map();
    let apiBytes = 0;
    cdp.on('Network.responseReceived', (event) => urls.set(event.requestId, event.response.url));
    cdp.on('Network.loadingFinished', (event) => {
      if ((urls.get(event.requestId) ?? '').includes('/api/')) apiBytes += event.encodedDataLength;
    });
    const start = Date.now();
    await page.goto(`${url}/planning/plans/${job}`);
    await page.getByTestId('plan-headline').waitFor({ timeout: 120_000 });
    const summary = Date.now() - start;
    await page.getByTestId('plan-link-row').first().waitFor({ timeout: 120_000 });
    results.push({ summary_ms: summary, first_rows_ms: Date.now() - start, api_bytes: apiBytes });
    await cdp.detach();
  }
  const median = (key) => results.map((result) => result[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  console.log(
    JSON.stringify({ runs: results, median: Object.fromEntries(Object.keys(results[0]).map((key) => [key, median(key)])) }),
  );
  await browser.close();
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
