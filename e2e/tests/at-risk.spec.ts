/**
 * Optics at risk (issue #19): the demo fabric has a link whose receiving end is getting dirty
 * (contamination) and one whose transmitter is decaying. A viewer opens "At risk", reads both,
 * soonest crossing first, with the reading, the racks and what to do, filters by cause and
 * horizon, and follows a link to its power chart, which draws the trend to the limit. On a phone
 * the same list reads as cards without sideways scrolling.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import { type ApiListPage, DEMO_FABRIC, findFabric, loginAs } from './helpers';

interface AtRiskRow {
  id: number;
  a_switch_name: string;
  a_port: string;
  z_switch_name: string;
  z_port: string;
  forecast: { at_risk: boolean; crossing_at: string; cause: string; confidence: number } | null;
}

const linkName = (link: AtRiskRow) => `${link.a_switch_name} ${link.a_port} ↔ ${link.z_switch_name} ${link.z_port}`;

async function atRiskLinks(
  request: APIRequestContext,
  fabricId: number,
  params: Record<string, string | number> = {},
): Promise<AtRiskRow[]> {
  const response = await request.get('/api/links/', {
    params: { fabric: fabricId, at_risk: 'true', limit: 1000, ...params },
  });
  expect(response.ok(), `GET /api/links/?at_risk=true answered ${response.status()}`).toBeTruthy();
  return ((await response.json()) as ApiListPage<AtRiskRow>).results;
}

/** The worker derives the demo's telemetry after the stack starts; its forecasts follow. */
async function waitForForecasts(request: APIRequestContext, fabricId: number): Promise<AtRiskRow[]> {
  await expect
    .poll(async () => (await atRiskLinks(request, fabricId)).map((link) => link.forecast?.cause), {
      message: 'the demo fabric has a contamination and a decaying transmitter at risk',
      timeout: 120_000,
      intervals: [1_000, 2_000, 5_000],
    })
    .toEqual(expect.arrayContaining(['contamination', 'decaying_transmitter']));
  const links = await atRiskLinks(request, fabricId);
  return links.sort((a, b) => Date.parse(a.forecast!.crossing_at) - Date.parse(b.forecast!.crossing_at));
}

/** Each switch's rack by name ('' when it has none). */
async function rackNames(request: APIRequestContext, fabricId: number, names: string[]): Promise<Map<string, string>> {
  const response = await request.get('/api/switches/', {
    params: new URLSearchParams([['fabric', String(fabricId)], ...names.map((name) => ['name', name])]),
  });
  expect(response.ok(), `GET /api/switches/ answered ${response.status()}`).toBeTruthy();
  const page = (await response.json()) as ApiListPage<{ name: string; rack: string }>;
  return new Map(page.results.map((sw) => [sw.name, sw.rack]));
}

