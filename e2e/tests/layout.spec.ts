/**
 * The top bar on a desktop. Trial 30: an admin's 16 links, search, counts, user, roles, theme and
 * logout wrapped it to 3 rows at 1440 px and 4 at 1280 px. Now the daily pages are links in the
 * bar, the rest sit in "Plan" and "More", the account in its own menu: one row from 1280 px for
 * the admin (the widest case); at 1024 px nothing reaches past the window.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';

import { loginAs, openAccountMenu } from './helpers';

/** The bar's height when its items sit on one line (52 px, its minimum); a second row adds ~36 px. */
const ONE_ROW_MAX_HEIGHT = 60;

async function overflowingHeaderElements(header: Locator, width: number): Promise<string[]> {
  return header.evaluate((element, right) => {
    return [element, ...element.querySelectorAll('*')]
      .filter((node) => node.getBoundingClientRect().right > right)
      .map((node) => `${node.tagName.toLowerCase()}.${node.className} "${node.textContent?.trim().slice(0, 30)}"`);
  }, width);
}

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
]) {
  test.describe(`the top bar at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    for (const role of ['admin', 'operator', 'technician']) {
      test(`fits for the ${role}`, async ({ page }) => {
        await loginAs(page, role);
        await page.goto('/work-orders');
        const header = page.locator('header.topbar');
        const nav = header.getByRole('navigation', { name: 'Main' });
        await expect(nav.getByRole('link', { name: 'Tickets', exact: true })).toBeVisible();
        await expect(page.getByTestId('nav-ticket-counts')).toBeVisible();
        await expect(nav.getByRole('button', { name: 'More' })).toBeVisible();
        // A technician's bar is the daily pages and "More": no planning tools.
        await expect(nav.getByRole('button', { name: 'Plan' })).toHaveCount(role === 'technician' ? 0 : 1);

        if (viewport.width >= 1280) {
          const height = (await header.boundingBox())!.height;
          expect(height, 'the bar is one row').toBeLessThanOrEqual(ONE_ROW_MAX_HEIGHT);
        }
        expect(await overflowingHeaderElements(header, viewport.width)).toEqual([]);

        // Each navigation link keeps to one line ("Work orders" wrapped inside its box).
        const heights = new Set<number>();
        for (const link of await nav.getByRole('link').all()) {
          if (await link.isVisible()) heights.add(Math.round((await link.boundingBox())!.height));
        }
        expect([...heights]).toHaveLength(1);

        // Logout is one click away, and its menu stays inside the window.
        await openAccountMenu(page);
        await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible();
        expect(await overflowingHeaderElements(header, viewport.width)).toEqual([]);

        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.screenshot({ path: test.info().outputPath(`topbar-${role}-${viewport.width}.png`) });
      });
    }
  });
}

test.describe('the top bar by keyboard', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  /** Tabs from the search box until the target has the focus. */
  async function tabTo(page: Page, target: Locator): Promise<void> {
    await page.getByRole('combobox', { name: /search/i }).focus();
    for (let presses = 0; presses < 40; presses += 1) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((element) => element === document.activeElement)) return;
    }
    throw new Error('never reached by Tab');
  }

  test("every page of the admin's bar opens by keyboard, and the menus close on Escape, Tab and a click outside", async ({
    page,
  }) => {
    await loginAs(page, 'admin');
    await page.goto('/work-orders');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const groups = nav.locator('.header-menu');
    await expect(groups).toHaveCount(2);

    for (const group of await groups.all()) {
      const button = group.getByRole('button');
      const links = group.getByRole('link', { includeHidden: true });
      const names = await links.allTextContents();
      expect(names.length).toBeGreaterThan(0);
      for (const index of names.keys()) {
        const href = await links.nth(index).getAttribute('href');
        if (href?.startsWith('/api/')) continue; // The server's API docs page, outside the app.
        await tabTo(page, button);
        await page.keyboard.press('Enter');
        await expect(button).toHaveAttribute('aria-expanded', 'true');
        for (let step = 0; step <= index; step += 1) await page.keyboard.press('Tab');
        await expect(links.nth(index)).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(new RegExp(`${href}$`));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // Navigating closed the menu; the menu holding the page shows as current.
        await expect(button).toHaveAttribute('aria-expanded', 'false');
        await expect(button).toHaveAttribute('aria-current', 'true');
      }
    }

    // The daily pages are links in the bar itself.
    const today = nav.getByRole('link', { name: 'Today', exact: true });
    await tabTo(page, today);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/today$/);
    await expect(nav.getByRole('button', { name: 'Plan' })).not.toHaveAttribute('aria-current', 'true');

    // Escape closes a menu and gives its button the focus back.
    const more = nav.getByRole('button', { name: 'More' });
    await tabTo(page, more);
    await page.keyboard.press('Enter');
    await expect(nav.getByRole('link', { name: 'Jobs', exact: true })).toBeVisible();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(more).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Jobs', exact: true })).toBeHidden();

    // Tabbing past the last item closes it.
    await page.keyboard.press('Enter');
    const itemCount = await groups.last().getByRole('link', { includeHidden: true }).count();
    for (let step = 0; step <= itemCount; step += 1) await page.keyboard.press('Tab');
    await expect(more).toHaveAttribute('aria-expanded', 'false');

    // So does a click outside, and opening one menu closes the other.
    await more.click();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await nav.getByRole('button', { name: 'Plan' }).click();
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await page.getByRole('heading', { level: 1 }).click();
    await expect(nav.getByRole('button', { name: 'Plan' })).toHaveAttribute('aria-expanded', 'false');
  });
});
