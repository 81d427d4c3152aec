import { expect, test } from '@playwright/test';

import { DEMO_FABRIC, followNavLink, loginAs } from './helpers';

test('a planner runs a what-if simulation and reads its charts and downloads', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'planner');
  await followNavLink(page, 'Simulations');
  await expect(page.getByRole('heading', { level: 1, name: 'What-if simulations' })).toBeVisible();

  const form = page.getByRole('form', { name: 'New simulation' });
  // A bad entry is caught before anything is sent.
  await form.getByLabel('Capacity constraints').fill('0.5, 1.5');
  await form.getByRole('button', { name: 'Run simulation' }).click();
  await expect(form.getByRole('alert')).toContainText('Choose a fabric.');
  await expect(form.getByRole('alert')).toContainText('“1.5” is not a fraction in (0, 1].');

  await form.getByLabel('Fabric').selectOption({ label: DEMO_FABRIC });
  await form.getByLabel('Capacity constraints').fill('0.5, 0.75');
  await form.getByLabel('Length (hours)').fill('720');
  await form.getByLabel('Mean time between onsets per link (hours)').fill('1000');
  await form.getByRole('button', { name: 'Run simulation' }).click();

  // The job's page follows its progress bar, then draws the charts.
  await expect(page).toHaveURL(/\/simulations\/\d+$/);
  await expect(page.getByTestId('simulation-progress')).toBeVisible();
  await expect(page.getByTestId('simulation-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 90_000 });
  await expect(page.getByTestId('simulation-progress')).toHaveAttribute('aria-valuenow', '100');

  await expect(page.getByTestId('ratio-chart')).toBeVisible();
  await expect(page.getByTestId('penalty-chart-line')).toHaveCount(3);
  await expect(page.getByTestId('worst-chart-line')).toHaveCount(3);
  await expect(page.getByTestId('worst-chart-reference')).toHaveCount(1); // a flat line has no box to be 'visible'
  await expect(page.getByRole('list', { name: /Worst ToR capacity fraction over time.* legend/ })).toContainText(
    'constraint 75%',
  );
  // 2 constraints x 2 accuracies x 3 policies
  await expect(page.getByTestId('simulation-summary-row')).toHaveCount(12);

  // Another run of the sweep redraws the time charts.
  await page.getByRole('form', { name: 'Run shown over time' }).getByLabel('Constraint').selectOption({ label: '50.0%' });
  await expect(page.getByRole('list', { name: /Worst ToR capacity fraction over time.* legend/ })).toContainText(
    'constraint 50%',
  );

  const csvLink = page.getByRole('link', { name: 'Summary (CSV)' });
  const csv = await page.request.get((await csvLink.getAttribute('href'))!);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect((await csv.text()).split('\n')[0]).toContain('constraint,accuracy,policy,share,penalty_seconds');
  const json = await page.request.get((await page.getByRole('link', { name: 'Result (JSON)' }).getAttribute('href'))!);
  expect(json.headers()['content-disposition']).toMatch(/attachment; filename="job-\d+-corruption-simulate\.json"/);
});

test('a viewer may open simulations but not start one', async ({ page }) => {
  await loginAs(page, 'viewer');
  await page.goto('/simulations');
  await expect(page.getByTestId('simulation-readonly')).toBeVisible();
  await expect(page.getByRole('form', { name: 'New simulation' })).toHaveCount(0);
});