async function noSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('a viewer reads the links at risk, filters them and follows one to its forecast on the power chart', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginAs(page, 'viewer');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const expected = await waitForForecasts(page.request, fabric.id);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'At risk', exact: true }).click();
  // The first (only) fabric is chosen for the viewer.
  await expect(page).toHaveURL(new RegExp(`/at-risk\\?fabric=${fabric.id}`));
  await expect(page.getByRole('heading', { level: 1, name: `At risk: ${DEMO_FABRIC}` })).toBeVisible();

  // Every link at risk, soonest crossing first.
  const rows = page.getByTestId('at-risk-row');
  await expect(rows).toHaveCount(expected.length);
  for (const [index, link] of expected.entries()) {
    // The row's first link is the link itself (a row may also link the link's unresolved ticket).
    await expect(rows.nth(index).getByRole('link').first()).toHaveText(linkName(link));
  }

  // Each row says when, why, how sure, which reading, where and what to do.
  // The demo's receiver still falling toward its limit (a corrupting link already under its limit is at
  // risk "now" with a flat reading, and comes first).
  const contamination = expected.find(
    (link) => link.forecast!.cause === 'contamination' && Date.parse(link.forecast!.crossing_at) > Date.now(),
  )!;
  const dirty = page.locator(`[data-testid="at-risk-row"][data-link="${contamination.id}"]`);
  await expect(dirty.getByTestId('at-risk-crossing')).toHaveText(
    /^(crosses in \d+\.\d days \(\d+\.\d(–\d+\.\d| or later, may never)\), \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC|at its limit now)$/,
  );
  await expect(dirty.getByTestId('at-risk-cause')).toHaveText('contamination');
  await expect(dirty.getByTestId('at-risk-confidence')).toHaveText(/^\d+%$/);
  await expect(dirty.getByTestId('at-risk-reading')).toHaveText(
    /^[AZ] end Rx lane \d+: −?\d+\.\d dBm, falling \d+\.\d\d dB\/day, limit −?\d+\.\d dBm \((catalog|device|manual)\)$/,
  );
  const racks = await rackNames(page.request, fabric.id, [contamination.a_switch_name, contamination.z_switch_name]);
  await expect(dirty.getByTestId('at-risk-racks')).toHaveText(
    `A ${racks.get(contamination.a_switch_name) || '—'} Z ${racks.get(contamination.z_switch_name) || '—'}`,
  );
  await expect(dirty.getByTestId('at-risk-action')).toHaveText(/^Clean the connectors, \S+ \(end [AZ]\) first$/);

  const transmitter = expected.find((link) => link.forecast!.cause === 'decaying_transmitter')!;
  const decaying = page.locator(`[data-testid="at-risk-row"][data-link="${transmitter.id}"]`);
  await expect(decaying.getByTestId('at-risk-cause')).toHaveText('decaying transmitter');
  await expect(decaying.getByTestId('at-risk-reading')).toHaveText(/^[AZ] end (Rx|Tx) lane \d+: .*falling/);
  await expect(decaying.getByTestId('at-risk-action')).toHaveText(/^Replace the transceiver at \S+ \(end [AZ]\)$/);
  await page.screenshot({ path: test.info().outputPath('at-risk-1440.png'), fullPage: true });

  // Filter by cause: only the contamination is left, and the URL says so.
  const filters = page.getByRole('form', { name: 'Filter links at risk' });
  await filters.getByRole('checkbox', { name: 'contamination' }).check();
  await expect(page).toHaveURL(/cause=contamination/);
  const dirtyOnly = await atRiskLinks(page.request, fabric.id, { risk_cause: 'contamination' });
  await expect(rows).toHaveCount(dirtyOnly.length);
  for (const cause of await page.getByTestId('at-risk-cause').allTextContents()) expect(cause).toBe('contamination');

  // A horizon of one day: the rows the API forecasts within a day, or the sentence saying none.
  await filters.getByLabel('Crossing within').selectOption('1');
  await expect(page).toHaveURL(/horizon=1/);
  const withinADay = await atRiskLinks(page.request, fabric.id, {
    risk_cause: 'contamination',
    crossing_within_days: 1,
  });
  if (withinADay.length === 0) {
    await expect(page.getByTestId('at-risk-empty')).toHaveText(
      'No link is forecast to cross its limit within 1 day (cause: contamination).',
    );
  } else {
    await expect(rows).toHaveCount(withinADay.length);
  }

  // Back to every cause within the fabric's horizon, then to the dirty link's page.
  await page.goto(`/at-risk?fabric=${fabric.id}`);
  await dirty.getByRole('link', { name: linkName(contamination) }).click();
  await expect(page).toHaveURL(new RegExp(`/links/${contamination.id}$`));
  const chart = page.getByTestId('power-chart');
  await expect(chart.getByTestId('power-forecast-trend')).toHaveAttribute('d', /^M.+L/);
  await expect(chart.getByTestId('power-forecast-crossing')).toBeVisible();
  await expect(chart.getByTestId('power-forecast-band')).toHaveCount(1);
  await expect(chart.getByTestId('power-legend-forecast')).toContainText(/^Forecast: [AZ] Rx lane \d+ to its limit$/);
  // The trend ends on the limit line it crosses.
  const crossingY = Number(await chart.getByTestId('power-forecast-crossing').getAttribute('cy'));
  const limitYs = await chart
    .getByTestId('power-threshold')
    .evaluateAll((lines) => lines.map((line) => Number(line.getAttribute('y1'))));
  expect(
    limitYs.some((y) => Math.abs(y - crossingY) < 0.5),
    `a limit line at y=${crossingY}: ${limitYs}`,
  ).toBe(true);
  await expect(page.getByTestId('power-forecast-text')).toContainText('Probable cause: contamination.');
  await expect(page.getByTestId('power-forecast-text')).toContainText('It reaches its limit');
  await page.getByTestId('power-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('link-forecast-1440.png'), fullPage: true });
});

test('on a phone the links at risk read as cards, nothing scrolls sideways', async ({ browser }) => {
  test.setTimeout(180_000);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await loginAs(page, 'technician');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const expected = await waitForForecasts(page.request, fabric.id);

  await page.goto('/at-risk');
  await expect(page).toHaveURL(new RegExp(`fabric=${fabric.id}`));
  const first = page.getByTestId('at-risk-row').first();
  await expect(first.getByRole('link').first()).toHaveText(linkName(expected[0]!));
  await expect(first.getByTestId('at-risk-reading')).toBeVisible();
  await expect(first.getByTestId('at-risk-action')).toBeVisible();
  await noSidewaysScroll(page, 390);
  await page.screenshot({ path: test.info().outputPath('at-risk-390.png'), fullPage: true });
  await phone.close();
});
