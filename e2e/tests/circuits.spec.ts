import { expect, test } from '@playwright/test';

import { followNavLink, loginAs } from './helpers';

// Three one-second windows between demo ToRs: two hot pairs, a third joining in window 2.
const DEMAND_CSV = [
  'src,dst,bytes,window_start',
  'p0-tor0,p2-tor0,3000000000,0',
  'p2-tor0,p0-tor0,500000000,0',
  'p1-tor3,p3-tor5,2000000000,0',
  'p0-tor0,p2-tor0,3000000000,1',
  'p1-tor3,p3-tor5,2000000000,1',
  'p0-tor4,p1-tor0,1000000000,1',
  'p0-tor0,p2-tor0,3000000000,2',
  'p1-tor3,p3-tor6,2000000000,2',
].join('\n');

const BAD_CSV = [
  'src,dst,bytes,window_start',
  'p0-tor0,nowhere,100,0',
  'p0-tor1,p0-tor1,100,0',
  'p0-tor2,p0-tor3,-5,0',
].join('\n');

test('a planner uploads a demand, runs a schedule and reads the heat map and the timeline', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'planner');
  await followNavLink(page, 'Circuits');
  await expect(page.getByRole('heading', { level: 1, name: 'Circuit schedules' })).toBeVisible();
  await expect(page.getByTestId('circuit-switch-row').filter({ hasText: 'ocs-1' })).toContainText('32 / 32 / 32');

  // A bad file: the server names every bad line.
  const upload = page.getByRole('form', { name: 'Upload demand' });
  await upload.getByLabel('Name', { exact: true }).fill('e2e hot pairs');
  await upload
    .getByLabel(/Demand file/)
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
  await upload.getByRole('button', { name: 'Upload demand' }).click();
  // At the file field, every bad line, without the server's 'csv:' key.
  const file = upload.getByLabel(/Demand file/);
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  for (const line of ['line 2', 'line 3', 'line 4']) await expect(file).toHaveAccessibleDescription(new RegExp(line));
  await expect(upload).not.toContainText('csv:');

  await upload
    .getByLabel(/Demand file/)
    .setInputFiles({ name: 'demand.csv', mimeType: 'text/csv', buffer: Buffer.from(DEMAND_CSV) });
  await upload.getByRole('button', { name: 'Upload demand' }).click();
  await expect(page.getByTestId('demand-row').filter({ hasText: 'e2e hot pairs' })).toContainText('3 × 1 s');

  // The demand's own heat map, window by window (the matrix endpoint, on the demo switch's 32 racks).
  await page
    .getByTestId('demand-row')
    .filter({ hasText: 'e2e hot pairs' })
    .getByRole('button', { name: 'Show' })
    .click();
  const preview = page.getByTestId('demand-preview');
  await expect(preview.getByTestId('demand-heatmap')).toHaveAttribute('data-racks', '32');
  await expect(preview.getByTestId('heatmap-cell')).toHaveCount(3);
  await preview.getByRole('slider', { name: 'Window' }).fill('3');
  await expect(preview.getByTestId('heatmap-cell')).toHaveCount(2);
  await expect(preview).toContainText('window 3 from 2 s');

  const form = page.getByRole('form', { name: 'New schedule' });
  await form.getByRole('combobox', { name: /^Demand/ }).selectOption({ label: 'e2e hot pairs (3 × 1 s)' });
  await form.getByRole('combobox', { name: /^Circuit switch or zone/ }).selectOption({ label: 'ocs-1 (32 racks)' });
  await form.getByRole('combobox', { name: /^Algorithm/ }).selectOption('exact');
  await form.getByLabel(/Edge groups/).fill('hot 1000000 p0-tor0:p2-tor0 p1-tor3:p3-tor5');
  await form.getByRole('button', { name: 'Run schedule' }).click();

  // The job's page follows its progress, then shows the schedule.
  await expect(page).toHaveURL(/\/circuits\/schedules\/\d+$/);
  await expect(page.getByTestId('schedule-progress')).toBeVisible();
  await expect(page.getByTestId('schedule-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 90_000 });
  await expect(page.getByTestId('metric-optical-ratio')).toContainText('Optical ratio');

  // Beside the cards: how long each pair waited for a circuit, per algorithm compared.
  const histogram = page.getByTestId('visit-delay-histogram');
  await expect(histogram).toBeVisible();
  await expect(histogram).toContainText('Pairs with demand');
  await expect(histogram).toContainText('1 slot = 1 s');
  for (const algorithm of ['exact', 'greedy', 'round_robin']) {
    await expect(
      histogram.locator(`[data-testid="visit-delay-bar"][data-algorithm="${algorithm}"]`).first(),
    ).toBeAttached();
  }
  await expect(
    histogram.locator('[data-testid="visit-delay-bar"][data-algorithm="exact"][data-slots="0"]'),
  ).not.toHaveAttribute('data-pairs', '0');

  // Slot 1 was chosen on window 1: the two hot pairs, each outlined in both directions.
  const heatMap = page.getByTestId('demand-heatmap');
  await expect(heatMap).toHaveAttribute('data-racks', '32');
  await expect(heatMap.getByTestId('heatmap-cell')).toHaveCount(3);
  await expect(heatMap.getByTestId('heatmap-outline')).toHaveCount(4);
  await expect(heatMap.locator('[data-pair="p0-tor0→p2-tor0"]')).toHaveCount(1);
  await expect(heatMap.locator('[data-pair="p3-tor5→p1-tor3"]')).toHaveCount(1);

  // Slot 2 adds the third pair.
  await page.getByRole('slider', { name: 'Slot' }).fill('2');
  await expect(page.getByTestId('slot-summary')).toContainText('3 circuits');
  await expect(heatMap.getByTestId('heatmap-outline')).toHaveCount(6);
  await expect(heatMap.locator('[data-pair="p1-tor0→p0-tor4"]')).toHaveCount(1);

  // One timeline row per rack port; the hot pair's circuit is one bar held over both slots.
  const timeline = page.getByTestId('circuit-timeline');
  await expect(timeline.getByTestId('timeline-row')).toHaveCount(32);
  await expect(timeline.locator('[data-testid="timeline-bar"][data-peer="p2-tor0"]')).toHaveCount(1);
  await expect(timeline.locator('[data-testid="timeline-bar"][data-peer="p0-tor0"]')).toHaveCount(1);
  await expect(timeline.getByTestId('timeline-dark').first()).toBeAttached();
  await expect(page.getByTestId('timeline-slot-range')).toContainText('Slots 1–2 of 2');

  // Both hot pairs had circuits in both slots.
  await expect(page.getByTestId('edge-groups').getByRole('row', { name: /hot/ })).toContainText('p0-tor0–p2-tor0');
  await expect(page.getByTestId('edge-groups').getByRole('row', { name: /hot/ }).getByRole('cell').nth(1)).toHaveText(
    '2',
  );

  // Exact against the baselines.
  await expect(page.getByTestId('comparison-row')).toHaveCount(3);
  await expect(page.getByTestId('comparison-row').first()).toContainText('this schedule');

  const csv = await page.request.get(
    (await page.getByRole('link', { name: 'Circuits per slot (CSV)' }).getAttribute('href'))!,
  );
  expect((await csv.text()).split('\n')[0]?.trim()).toBe('slot,t0_s,src,dst,count');
});

