import { readFile } from 'node:fs/promises';

import { expect, type Page, test } from '@playwright/test';

import { csrfToken, DEMO_FABRIC, findFabric, followNavLink, loginAs } from './helpers';

/** One CSV line's values; a quoted value may hold commas and doubled quotes (no line breaks here). */
function csvValues(line: string): string[] {
  const values: string[] = [];
  let value = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (quoted && character === '"' && line[index + 1] === '"') {
      value += '"';
      index += 1;
    } else if (character === '"') quoted = !quoted;
    else if (character === ',' && !quoted) {
      values.push(value);
      value = '';
    } else value += character;
  }
  return [...values, value];
}

/** A CSV export as header → value rows. */
function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\n');
  const names = csvValues(header!);
  return lines.map((line) => Object.fromEntries(csvValues(line).map((value, index) => [names[index], value])));
}

/** Clicks Export CSV and reads the file it downloads. */
async function exportCsv(page: Page): Promise<{ name: string; rows: Record<string, string>[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  return {
    name: download.suggestedFilename(),
    rows: parseCsv(await readFile((await download.path())!, 'utf8')),
  };
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

  const { name, rows } = await exportCsv(page);
  expect(name).toBe('links.csv');
  expect(rows).toHaveLength(expected.count);
  expect(rows.map((row) => Number(row['Link']))).toEqual(expected.results.map((link) => link.id));
  expect(new Set(rows.map((row) => row['Oper state']))).toEqual(new Set(['up']));
  // What the page shows: the fabric's name, a length as the table writes it, "no" rather than blank.
  expect(new Set(rows.map((row) => row['Fabric']))).toEqual(new Set([DEMO_FABRIC]));
  expect(rows.every((row) => /^\d+(\.\d)?$/.test(row['Length (m)']!))).toBe(true);
  expect(new Set(rows.map((row) => row['At risk']))).not.toContain('');
});

test('the tickets list sorts by a header and exports exactly the filtered tickets in that order', async ({ page }) => {
  await loginAs(page, 'viewer');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  // Every state of the demo fabric's tickets: more than the default queue, and nothing changes them here.
  await page.goto(`/tickets?fabric=${fabric.id}&state=any`);
  const queue = page.getByTestId('ticket-queue');
  await expect(queue.getByTestId('ticket-row').first()).toBeVisible();
  await expect(page.getByTestId('ticket-counts')).toContainText(/\d+ open/);

  const opened = queue.getByRole('columnheader', { name: /Opened/ });
  await opened.getByRole('button').click();
  await expect(opened).toHaveAttribute('aria-sort', 'ascending');
  await opened.getByRole('button').click();
  await expect(opened).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/ordering=-created/);

  const answer = await page.request.get('/api/tickets/', {
    params: { fabric: fabric.id, ordering: '-created', limit: 1000 },
  });
  const expected = (await answer.json()) as {
    count: number;
    results: { id: number }[];
  };
  expect(expected.count).toBeGreaterThan(1);
  await expect(queue.getByTestId('ticket-row')).toHaveCount(Math.min(expected.count, 50));
  const shown = await queue.getByTestId('ticket-row').evaluateAll((rows) => rows.map((row) => row.dataset.ticketId));
  expect(shown).toEqual(expected.results.slice(0, 50).map((ticket) => String(ticket.id)));

  // The CSV is the page: a column chosen off is not exported, the others come in the page's order.
  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Assignee' }).uncheck();
  await expect(queue.getByRole('columnheader', { name: 'Assignee' })).toHaveCount(0);
  const { name, rows } = await exportCsv(page);
  expect(name).toBe('tickets.csv');
  expect(Object.keys(rows[0]!)).toEqual([
    'Ticket', 'Link', 'Kind', 'State', 'Recommended action', 'Penalty', 'Fabric', 'Pod', 'Opened',
  ]); // prettier-ignore
  expect(rows.map((row) => Number(row['Ticket']))).toEqual(expected.results.map((ticket) => ticket.id));
  expect(new Set(rows.map((row) => row['Fabric']))).toEqual(new Set([DEMO_FABRIC]));
  // Words as the page writes them, not codes.
  expect(rows.some((row) => /_/.test(row['Recommended action']!))).toBe(false);
});

test('the jobs list sorts by kind, names kinds in words and exports the jobs in that order', async ({ page }) => {
  await loginAs(page, 'viewer');
  await page.goto('/jobs?state=succeeded');
  const table = page.getByTestId('jobs-table');
  await expect(table.getByTestId('job-row').first()).toBeVisible();

  const kind = table.getByRole('columnheader', { name: /Kind/ });
  await kind.getByRole('button').click();
  await expect(kind).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/ordering=kind/);
  await expect(page).toHaveURL(/state=succeeded/);
  // Words, not codes; and a succeeded job's Error cell is empty, not a dash.
  await expect(table).not.toContainText('corruption.optimize');
  await expect(table.locator('.job-error')).toHaveCount(0);

  const { name, rows } = await exportCsv(page);
  expect(name).toBe('jobs.csv');
  // Read right after the export: a job finishing in between would change both alike only by luck.
  const answer = await page.request.get('/api/jobs/', {
    params: { state: 'succeeded', ordering: 'kind', limit: 1000 },
  });
  const expected = (await answer.json()) as {
    count: number;
    results: { id: number; kind: string }[];
  };
  expect(expected.count).toBeGreaterThan(1);
  expect(rows.map((row) => Number(row['Job']))).toEqual(expected.results.map((job) => job.id));
  expect(new Set(rows.map((row) => row['State']))).toEqual(new Set(['succeeded']));
  // Kinds and progress as the page says them: "CorrOpt optimization", "100%".
  expect(rows.some((row) => row['Kind']!.includes('.'))).toBe(false);
  expect(new Set(rows.map((row) => row['Progress']))).toEqual(new Set(['100%']));
  const firstRow = table.getByTestId('job-row').first();
  await expect(firstRow).toHaveAttribute('data-job-id', String(expected.results[0]!.id));
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

  await followNavLink(page, 'Audit');
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
  // Once the delivery has its answer (it fails: nothing listens, one attempt), the endpoint's row
  // counts it without a reload (trial 30: it said "Waiting 1" until one).
  await expect(deliveries.first()).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
  await expect(endpointRow.locator('td[data-label="Waiting"]')).toHaveText('0');
  await expect(endpointRow.locator('td[data-label="Failed"]')).toHaveText('1');

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
