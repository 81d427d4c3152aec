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

test.describe('the links list on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('each link is a card, named by its A end, nothing scrolls sideways, the filters behind one button', async ({
    page,
  }) => {
    await loginAs(page, 'technician');
    const fabric = await findFabric(page.request, DEMO_FABRIC);
    await page.goto(`/links?fabric=${fabric.id}`);
    const table = page.getByTestId('links-table');
    const first = table.locator('tbody tr').first();
    await expect(first).toBeVisible();

    // Trial 30: a sideways-scrolling table behind a screen of filters.
    await expect(table.locator('thead')).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const card = (await first.boundingBox())!;
    expect(card.y, 'the first link starts on the first screen').toBeLessThan(844 - 120);
    const health = first.locator('td[data-label="Health"]');
    const healthBox = (await health.boundingBox())!;
    expect(healthBox.x + healthBox.width, 'the Health fact is on screen').toBeLessThanOrEqual(390);
    // The A end, which opens the link, heads the card.
    const aEnd = first.locator('td[data-label="A end"]');
    expect((await aEnd.boundingBox())!.y).toBeLessThan((await first.locator('td[data-label="Fabric"]').boundingBox())!.y);
    await page.screenshot({ path: test.info().outputPath('links-390.png') });

    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect(filters).toHaveText('Filters (1 set)');
    const form = page.getByRole('form', { name: 'Link filters' });
    await expect(form).toBeHidden();
    await filters.tap();
    await expect(form).toBeVisible();
    await form.getByLabel('Admin state').selectOption('enabled');
    await expect(page).toHaveURL(/admin_state=enabled/);
    await expect(page.getByRole('button', { name: /^Hide filters/ })).toHaveText('Hide filters (2 set)');

    await aEnd.getByRole('link').tap();
    await expect(page).toHaveURL(/\/links\/\d+$/);
  });
});
