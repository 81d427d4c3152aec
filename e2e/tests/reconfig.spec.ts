import { expect, test } from '@playwright/test';

import { DEMO_FABRIC, followNavLink, loginAs } from './helpers';

/** Cumulative per-ToR byte counters, one CSV row per rack per time: rack 0 runs hot, then rack 2. */
function countersCsv(): string {
  const periodS = 0.5;
  const ratesGbps = [
    ...Array.from({ length: 2 }, () => [100, 100, 100, 100]),
    ...Array.from({ length: 4 }, () => [700, 50, 50, 50]),
    ...Array.from({ length: 4 }, () => [50, 50, 600, 50]),
  ];
  const ingress = [0, 0, 0, 0];
  const egress = [0, 0, 0, 0];
  const lines = ['time_s,rack,ingress_bytes,egress_bytes'];
  const emit = (time: number) =>
    ingress.forEach((bytes, rack) => lines.push(`${time},${rack},${bytes},${egress[rack]}`));
  emit(0);
  ratesGbps.forEach((rates, step) => {
    rates.forEach((gbps, rack) => {
      ingress[rack]! += (gbps * 1e9 * periodS) / 8;
      egress[rack]! += (gbps * 1e9 * periodS) / 16;
    });
    emit((step + 1) * periodS);
  });
  return `${lines.join('\n')}\n`;
}

test('a planner plans ShareBackup failover and reads an event’s replace() calls and matchings', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'planner');
  await followNavLink(page, 'Failover');
  await expect(
    page.getByRole('heading', {
      level: 1,
      name: 'Failover with shared backups',
    }),
  ).toBeVisible();

  const form = page.getByRole('form', { name: 'New failover plan' });
  // A bad entry is caught before anything is sent.
  await form.getByLabel('k (ports per switch)').fill('5');
  await form.getByRole('button', { name: 'Plan failover' }).click();
  await expect(form.getByRole('alert')).toContainText('k must be even.');

  await form.getByLabel('k (ports per switch)').fill('4');
  await form.getByLabel('Pods').fill('2');
  await form.getByLabel('Backups per group').fill('1');
  // An uploaded log naming switches the fabric does not have: the server lists each bad event.
  await form.getByLabel('Upload JSON').check();
  // A picture picked by mistake is said at the file field at once, naming what it takes.
  await form.getByLabel(/Events file/).setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  });
  await expect(form.getByLabel(/Events file/)).toHaveAccessibleDescription(
    'photo.png is a PNG image, not a text file: choose the JSON file.',
  );
  await form.getByLabel(/Events file/).setInputFiles({
    name: 'events.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify([
        { type: 'switch_down', switch: 'agg.p7.m0' },
        { type: 'switch_down', switch: 'core.c0.m5' },
      ]),
    ),
  });
  await form.getByRole('button', { name: 'Plan failover' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'The server refused the plan.' });
  await expect(refused).toContainText("'agg.p7.m0': there are 2 pods (p0..p1)");
  await expect(refused).toContainText("'core.c0.m5': a group has 3 members (m0..m2)");
  await expect(page).toHaveURL(/\/sharebackup$/);

  await form.getByLabel('Synthetic log').check();
  await form.getByLabel('Number of events').fill('12');
  await form.getByLabel('Seed').fill('0');
  await form.getByRole('button', { name: 'Plan failover' }).click();

  await expect(page).toHaveURL(/\/sharebackup\/\d+$/);
  await expect(page.getByTestId('plan-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  await expect(page.getByTestId('plan-progress')).toHaveAttribute('aria-valuenow', '100');
  // The reference counts for k = 4, 2 pods, n = 1.
  await expect(page.getByTestId('plan-facts')).toContainText(
    '12 active switches, 6 backups in 6 failure groups, 8 hosts',
  );
  await expect(page.getByTestId('plan-verdict')).toHaveAttribute('data-sound', 'true');
  await expect(page.getByTestId('failure-group')).toHaveCount(6);
  await expect(page.getByTestId('timeline-event')).toHaveCount(12);

  // Event #1: agg.p0.m0 goes down; its group's backup takes its slot through 4 circuit switches.
  await page.getByTestId('timeline-event').nth(1).click();
  await expect(page.getByTestId('timeline-event').nth(1)).toHaveAttribute('aria-pressed', 'true');
  const detail = page.getByTestId('event-detail');
  await expect(detail.getByRole('heading', { level: 3 })).toContainText('Event #1: agg.p0.m0 goes down');
  await expect(detail.getByTestId('replace-call')).toHaveCount(4);
  await expect(detail.getByTestId('replace-call').first()).toContainText('agg.p0.m2 takes over from agg.p0.m0');
  await expect(detail.getByTestId('matching')).toHaveCount(4);
  const first = detail.getByTestId('matching').first();
  await expect(first.getByTestId('matching-before').locator('[data-mark="removed"]')).toHaveCount(1);
  await expect(first.getByTestId('matching-after').locator('[data-mark="added"]')).toHaveCount(1);
  await expect(page.locator('[data-member="agg.p0.m0"]')).toHaveAttribute('data-state', 'failed');
  await expect(page.locator('[data-member="agg.p0.m2"]')).toHaveAttribute('data-state', 'active');

  // Later the log runs a group out of backups: it is flagged DEGRADED with its rerouting fallback.
  await page.getByTestId('timeline-event').nth(6).click();
  await expect(page.getByTestId('event-detail').getByText('DEGRADED', { exact: true })).toBeVisible();
  await expect(page.getByTestId('fallback-table')).toBeVisible();
  await expect(page.locator('[data-testid="failure-group"][data-degraded="true"]')).not.toHaveCount(0);

  const csv = await page.request.get(
    (await page.getByRole('link', { name: 'replace() calls (CSV)' }).getAttribute('href'))!,
  );
  expect((await csv.text()).split('\n')[0]).toContain('index,order,circuit_switch,side,failed_port,backup_port');
});

