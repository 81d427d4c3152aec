import { expect, test } from '@playwright/test';

import { followNavLink, loginAs, loginThroughForm, openAccountMenu } from './helpers';

test('an anonymous visit to /fabrics goes to the login page and back after login', async ({ page }) => {
  await page.goto('/fabrics');
  await expect(page).toHaveURL(/\/login\?next=%2Ffabrics$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

  await page.getByLabel('Username').fill('viewer');
  await page.getByLabel('Password').fill('lightpath-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/fabrics$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Fabrics' })).toBeVisible();
});

test('a wrong password shows an error and keeps the user on the login page', async ({ page }) => {
  await loginThroughForm(page, 'viewer', 'not-the-demo-password');
  const error = page.getByTestId('login-error').getByRole('alert');
  await expect(error).toBeVisible();
  await expect(error).toContainText('Login failed.');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('current-user')).toHaveCount(0);
});

test('the top nav has every section, the user and roles, and logout ends the session', async ({ page }) => {
  await loginAs(page, 'operator');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const section of ['Fabrics', 'Links', 'Tickets']) {
    await expect(nav.getByRole('link', { name: section, exact: true })).toBeVisible();
  }
  // The planning tools and the records sit in the bar's "Plan" and "More" menus.
  await nav.getByRole('button', { name: 'Plan' }).click();
  for (const section of ['Planning', 'Circuits']) {
    await expect(nav.getByRole('link', { name: section, exact: true })).toBeVisible();
  }
  await nav.getByRole('button', { name: 'More' }).click();
  await expect(nav.getByRole('link', { name: 'Jobs', exact: true })).toBeVisible();
  await openAccountMenu(page);
  const user = page.getByTestId('current-user');
  await expect(user.locator('.user-name')).toHaveText('operator');
  await expect(user.locator('.role')).toContainText(['operator']);

  await followNavLink(page, 'Circuits');
  await expect(page.getByRole('heading', { name: 'Circuit schedules', level: 1 })).toBeVisible();

  await openAccountMenu(page);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const me = await page.request.get('/api/auth/me/');
  expect(me.status()).toBe(401);

  await page.goto('/jobs');
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs$/);
});
