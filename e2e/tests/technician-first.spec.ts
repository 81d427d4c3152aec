import { expect, test } from '@playwright/test';

import { DEMO_FABRIC, findFabric, loginThroughForm } from './helpers';

interface TicketAnswer {
  id: number;
  state: string;
  direction: 'a_to_z' | 'z_to_a';
}

/** Issue #20 "Technician first", as a technician on a phone finds it. */
test.describe('technician first, on a phone', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

  test('lands on the queue, sees where and what to bring first, records a reseat and sees it recorded', async ({
    page,
  }) => {
    // No plan names the technician: login lands on the ticket queue.
    await loginThroughForm(page, 'technician');
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();

    const fabric = await findFabric(page.request, DEMO_FABRIC);
    let ticket: TicketAnswer | undefined;
    await expect
      .poll(
        async () => {
          const response = await page.request.get('/api/tickets/', {
            params: {
              fabric: fabric.id,
              state: 'open',
              // A repair: a preventive ticket (opened by the at-risk specs) sorts first, its penalty
              // unknown, and its action waits for a started work order.
              kind: 'repair',
              ordering: '-penalty',
              limit: 1,
            },
          });
          ticket = ((await response.json()) as { results: TicketAnswer[] }).results[0];
          return ticket !== undefined;
        },
        {
          message: 'an open ticket',
          timeout: 90_000,
          intervals: [1_000, 2_000, 5_000],
        },
      )
      .toBe(true);
    const row = page.locator(`[data-testid="ticket-row"][data-ticket-id="${ticket!.id}"]`);
    await page.reload();
    await row.getByRole('link', { name: new RegExp(`^Ticket ${ticket!.id}:`) }).click();
    await expect(page).toHaveURL(new RegExp(`/tickets/${ticket!.id}$`));

    // Where and what to bring, above the fold.
    const header = page.getByTestId('ticket-header');
    await expect(header.getByTestId('ticket-header-todo')).not.toBeEmpty();
    const bring = header.getByTestId('ticket-header-bring');
    await expect(bring).toContainText('Cable:');
    await expect(bring).toContainText(/Transceiver: \S+ \(serial .+\) at end [AZ]/);
    await expect(bring).toContainText(/Far end: .+:.+, rack /);
    await expect(header.getByTestId('ticket-header-validation')).toContainText('24 h');
    const box = (await bring.boundingBox())!;
    expect(box.y + box.height, 'what to bring inside the first screen').toBeLessThanOrEqual(844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Take it and record a reseat: the receiving end's transceiver record says when.
    const receiving = ticket!.direction === 'a_to_z' ? 'z' : 'a';
    await expect(page.getByTestId(`ticket-end-${receiving}`)).toContainText('never recorded');
    await expect(page.getByTestId('nav-ticket-counts')).toContainText(/^\d+ · 0 mine$/);
    await page.getByRole('button', { name: 'Take this ticket' }).click();
    // The nav's counts follow: the ticket is now the technician's.
    await expect(page.getByTestId('nav-ticket-counts')).toContainText(/^\d+ · 1 mine$/);
    const form = page.getByRole('form', { name: 'Record the action taken' });
    await form.getByRole('radio', { name: 'Reseated transceiver' }).check();
    await form.getByRole('button', { name: /Record action/ }).click();
    await expect(page.getByTestId('act-message')).toContainText('validation has started');

    await expect(page.getByTestId(`ticket-end-${receiving}`)).not.toContainText('never recorded');
    await expect(page.getByTestId(`ticket-end-${receiving}`)).toContainText(
      /Last reseated\s*\d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    await expect(header.getByTestId('ticket-header-validation')).toContainText(
      /Validating until \d{4}-\d\d-\d\d \d\d:\d\d UTC, 24 h after the repair/,
    );

    // The done step collapsed to one line, which expands.
    const step = page.locator('[data-testid="ticket-step"][data-step="1"]');
    await expect(step.getByTestId('step-summary')).toContainText(/Reseated transceiver by technician, .+ UTC/);
    await expect(step.getByText('Followed the recommendation')).toBeHidden();
    await step.getByTestId('step-summary').click();
    await expect(step.getByText('Followed the recommendation')).toBeVisible();
  });
});
