import { expect, test, type Page } from '@playwright/test';

import { DEMO_FABRIC, findFabric, loginAs } from './helpers';

/** Everything Chromium reports about the Content-Security-Policy, and uncaught errors. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  return seen;
}

test('the main pages work under the Content-Security-Policy without a single violation', async ({ page }) => {
  const violations = watchViolations(page);
  const login = await page.goto('/login');
  const policy = login!.headers()['content-security-policy'];
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("style-src 'self'");
  expect(login!.headers()['server']).toBe('lightpath');

  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const pages: [string, RegExp][] = [
    ['/fabrics', /Fabrics/],
    [`/fabrics/${fabric.id}`, new RegExp(DEMO_FABRIC)],
    ['/links', /Links/],
    ['/tickets', /Tickets/],
    ['/decisions', /Decisions/],
    ['/planning', /planner|Planning/],
    ['/circuits', /Circuit/],
    ['/jobs', /Jobs/],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(heading);
  }
  // The fabric page draws its topology (SVG or canvas) with D3: styles through the CSSOM only.
  await page.goto(`/fabrics/${fabric.id}`);
  await page.waitForLoadState('networkidle');
  expect(violations).toEqual([]);
});

test('Swagger UI at /api/docs/ renders the API under its own policy', async ({ page }) => {
  const violations = watchViolations(page);
  await loginAs(page, 'viewer');
  const docs = await page.goto('/api/docs/');
  expect(docs!.headers()['content-security-policy']).toContain("script-src 'self';");
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Lightpath API');
  await expect(page.locator('.swagger-ui .opblock-tag').first()).toBeVisible();
  expect(violations).toEqual([]);
});
