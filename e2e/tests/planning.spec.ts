import { expect, type Page, test } from '@playwright/test';

import { DEMO_FABRIC, followNavLink, loginAs } from './helpers';

/** Fills the planner form for a generated k = 8 fat tree (256 links) and runs it; returns the job page's URL. */
async function runPlan(page: Page, name: string, stretch: string): Promise<string> {
  await page.goto('/planning');
  const form = page.getByRole('form', { name: 'New stretch plan' });
  await form.getByLabel('Plan name').fill(name);
  await form.getByLabel('Generated fat tree').check();
  await form.getByLabel('Fat tree k').fill('8');
  await form.getByLabel('Longest link (m)').fill('560');
  await form.getByRole('combobox', { name: 'Stretch', exact: true }).selectOption({ label: stretch });
  await form.getByRole('button', { name: 'Run plan' }).click();
  await expect(page).toHaveURL(/\/planning\/plans\/\d+$/);
  await expect(page.getByTestId('plan-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  return page.url();
}

test('a planner runs a stretch plan, reads the breakdown and the savings curves, and compares two plans', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, 'planner');
  await followNavLink(page, 'Planning');
  await expect(page.getByRole('heading', { level: 1, name: 'RAIL stretch planner' })).toBeVisible();

  const form = page.getByRole('form', { name: 'New stretch plan' });
  // The catalog shows stretched reaches, and prices the seed does not give are labelled demo values.
  const catalog = form.getByTestId('plan-catalog');
  await expect(catalog.getByRole('row', { name: /10GBASE-SR 10G/ })).toContainText(
    '480 m at NRB 99%, 580 m at NRB 95%',
  );
  await expect(catalog.getByRole('row', { name: /10GBASE-SR 10G/ })).toContainText('$82.30 (seed)');
  await expect(catalog.getByRole('row', { name: /40GBASE-SR4/ })).toContainText('(demo price)');

  // Bad entries are caught before anything is sent, all at once.
  await form.getByLabel('Generated fat tree').check();
  await form.getByLabel('Fat tree k').fill('5');
  await form.getByLabel('Switch port (USD)').fill('x');
  await form.getByRole('button', { name: 'Run plan' }).click();
  // Each at its field (trial 30: only in a box above the button).
  await expect(form.getByLabel('Fat tree k')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Fat tree k')).toHaveAccessibleDescription(
    'Fat tree k must be an even whole number from 2 to 64.',
  );
  await expect(form.getByLabel('Switch port (USD)')).toHaveAccessibleDescription(
    'Switch port (USD) must be a number ≥ 0.',
  );
  await form.getByLabel('Fat tree k').fill('8');
  await expect(form.getByLabel('Fat tree k')).not.toHaveAttribute('aria-invalid');
  await form.getByLabel('Switch port (USD)').fill('90');

  const lowUrl = await runPlan(page, 'e2e low stretch', 'low: NRB 99%');
  await expect(page.getByTestId('plan-progress')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('e2e low stretch');

  // Totals: the plan costs less than the baseline and says how much is saved.
  await expect(page.getByTestId('plan-savings')).toHaveText(/^\d+\.\d%$/);
  const baseline = Number((await page.getByTestId('plan-baseline-total').textContent())!.replace(/[$,]/g, ''));
  const planned = Number((await page.getByTestId('plan-total').textContent())!.replace(/[$,]/g, ''));
  expect(planned).toBeLessThan(baseline);
  await expect(page.getByTestId('plan-facts')).toContainText('fat tree k=8, lengths uniform 0-560 m');

  // The breakdown: baseline and plan bars, stacked by the seed's Table 4.1 rows.
  await expect(page.getByTestId('breakdown-chart-bar')).toHaveCount(2);
  const breakdownLegend = page.getByRole('list', {
    name: /Cost breakdown of baseline and plan.* legend/,
  });
  for (const entry of [
    '10GBASE-SR transceivers',
    '10GBASE-LR transceivers',
    'MMF fiber',
    'Switch ports',
    'Switch power',
  ])
    await expect(breakdownLegend).toContainText(entry);
  await expect(page.getByTestId('plan-costs-total').first()).toHaveText(`$${baseline.toLocaleString('en-US')}`);

  // The savings curves: no stretch, low and high stretch, with the fabric's longest link marked.
  await expect(page.getByTestId('savings-chart-line')).toHaveCount(3);
  await expect(page.getByTestId('savings-chart-peak')).toHaveCount(2);
  const savingsLegend = page.getByRole('list', {
    name: /Savings against the maximum link length.* legend/,
  });
  await expect(savingsLegend.getByRole('listitem')).toHaveText([
    'No stretch',
    'Stretch (low stretch, NRB 99%)',
    'Stretch (high stretch, NRB 95%)',
  ]);
  await expect(page.getByTestId('savings-chart-marker')).toContainText('this fabric: 560 m');

  // Good paths per ToR, with the worst pair named.
  await expect(page.getByTestId('good-path-chart-worst')).toContainText(/Worst ToR pair: tor\d+ → tor\d+/);

  // Per link: 256 links, fewer once narrowed to the stretched ones.
  await expect(page.getByTestId('plan-links-count')).toHaveText('256 of 256 links');
  await page.getByRole('form', { name: 'Link filters' }).getByLabel('Stretched links only').check();
  await expect(page.getByTestId('plan-links-count')).not.toHaveText('256 of 256 links');
  await expect(page.getByTestId('plan-link-row').first()).toContainText('stretched');

  // Downloads.
  const csv = await page.request.get((await page.getByRole('link', { name: 'Links (CSV)' }).getAttribute('href'))!);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const csvLines = (await csv.text()).trim().split('\n');
  expect(csvLines[0]).toContain('link,name,length_m,speed_gbps,baseline,plan,stretched,p_good');
  expect(csvLines).toHaveLength(257);
  const costs = await page.request.get((await page.getByRole('link', { name: 'Costs (CSV)' }).getAttribute('href'))!);
  expect((await costs.text()).split('\n')[0]).toContain('design,category,item,unit_usd,unit,quantity,total_usd');
  const json = await page.request.get((await page.getByRole('link', { name: 'Result (JSON)' }).getAttribute('href'))!);
  expect(json.ok()).toBeTruthy();

  // A second plan with high stretch, side by side with the first.
  const lowId = lowUrl.split('/').at(-1)!;
  await runPlan(page, 'e2e high stretch', 'high: NRB 95%');
  await page.getByRole('form', { name: 'Plan to compare' }).getByLabel('Other plan').selectOption({ value: lowId });
  await expect(page.getByTestId('plan-comparison')).toBeVisible();
  await expect(page.getByTestId('comparison-chart-bar')).toHaveCount(4);
  await expect(page.getByTestId('plan-comparison-facts')).toContainText('Stretch (high stretch, NRB 95%)');
  await expect(page.getByTestId('plan-comparison-facts')).toContainText('Stretch (low stretch, NRB 99%)');
  await expect(page.getByTestId('plan-comparison-difference')).toContainText(/costs \d+\.\d% less than/);
});

test('the planner reproduces the seed’s Table 4.1: k = 32, lengths uniform on 0-500 m, no stretch', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, 'planner');
  await page.goto('/planning');
  const form = page.getByRole('form', { name: 'New stretch plan' });
  await form.getByLabel('Generated fat tree').check();
  await form.getByLabel('Fat tree k').fill('32');
  await form.getByLabel('Longest link (m)').fill('500');
  await form.getByLabel('Lengths').selectOption({ label: 'expected value (the seed’s Table 4.1)' });
  await form.getByRole('combobox', { name: 'Stretch', exact: true }).selectOption({ label: 'none (rated reach only)' });
  await form.getByRole('button', { name: 'Run plan' }).click();
  await expect(page.getByTestId('plan-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });

  const costs = page.getByTestId('plan-costs');
  const row = (item: string) =>
    costs
      .getByRole('row', { name: new RegExp(`^${item}`) })
      .getByRole('cell')
      .first();
  await expect(row('10GBASE-SR transceivers')).toHaveText('$1,618,01819,660 parts at $82.3/part');
  await expect(row('10GBASE-LR transceivers')).toHaveText('$2,453,81813,108 parts at $187.2/part');
  await expect(row('MMF fiber')).toContainText('1,475 km at $0.44/m');
  await expect(row('SMF fiber')).toContainText('2,621 km at $0.21/m');
  await expect(row('Switch ports')).toContainText('32,768 ports at $90/port');
  await expect(row('Switch power')).toContainText('5.05 GWh at $0.07/kWh');
  await expect(page.getByTestId('plan-baseline-total')).toHaveText('$8,573,468');
  await expect(page.getByTestId('plan-savings')).toHaveText('0.0%');
  // Expected-value mode has no per-link rows: the lengths come as bands, 60 % of the links on SR.
  await expect(page.getByTestId('plan-bands')).toContainText('0–300 m60.0%10GBASE-SR10GBASE-SR');
  // The curves still show what stretch would save on this fabric, at most 8.71 % at 480 m (low stretch).
  await expect(page.getByRole('list', { name: 'Peak savings' })).toContainText('at most 8.7% saved, at 480 m');
});

test('a planner plans the stored demo fabric from its link lengths', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'planner');
  // The form starts on a stored fabric (the first), not on a generated tree; the URL may name another.
  await page.goto('/planning');
  const form = page.getByRole('form', { name: 'New stretch plan' });
  await expect(form.getByLabel('Stored fabric', { exact: true })).toBeChecked();
  const stored = form.getByRole('combobox', { name: 'Stored fabric' });
  await expect(stored).toHaveValue((await stored.locator('option').nth(1).getAttribute('value'))!);
  await expect(form.getByLabel('Fat tree k')).toHaveCount(0);
  await page.goto(`/planning?fabric=${DEMO_FABRIC}`);
  await expect(stored.locator('option:checked')).toHaveText(DEMO_FABRIC);
  await form.getByRole('button', { name: 'Run plan' }).click();
  await expect(page.getByTestId('plan-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  // The fabric is named once: "demo-fb (192 stored links, ...)", never "demo-fb: demo-fb:".
  await expect(page.getByTestId('plan-facts')).toContainText(`${DEMO_FABRIC} (192 stored links, `);
  await expect(page.getByTestId('plan-facts')).not.toContainText(`${DEMO_FABRIC}: ${DEMO_FABRIC}`);
  // The job's log: what the worker did, times in UTC (a job that ended well shows it when opened).
  const log = page.getByTestId('plan-log');
  if (!(await log.evaluate((details) => (details as HTMLDetailsElement).open))) await log.locator('summary').click();
  await expect(log.getByRole('row').nth(1)).toContainText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC\s*info\s*started on worker/);
  await expect(log).toContainText(`RAIL plan of fabric '${DEMO_FABRIC}': done in`);
  await expect(log).toContainText(`${DEMO_FABRIC}: 192 stored links: 192 links`);
  await expect(log.getByRole('row').last()).toContainText(/info\s*succeeded in [\d.]+ s: /);
  await expect(page.getByTestId('plan-links-count')).toHaveText('192 of 192 links');
  // The rows come 50 a page from the server; the savings chart marks the fabric's longest link.
  await expect(page.getByTestId('savings-chart-marker')).toContainText(/this fabric: \d+ m/);
  await expect(page.getByTestId('plan-link-row')).toHaveCount(50);
  const pages = page.getByRole('navigation', { name: 'Link pages' });
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(pages).toContainText('51–100 of 192');
  // A name search narrows them to one switch's links, from the first page.
  const firstLink = await page.getByTestId('plan-link-row').first().getByRole('link').textContent();
  const switchName = firstLink!.split(':')[0]!;
  await page.getByRole('form', { name: 'Link filters' }).getByLabel('Link name').fill(switchName);
  await expect(page.getByTestId('plan-links-count')).toHaveText(/^\d+ of 192 links$/);
  await expect(page.getByTestId('plan-links-count')).not.toHaveText('192 of 192 links');
  await expect(pages).toContainText(/ page 1 of /);
  for (const row of await page.getByTestId('plan-link-row').all()) await expect(row).toContainText(switchName);
  // Stored links open their link page.
  await page.getByTestId('plan-link-row').first().getByRole('link').click();
  await expect(page).toHaveURL(/\/links\/\d+$/);
});