test('a planner runs Larry on uploaded counters and checks an uplink vector on degraded cabling', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'planner');
  await followNavLink(page, 'Uplinks');
  await expect(page.getByRole('heading', { level: 1, name: 'Rack uplinks on demand' })).toBeVisible();

  // A typed rack set is the option beside the stored fabric's (the default).
  await page.getByRole('radio', { name: 'A document (preset, typed or uploaded)' }).check();
  // The degraded-cabling rack set of the reference: (3,3,2,0) cannot fit, and the min cut says why.
  await page.getByRole('combobox', { name: /^Preset/ }).selectOption({
    label: 'Degraded cabling: as uniform, with the ToR0–CS0 and ToR1–CS0 cables out',
  });
  const check = page.getByRole('form', { name: 'Feasibility check' });
  await check.getByLabel('Circuit uplinks per rack (beyond S)').fill('3,3,2,0');
  await check.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-result')).toHaveAttribute('data-feasible', 'false');
  await expect(page.getByTestId('whole-request')).toHaveText(
    'Whole request: 7 of 8 circuit uplinks reachable (max flow).',
  );
  await expect(page.getByTestId('bottleneck')).toHaveText(
    'Bottleneck: rack 0, rack 1, rack 2 request 8 but their cables reach at most 7.',
  );
  await expect(page.getByTestId('certificate')).toContainText(
    'Crossing the cut: 1 cable in service from rack 2 to circuit switch 0.',
  );
  await check.getByLabel('Circuit uplinks per rack (beyond S)').fill('3,3,1,1');
  await check.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-result')).toHaveAttribute('data-feasible', 'true');

  // A run on the uniform rack set with counters written here.
  await page.getByRole('combobox', { name: /^Preset/ }).selectOption({
    label: 'Uniform: 4 racks, S = 2, one cable per ToR–CS pair, R = 2',
  });
  const run = page.getByRole('form', { name: 'New uplink run' });
  await run.getByLabel(/Counters file/).setInputFiles({
    name: 'counters.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(countersCsv()),
  });
  await run.getByRole('button', { name: 'Run the controller' }).click();

  await expect(page).toHaveURL(/\/larry\/\d+$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  const chart = page.getByTestId('uplink-chart');
  await expect(chart.getByTestId('uplink-row')).toHaveCount(4);
  await expect(chart.getByTestId('uplink-bar')).toHaveCount(4 * 10);
  await expect(page.getByTestId('metrics-row')).toHaveCount(4);
  await expect(page.getByTestId('metrics-row').first()).toContainText('(this run)');

  // The page opens at the first step that moved circuits: rack 0 borrows from its neighbours.
  await expect(page.getByTestId('step-detail')).toContainText('Step 2 at 1.5 s');
  await expect(page.getByTestId('moved-circuit')).toHaveCount(2);
  await expect(page.getByTestId('moved-circuit').first()).toContainText('→ rack 0');
  await page.getByRole('button', { name: 'Next move →' }).click();
  await expect(page.getByTestId('step-detail')).toContainText('Step 6 at 3.5 s');
  await expect(page.getByTestId('moved-circuit')).toHaveCount(3);
  await expect(page.getByTestId('moved-circuit').first()).toContainText('→ rack 2');

  // A click on the chart selects the step under it; a drag zooms to the steps it covers.
  // mouse.click takes viewport coordinates and never scrolls: bring the chart into view first.
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  await page.mouse.click(box.x + box.width - 30, box.y + 40);
  await expect(page.getByTestId('step-detail')).toContainText('Step 9 at 5 s');
  await page.mouse.move(box.x + box.width * 0.45, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.75, box.y + 40, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId('reset-zoom')).toBeVisible();
  expect(await chart.getByTestId('uplink-bar').count()).toBeLessThan(4 * 10);
  await page.getByTestId('reset-zoom').click();
  await expect(chart.getByTestId('uplink-bar')).toHaveCount(4 * 10);
});

