import { expect, test } from '@playwright/test';

import { csrfToken, DEMO_FABRIC, findFabric, loginAs } from './helpers';

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

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs', exact: true }).click();
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
