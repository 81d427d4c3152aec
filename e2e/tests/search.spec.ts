import { expect, type Page, test } from '@playwright/test';

import { type ApiListPage, DEMO_FABRIC, findFabric, loginAs } from './helpers';

interface SwitchRow {
  id: number;
  name: string;
  rack: string;
  tier: number;
}

async function firstTor(page: Page): Promise<SwitchRow> {
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const response = await page.request.get('/api/switches/', {
    params: { fabric: fabric.id, tier: 0, limit: 1 },
  });
  expect(response.ok()).toBeTruthy();
  const tor = ((await response.json()) as ApiListPage<SwitchRow>).results[0];
  expect(tor, 'the demo fabric has a ToR').toBeDefined();
  return tor!;
}

const searchBox = (page: Page) => page.getByRole('combobox', { name: /Search switches/ });

test('"/" focuses the header search, which answers as you type and opens a switch page with Enter', async ({
  page,
}) => {
  await loginAs(page, 'viewer');
  const tor = await firstTor(page);
  await page.goto('/links');
  await expect(page.getByRole('heading', { level: 1, name: 'Links' })).toBeVisible();

  await page.keyboard.press('/');
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type(tor.name);
  const results = page.getByRole('listbox', { name: 'Search results' });
  const option = results.getByRole('option').filter({ hasText: tor.name }).first();
  await expect(option).toBeVisible();
  await expect(option).toContainText(`${DEMO_FABRIC} · tor`);

  // The switch is the first hit (an exact name comes first): down once, Enter.
  await page.keyboard.press('ArrowDown');
  await expect(results.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/switches/${tor.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: tor.name })).toBeVisible();
  await expect(results).toHaveCount(0); // the panel closed

  // Escape closes the answers without leaving the page.
  await page.keyboard.press('/');
  await page.keyboard.type('zq-nothing-here');
  await expect(page.getByTestId('search-results')).toContainText('Nothing found for “zq-nothing-here”.');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('search-results')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/switches/${tor.id}$`));
});

test('"/" typed in another field stays in that field', async ({ page }) => {
  await loginAs(page, 'viewer');
  await page.goto('/links');
  const field = page.getByRole('form', { name: 'Link filters' }).locator('input').first();
  await field.focus();
  await page.keyboard.press('/');
  await expect(field).toBeFocused();
  await expect(searchBox(page)).not.toBeFocused();
});

test('on a phone the answers take the screen’s width and a tap opens a rack', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 'technician');
  const tor = await firstTor(page);
  expect(tor.rack, 'demo ToRs have a rack').not.toBe('');

  await searchBox(page).click();
  await searchBox(page).fill(tor.rack);
  const panel = page.getByTestId('search-results');
  const rackHit = panel
    .getByRole('option')
    .filter({ hasText: `rack ${tor.rack}` })
    .first();
  await expect(rackHit).toBeVisible();
  const box = await panel.boundingBox();
  expect(box?.x).toBe(0);
  expect(box?.width).toBeGreaterThanOrEqual(389);

  await rackHit.click();
  await expect(page.getByRole('heading', { level: 1, name: `Rack ${tor.rack}` })).toBeVisible();
  await expect(page.getByTestId('rack-switches')).toContainText(tor.name);
});
