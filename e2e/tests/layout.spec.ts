/**
 * The top bar on a desktop (trial item 4): with the admin's navigation (every page) at 1024 and
 * 1280 px, nothing in the header reaches past the window, no link wraps inside itself, Logout is
 * on screen and the page does not scroll sideways.
 */
import { expect, test } from '@playwright/test';

import { loginAs } from './helpers';

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
]) {
  test.describe(`the top bar at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    for (const role of ['admin', 'operator']) {
      test(`fits for the ${role}`, async ({ page }) => {
        await loginAs(page, role);
        await page.goto('/work-orders');
        const header = page.locator('header.topbar');
        await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible();
        await expect(header.getByRole('link', { name: 'Jobs' })).toBeVisible();

        // Every element of the header ends inside the window.
        const overflowing = await header.evaluate((element, width) => {
          return [element, ...element.querySelectorAll('*')]
            .filter((node) => node.getBoundingClientRect().right > width)
            .map(
              (node) => `${node.tagName.toLowerCase()}.${node.className} "${node.textContent?.trim().slice(0, 30)}"`,
            );
        }, viewport.width);
        expect(overflowing).toEqual([]);

        // Each navigation link keeps to one line ("Work orders" wrapped inside its box).
        const links = header.getByRole('navigation', { name: 'Main' }).getByRole('link');
        const heights = new Set<number>();
        for (const link of await links.all()) heights.add(Math.round((await link.boundingBox())!.height));
        expect([...heights]).toHaveLength(1);

        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.screenshot({
          path: test.info().outputPath(`topbar-${role}-${viewport.width}.png`),
        });
      });
    }
  });
}
