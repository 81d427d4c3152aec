import { readFile } from 'node:fs/promises';

import { expect, test } from '@playwright/test';

import { csrfToken, DEMO_FABRIC, findFabric, loginAs } from './helpers';

/** A CSV without quoted commas (the links export has none in these columns) as header → value rows. */
function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, index) => [names[index], value])));
}

test('the links list sorts by a column and exports exactly the filtered rows in that order', async ({ page }) => {
  await loginAs(page, 'viewer');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  await page.goto('/links');
  const filters = page.getByRole('form', { name: 'Link filters' });
  await filters.getByLabel('Fabric').selectOption({ label: DEMO_FABRIC });
  await filters.getByLabel('Oper state').selectOption('up');
  await expect(page).toHaveURL(/oper_state=up/);

  const table = page.getByTestId('links-table');
  const lengthHeader = table.getByRole('columnheader', { name: /Length/ });
  await lengthHeader.getByRole('button').click();
  await expect(lengthHeader).toHaveAttribute('aria-sort', 'ascending');
  await lengthHeader.getByRole('button').click();
  await expect(lengthHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/ordering=-length_m/);

  const answer = await page.request.get('/api/links/', {
    params: {
      fabric: fabric.id,
      oper_state: 'up',
      ordering: '-length_m',
      limit: 1000,
    },
  });
  const expected = (await answer.json()) as {
    count: number;
    results: { id: number; a_port: string }[];
  };
  expect(expected.count).toBeGreaterThan(50); // more than a page: the export is not one page
  await expect(table.locator('tbody tr').first()).toHaveAttribute('data-link-id', String(expected.results[0]!.id));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('links.csv');
  const rows = parseCsv(await readFile((await download.path())!, 'utf8'));
  expect(rows).toHaveLength(expected.count);
  expect(rows.map((row) => Number(row['Link']))).toEqual(expected.results.map((link) => link.id));
  expect(new Set(rows.map((row) => row['Oper state']))).toEqual(new Set(['Up']));
});

test('the audit page filters by who, object type and action, and links the object', async ({ page }) => {
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const token = await csrfToken(page.context(), page.request);
  const name = `audit-e2e-${Date.now()}`;
  const created = await page.request.post('/api/webhooks/', {
    headers: { 'X-CSRFToken': token },
    data: {
      fabric: fabric.id,
      name,
      payload_url: 'http://1.1.1.1:9/hook',
      enabled: false,
      max_attempts: 1,
    },
  });
  expect(created.status()).toBe(201);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Audit filters' });
  await form.getByLabel('Who').fill('operator');
  await form.getByLabel('Object type').selectOption({ label: 'Webhook endpoint' });
  await form.getByLabel('Action').selectOption({ label: 'Created' });
  await form.getByRole('button', { name: 'Show changes' }).click();
  await expect(page).toHaveURL(/username=operator/);
  await expect(page).toHaveURL(/object_type=webhooks.webhookendpoint/);
  const row = page.getByTestId('audit-table').locator('tbody tr', { hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('operator');
  await expect(row).toContainText('Created');
  await expect(row.getByRole('link', { name: new RegExp(name) })).toHaveAttribute('href', '/webhooks');

  await form.getByLabel('Action').selectOption({ label: 'Deleted' });
  await form.getByRole('button', { name: 'Show changes' }).click();
  await expect(page.getByTestId('audit-empty')).toBeVisible();
});

test('the webhooks page shows a new secret once, lists deliveries and redelivers one', async ({ page, browser }) => {
  const viewer = await browser.newPage();
  await loginAs(viewer, 'viewer');
  await viewer.goto('/webhooks');
  await expect(viewer.getByTestId('webhooks-not-allowed')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'New endpoint' })).toHaveCount(0);
  await viewer.close();

  await loginAs(page, 'operator');
  await page.goto('/webhooks');
  const name = `hook-e2e-${Date.now()}`;
  await page.getByRole('button', { name: 'New endpoint' }).click();
  const form = page.getByRole('form', { name: 'New endpoint' });
  await form.getByLabel('Fabric').selectOption({ label: DEMO_FABRIC });
  await form.getByLabel('Name').fill(name);
  // A public address (nothing listens): deliveries fail, which is what a redelivery is for.
  await form.getByLabel('Payload URL').fill('http://1.1.1.1:9/hook');
  await form.getByLabel('Attempts before giving up').fill('1');
  await form.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toContainText(name);
  await page.getByTestId('webhook-secret').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

  const endpointRow = page.getByTestId('webhook-endpoints').locator('tbody tr', { hasText: name });
  await endpointRow.getByRole('button', { name: 'Send test' }).click();
  await page
    .getByRole('region', { name: 'Deliveries' })
    .getByRole('combobox', { name: 'Endpoint' })
    .selectOption({ label: name });
  const deliveries = page.getByTestId('webhook-deliveries').locator('tbody tr');
  await expect(deliveries).toHaveCount(1);
  await expect(deliveries.first()).toContainText('Test');

  await deliveries
    .first()
    .getByRole('button', { name: /Redeliver/ })
    .click();
  await expect(page.getByText('Sent again as a new delivery')).toBeVisible();
  await expect(deliveries).toHaveCount(2);

  // Leave nothing sending: later specs change links, whose events would go to this endpoint.
  await endpointRow.getByRole('button', { name: 'Disable' }).click();
  await expect(endpointRow).toContainText('Disabled');
});