test('a planner sees the server refuse a circuit switch with a name already used', async ({ page }) => {
  await loginAs(page, 'planner');
  await page.goto('/circuits');
  await page.getByRole('button', { name: 'New circuit switch' }).click();
  const form = page.getByRole('form', { name: 'New circuit switch' });
  const name = form.getByLabel('Name', { exact: true });
  // The limit is said before submit; past it the field says by how much at once.
  await expect(name).toHaveAccessibleDescription('Up to 100 characters.');
  await name.fill('n'.repeat(120));
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription('120 characters: up to 100, 20 too many.');
  await name.fill('');
  await form.getByLabel(/^Circuit capacity/).fill('2e9');
  await form.getByRole('button', { name: 'Create circuit switch' }).click();
  // Every problem at once, each at its field.
  await expect(name).toHaveAccessibleDescription(/Give the circuit switch a name\./);
  await expect(form.getByLabel(/^Circuit capacity/)).toHaveAccessibleDescription(
    'The circuit capacity must be a number of Gb/s above 0 and up to 100,000.',
  );
  await expect(form.getByText('Check the form.')).toHaveCount(0);
  await form.getByLabel(/^Circuit capacity/).fill('100');
  await name.fill('ocs-1');
  await form.getByRole('button', { name: 'Create circuit switch' }).click();
  // The server's refusal of a name already used in the fabric, at the name, without a key.
  await expect(name).toHaveAccessibleDescription(/already has a circuit switch 'ocs-1'/);
  await expect(form).not.toContainText('name:');
});

test('a planner deletes an uploaded demand after confirming', async ({ page }) => {
  await loginAs(page, 'planner');
  await page.goto('/circuits');
  const upload = page.getByRole('form', { name: 'Upload demand' });
  await upload.getByLabel('Name', { exact: true }).fill('e2e to delete');
  await upload
    .getByLabel(/Demand file/)
    .setInputFiles({ name: 'demand.csv', mimeType: 'text/csv', buffer: Buffer.from(DEMAND_CSV) });
  await upload.getByRole('button', { name: 'Upload demand' }).click();
  const row = page.getByTestId('demand-row').filter({ hasText: 'e2e to delete' });
  await expect(row).toContainText('3 × 1 s');

  // Cancel keeps it; confirming the question that names it deletes it.
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  const question = row.getByRole('group', { name: 'Delete demand “e2e to delete”' });
  await expect(question).toContainText('Delete demand “e2e to delete”?');
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  await row.getByRole('button', { name: 'Delete demand “e2e to delete”' }).click();
  await expect(page.getByTestId('demand-row').filter({ hasText: 'e2e to delete' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('demand-row').first()).toBeVisible();
  await expect(page.getByTestId('demand-row').filter({ hasText: 'e2e to delete' })).toHaveCount(0);
});

test('a viewer reads circuit schedules but uploads nothing', async ({ page }) => {
  await loginAs(page, 'viewer');
  await page.goto('/circuits');
  await expect(page.getByTestId('circuit-switch-row').filter({ hasText: 'ocs-1' })).toBeVisible();
  await expect(page.getByTestId('circuits-readonly')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Upload demand' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New circuit switch' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
});
