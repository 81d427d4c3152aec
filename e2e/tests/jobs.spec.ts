import { expect, test } from '@playwright/test';

import { csrfToken, DEMO_FABRIC, findFabric, followNavLink, loginAs } from './helpers';

test('the jobs page shows live progress bars and a capacity report runs to a full bar', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'planner');
  const fabric = await findFabric(page.request, DEMO_FABRIC);

  // Always start a fresh job, so the test sees the live polling and does not depend on old jobs.
  const token = await csrfToken(page.context(), page.request);
  const created = await page.request.post('/api/jobs/', {
    data: { kind: 'fabric.capacity_report', fabric: fabric.id },
    headers: { 'X-CSRFToken': token },
  });
  expect(created.status(), await created.text()).toBe(202);
  const job = (await created.json()) as { id: number };

  await followNavLink(page, 'Jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();

  const rows = page.getByTestId('job-row');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByTestId('job-progress')).toHaveCount(await rows.count());

  const row = page.locator(`[data-testid="job-row"][data-job-id="${job.id}"]`);
  await expect(row).toBeVisible();
  // No reload: the page polls while the job is queued or running.
  await expect(row).toHaveAttribute('data-state', 'succeeded', { timeout: 90_000 });
  await expect(row.getByTestId('job-state')).toHaveText('succeeded');
  await expect(row.getByTestId('job-progress')).toHaveAttribute('aria-valuenow', '100');
});

test("a job's number opens its result page, and another kind's page says which kind it is", async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'planner');
  const token = await csrfToken(page.context(), page.request);
  const created = await page.request.post('/api/jobs/', {
    data: { kind: 'rail.plan', fabric: null, params: { generate: { k: 4 } } },
    headers: { 'X-CSRFToken': token },
  });
  expect(created.status(), await created.text()).toBe(202);
  const job = (await created.json()) as { id: number };

  await page.goto('/jobs');
  const row = page.locator(`[data-testid="job-row"][data-job-id="${job.id}"]`);
  await row.getByRole('link', { name: `#${job.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/planning/plans/${job.id}$`));

  // The same id typed into another kind's page: a sentence naming the job's kind, the navigation kept.
  await page.goto(`/sharebackup/${job.id}`);
  await expect(page.getByText(`Job ${job.id} is a rail.plan job, not sharebackup.plan.`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('an import job, which has no page of its own, shows its log from the Jobs page, on a phone too', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 'planner');
  // The demo data holds no import job (load_demo imports in-process): start one in the background.
  const token = await csrfToken(page.context(), page.request);
  const fabricName = `e2e-import-log-${Date.now()}`;
  const created = await page.request.post('/api/fabrics/import/?background=1', {
    data: {
      format: 'lightpath-fabric/1',
      name: fabricName,
      description: 'One link, imported by a job so the Jobs page shows its log.',
      tiers: ['tor', 'fabric'],
      capacity_constraint: 0.5,
      switches: [
        { name: 'imp-tor0', tier: 0, pod: 0, plane: null },
        { name: 'imp-fab0', tier: 1, pod: 0, plane: 0 },
      ],
      links: [
        {
          a: 'imp-tor0',
          a_port: 'eth2/1',
          b: 'imp-fab0',
          b_port: 'eth1/1',
          length_m: 12,
          speed_gbps: 100,
        },
      ],
    },
    headers: { 'X-CSRFToken': token, 'Content-Type': 'application/json' },
  });
  expect(created.status(), await created.text()).toBe(202);
  const job = (await created.json()) as { id: number; kind: string };
  expect(job.kind).toBe('fabric.import');

  await page.goto('/jobs');
  const row = page.locator(`[data-testid="job-row"][data-job-id="${job.id}"]`);
  await expect(row).toHaveAttribute('data-state', 'succeeded', { timeout: 90_000 });
  const toggle = row.getByRole('button', { name: `Log of job ${job.id}` });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');

  const log = page.getByRole('region', { name: `Log of job ${job.id}` });
  await expect(log.getByText(/^started on worker .+ \(attempt 1\)$/)).toBeVisible();
  await expect(log.getByText(/^succeeded in [\d.]+ s: /)).toBeVisible();
  await expect(log.getByText(/^Log \(\d+ lines\)$/)).toBeVisible();
  // A time stays on one line (it wrapped at every hyphen on a phone): as tall as one line of text.
  const time = log.locator('time').first();
  const lineHeight = await time.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
  expect((await time.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
  // On a phone the log stays in view (the table scrolls sideways under it), and the page does not widen.
  const box = (await log.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
