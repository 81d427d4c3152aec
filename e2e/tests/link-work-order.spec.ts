/**
 * The link page names the work order that takes the link down (trial item 17b): on the demo's
 * breakout cable, a sibling link no ticket is about is still in the order's footprint, and its
 * page says which order, what it does and its state, and leads there.
 */
import { expect, test } from '@playwright/test';

import { type ApiListPage, DEMO_FABRIC, findFabric, loginAs } from './helpers';

interface WorkOrderRow {
  id: number;
  state: string;
  footprint: number[];
  tickets: number[];
}

interface TicketRow {
  id: number;
  link: number;
}

test.use({ viewport: { width: 390, height: 844 } });

test('a link in a work order footprint names the order and leads to it', async ({ page }) => {
  await loginAs(page, 'technician');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  // The worker opens the demo's tickets after the stack starts and groups them into work orders.
  let order: WorkOrderRow | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/api/work-orders/', {
          params: { fabric: fabric.id, state: 'open', limit: 100 },
        });
        order = ((await response.json()) as ApiListPage<WorkOrderRow>).results.find(
          (candidate) => candidate.footprint.length > candidate.tickets.length,
        );
        return order !== undefined;
      },
      { message: 'an open work order taking down links no ticket is about', timeout: 90_000 },
    )
    .toBe(true);
  const tickets = (await (
    await page.request.get('/api/tickets/', { params: { fabric: fabric.id, limit: 1000 } })
  ).json()) as ApiListPage<TicketRow>;
  const ticketed = new Set(tickets.results.map((ticket) => ticket.link));
  const sibling = order!.footprint.find((link) => !ticketed.has(link));
  expect(sibling, 'a footprint link without a ticket').toBeDefined();

  await page.goto(`/links/${sibling}`);
  const named = page.getByTestId('link-work-orders').getByTestId('link-work-order');
  await expect(named).toHaveCount(1);
  await expect(named).toContainText(`Work order #${order!.id}`);
  await expect(named.getByTestId('link-work-order-state')).toHaveText('(open)');
  await named.getByRole('link', { name: `Work order #${order!.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/work-orders/${order!.id}$`));
});