test('an operator builds reliability classes on the demo fabric, sees a class on the fabric and sizes FEC', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, 'operator');
  await page.goto('/planning');
  await page.getByRole('link', { name: 'Reliability classes and FEC' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reliability classes' })).toBeVisible();

  // The FEC calculator answers the seed's example.
  const fec = page.getByRole('form', { name: 'FEC calculator' });
  await fec.getByLabel('Path loss').fill('0.003');
  await fec.getByLabel('Target loss').fill('0.001');
  await fec.getByRole('button', { name: 'Size FEC' }).click();
  await expect(page.getByTestId('fec-answer')).toHaveText(
    'XOR(14): one parity packet per 14 data packets; residual loss 9.2e-4, overhead 7.14%.',
  );

  const form = page.getByRole('form', { name: 'New reliability classes' });
  // The form starts on the first stored fabric; without one it says so.
  await expect(form.getByLabel('Fabric')).not.toHaveValue('');
  await form.getByLabel('Fabric').selectOption({ label: 'Choose…' });
  await form.getByLabel('Class bounds (worst path loss)').fill('1e-3, 1e-4');
  await form.getByRole('button', { name: 'Build classes' }).click();
  await expect(form.getByRole('alert')).toContainText('Choose a fabric.');
  await expect(form.getByRole('alert')).toContainText('Bounds: 1e-4 must be above 0.001 (tightest first).');
  await form.getByLabel('Fabric').selectOption({ label: DEMO_FABRIC });
  await form.getByLabel('Class bounds (worst path loss)').fill('4.8e-8, 1e-3, 0.1');
  await form.getByRole('button', { name: 'Build classes' }).click();

  await expect(page).toHaveURL(/\/planning\/classes\/\d+$/);
  await expect(page.getByTestId('classes-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  await expect(page.getByTestId('class-row')).toHaveCount(3);
  await expect(page.getByTestId('classes-kept-note')).toContainText(
    'Paths kept: the share of a ToR pair’s shortest paths whose every link is in the class',
  );
  // The loosest class is shown first: its links on the fabric, the worst path drawn over them.
  await expect(page.getByRole('heading', { level: 2, name: /^Class 3: \d+ links/ })).toBeVisible();
  const drawing = page.getByTestId('class-drawing');
  await expect(drawing.locator('line[data-role="worst"]')).not.toHaveCount(0);
  await expect(page.getByTestId('class-worst-path')).toContainText(/Worst path: \S+ → .+, loss /);
  await expect(page.getByRole('list', { name: 'Class drawing legend' })).toContainText('Worst path');

  // Another class redraws; the tightest class holds at most as many links as the loosest.
  const loosest = Number(await drawing.locator('line[data-role="member"], line[data-role="worst"]').count());
  await page.getByRole('form', { name: 'Class shown' }).getByLabel('Class shown').selectOption({ value: '1' });
  await expect(page.getByRole('heading', { level: 2, name: /^Class 1: \d+ links/ })).toBeVisible();
  expect(await drawing.locator('line[data-role="member"], line[data-role="worst"]').count()).toBeLessThanOrEqual(
    loosest,
  );

  const csv = await page.request.get(
    (await page.getByRole('link', { name: 'Class links (CSV)' }).getAttribute('href'))!,
  );
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect((await csv.text()).split('\n')[0]).toContain('class,bound,link,a_switch,a_port,z_switch,z_port');
});

test('a viewer has no Planning entry and may only read plans', async ({ page }) => {
  await loginAs(page, 'viewer');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Planning', includeHidden: true })).toHaveCount(0);
  await page.goto('/planning');
  await expect(page.getByTestId('planning-readonly')).toBeVisible();
  await expect(page.getByRole('form', { name: 'New stretch plan' })).toHaveCount(0);
});
