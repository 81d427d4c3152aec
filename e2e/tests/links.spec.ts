import { expect, test } from '@playwright/test';

import { DEMO_FABRIC, findFabric, loginAs } from './helpers';

test('the links table filters by fabric and state', async ({ page }) => {
  await loginAs(page, 'viewer');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Links' })).toBeVisible();

  const filters = page.getByRole('form', { name: 'Link filters' });
  await filters.getByLabel('Fabric').selectOption({ label: DEMO_FABRIC });
  await expect(page).toHaveURL(new RegExp(`fabric=${fabric.id}`));
  await expect(page.getByTestId('links-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Links pages' })).toContainText(
    `of ${fabric.link_count.toLocaleString('en-US')}`,
  );

  await filters.getByLabel('Admin state').selectOption('disabled');
  await expect(page).toHaveURL(/admin_state=disabled/);
  const disabledAnswer = await page.request.get('/api/links/', {
    params: { fabric: fabric.id, admin_state: 'disabled', limit: 1 },
  });
  const disabledCount = ((await disabledAnswer.json()) as { count: number }).count;
  if (disabledCount === 0) {
    await expect(page.getByTestId('links-empty')).toBeVisible();
  } else {
    const rows = page.getByTestId('links-table').locator('tbody tr');
    await expect(rows).toHaveCount(Math.min(disabledCount, 50));
    await expect(page.getByTestId('links-table').locator('tbody tr[data-admin-state="enabled"]')).toHaveCount(0);
  }
});