test('Larry’s form starts on a stored fabric’s racks and its telemetry, From and To left to the counters', async ({
  page,
}) => {
  await loginAs(page, 'planner');
  await page.goto(`/larry?fabric=${DEMO_FABRIC}`);
  await expect(page.getByRole('radio', { name: 'A stored fabric’s circuit switches' })).toBeChecked();
  const source = page.getByTestId('fabric-rack-set');
  await expect(source.getByRole('combobox', { name: 'Fabric' }).locator('option:checked')).toHaveText(DEMO_FABRIC);
  await source.getByRole('checkbox', { name: /^ocs-larry / }).check();
  const run = page.getByRole('form', { name: 'New uplink run' });
  await expect(run.getByRole('radio', { name: 'A fabric’s telemetry' })).toBeChecked();
  await expect(run.getByTestId('counters-fabric')).toHaveText(`Telemetry of ${DEMO_FABRIC}, the rack set’s fabric`);
  await expect(run.getByLabel('From (UTC)')).toHaveValue('');
  await expect(run.getByText('empty: from the racks’ first counter sample to their last')).toBeVisible();

  // Empty From and To are left out of what is sent; the server reads the racks' counters from first to last.
  const posted = page.waitForRequest((request) => request.url().endsWith('/api/jobs/') && request.method() === 'POST');
  await run.getByRole('button', { name: 'Run the controller' }).click();
  const body = (await posted).postDataJSON() as { fabric: number; params: { counters: Record<string, unknown> } };
  expect(body.params.counters).toEqual({ source: 'telemetry', bytes_per_packet: 1500 });
  await expect(page).toHaveURL(/\/larry\/\d+$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  // every sample of the demo's counters is in the window the server chose
  await expect(page.getByText(/^telemetry: (\d+) of \1 samples used, one period every 900 s/)).toBeVisible();
});

test('a planner checks uplink vectors against the demo fabric’s Larry circuit switch', async ({ page }) => {
  await loginAs(page, 'planner');
  await page.goto('/larry');
  await page.getByRole('radio', { name: 'A stored fabric’s circuit switches' }).check();
  const source = page.getByTestId('fabric-rack-set');
  await source.getByRole('combobox', { name: 'Fabric' }).selectOption({ label: DEMO_FABRIC });
  // ocs-larry: pod 0's 8 ToRs with 2 cables each, 16 + 8 ports (R = 8)
  await source.getByRole('checkbox', { name: /^ocs-larry \(24 ports, 8 ToRs\)/ }).check();

  const check = page.getByRole('form', { name: 'Feasibility check' });
  const uplinks = check.getByLabel('Circuit uplinks per rack (beyond S)');
  await uplinks.fill('1,1,1,1,1,1,1,1');
  await check.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-result')).toHaveAttribute('data-feasible', 'true');
  await expect(page.getByTestId('feasible')).toContainText(
    'every rack gets its 1, 1, 1, 1, 1, 1, 1, 1 circuit uplinks',
  );
  await expect(page.getByTestId('built-from')).toContainText('Built from fabric demo-fb, circuit switches ocs-larry.');
  // the demo fabric ships p0-tor1's link to p0-fab2 disabled: its cable is left out
  await expect(page.getByTestId('excluded-cables').getByRole('row', { name: /p0-tor1/ })).toContainText(
    'disabled by an operator',
  );

  // p0-tor1 asks for two with one cable in service: the cut holds it alone, while the whole
  // request (max flow, the cut's capacity) still gets 7 of its 8
  await uplinks.fill('2,2,1,1,1,1,0,0');
  await check.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-result')).toHaveAttribute('data-feasible', 'false');
  await expect(page.getByTestId('whole-request')).toHaveText(
    'Whole request: 7 of 8 circuit uplinks reachable (max flow).',
  );
  await expect(page.getByTestId('bottleneck')).toHaveText(
    'Bottleneck: p0-tor1 requests 2 but its cables reach at most 1.',
  );
});

test('a viewer may open the views and check feasibility but not start a job', async ({ page }) => {
  await loginAs(page, 'viewer');
  await page.goto('/sharebackup');
  await expect(page.getByTestId('sharebackup-readonly')).toBeVisible();
  await expect(page.getByRole('form', { name: 'New failover plan' })).toHaveCount(0);
  await page.goto('/larry');
  await expect(page.getByTestId('larry-readonly')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Feasibility check' })).toBeVisible();
});
