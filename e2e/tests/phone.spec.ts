import { expect, test, type Page } from '@playwright/test';

import { type ApiListPage, DEMO_FABRIC, findFabric, loginAs } from './helpers';

/**
 * A phone (390x844) as a technician and an operator hold it: the queue starts on the first screen,
 * the navigation folds behind "Menu", a switch's links are cards, and each tab says which page it
 * is. Reads only: it changes no demo object.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test('a technician sees the first ticket without scrolling, the filters behind one button', async ({ page }) => {
  await loginAs(page, 'technician');
  await page.goto('/tickets');
  await expect(page).toHaveTitle('Tickets · Lightpath');
  const firstRow = page.getByTestId('ticket-row').first();
  await expect(firstRow).toBeVisible();
  const box = (await firstRow.boundingBox())!;
  expect(box.y, 'the first ticket starts inside the first screen').toBeLessThan(844);
  expect(box.y + Math.min(box.height, 120), 'and shows more than its top edge').toBeLessThan(844);
  await page.screenshot({ path: test.info().outputPath('tickets-390.png') });

  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  const form = page.locator(`#${await filters.getAttribute('aria-controls')}`);
  await expect(form).toBeHidden();
  await filters.tap();
  await expect(form).toBeVisible();
  await expect(page.getByRole('button', { name: /^Hide filters/ })).toHaveAttribute('aria-expanded', 'true');
  await noSidewaysScroll(page);

  // The ticket's tab names it. Its index.html preloads the ticket and who is signed in (a phone
  // saves the round trips): the page reuses those answers rather than asking again.
  const ticketId = await firstRow.getAttribute('data-ticket-id');
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`/tickets/${ticketId}`);
  await expect(page.getByTestId('ticket-header')).toBeVisible();
  await expect(page).toHaveTitle(`Ticket #${ticketId} · Lightpath`);
  expect(asked.filter((path) => path === `/api/tickets/${ticketId}/`)).toHaveLength(1);
  expect(asked.filter((path) => path === '/api/auth/me/')).toHaveLength(1);
  const initiators = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => {
      const timing = entry as PerformanceResourceTiming;
      return [new URL(timing.name).pathname, timing.initiatorType];
    }),
  );
  expect(initiators).toContainEqual([`/api/tickets/${ticketId}/`, 'link']);
});

test('on a phone the navigation folds behind Menu, and following a link closes it', async ({ page }) => {
  await loginAs(page, 'operator');
  await page.goto('/fabric-health');
  await expect(page).toHaveTitle('Health · Lightpath');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeHidden();
  const menu = page.getByRole('button', { name: 'Menu' });
  const header = page.locator('header.topbar');
  expect((await header.boundingBox())!.height, 'the folded bar is a line or two, not ~300 px').toBeLessThan(120);

  await menu.tap();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('menu-open-390.png') });
  await nav.getByRole('link', { name: 'Links', exact: true }).tap();
  await expect(page).toHaveURL(/\/links$/);
  await expect(page).toHaveTitle('Links · Lightpath');
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
});

test("a switch's links are cards on a phone, and its tab carries its name", async ({ page }) => {
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const response = await page.request.get('/api/switches/', { params: { fabric: fabric.id, tier: 0, limit: 1 } });
  const tor = ((await response.json()) as ApiListPage<{ id: number; name: string }>).results[0]!;

  await page.goto(`/switches/${tor.id}`);
  await expect(page.getByRole('heading', { level: 1, name: tor.name })).toBeVisible();
  await expect(page).toHaveTitle(`${tor.name} · Lightpath`);
  const links = page.getByTestId('switch-links');
  await expect(links.locator('thead')).toBeHidden();
  const health = links.locator('td[data-label="Health"]').first();
  await expect(health).toBeVisible();
  const cell = (await health.boundingBox())!;
  expect(cell.x + cell.width, 'the Health column is on screen').toBeLessThanOrEqual(390);
  await noSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('switch-390.png'), fullPage: true });
});
