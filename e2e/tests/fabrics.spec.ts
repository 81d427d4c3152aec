import { expect, test } from '@playwright/test';

import { DEMO_FABRIC, findFabric, loginAs, type CapacityAnswer } from './helpers';

test('a viewer opens demo-fb and sees the topology drawing and per-ToR capacity bars', async ({ page }) => {
  await loginAs(page, 'viewer');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fabrics', exact: true }).click();
  await expect(page).toHaveURL(/\/fabrics$/);
  await page.getByTestId('fabrics-table').getByRole('link', { name: DEMO_FABRIC, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: DEMO_FABRIC })).toBeVisible();

  const fabric = await findFabric(page.request, DEMO_FABRIC);
  expect(fabric.link_count).toBeGreaterThan(0);

  // Topology: every link of the fabric is drawn.
  const topology = page.getByTestId('topology');
  await expect(topology).toBeVisible();
  await expect(topology).toHaveAttribute('data-link-count', String(fabric.link_count));
  await expect(page.getByRole('img', { name: new RegExp(`^Topology of ${DEMO_FABRIC}:`) })).toBeVisible();
  if ((await topology.getAttribute('data-renderer')) === 'svg') {
    await expect(topology.locator('line.topology-link')).toHaveCount(fabric.link_count);
    await expect(topology.locator('circle.topology-node')).toHaveCount(fabric.switch_count);
  } else {
    await expect(topology.getByTestId('topology-canvas')).toBeVisible();
  }
  await expect(topology.getByTestId('legend-up')).toBeVisible();

  // Capacity: one bar per ToR the API reports, and the deliberately degraded ToR is flagged.
  const capacityResponse = await page.request.get(`/api/fabrics/${fabric.id}/capacity/`);
  expect(capacityResponse.ok()).toBeTruthy();
  const capacity = (await capacityResponse.json()) as CapacityAnswer;
  expect(capacity.tors).toHaveLength(capacity.summary.tors);

  const chart = page.getByTestId('capacity-bars');
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId('capacity-bar')).toHaveCount(capacity.summary.tors);
  const flagged = chart.locator('[data-testid="capacity-bar"][data-below-constraint="true"]');
  await expect(flagged).toHaveCount(capacity.summary.below_constraint);
  expect(await flagged.count()).toBeGreaterThanOrEqual(1);
  for (const tor of capacity.tors.filter((candidate) => candidate.below_constraint)) {
    await expect(chart.locator(`[data-testid="capacity-bar"][data-tor="${tor.name}"]`)).toHaveAttribute(
      'data-below-constraint',
      'true',
    );
  }
  // A flat line has a zero-height box, which Playwright calls hidden: check it is drawn instead.
  await expect(chart.getByTestId('capacity-constraint')).toHaveAttribute('d', /^M.+L/);
  await expect(page.getByTestId('capacity-summary')).toContainText(
    `${capacity.summary.below_constraint} below constraint`,
  );
});
