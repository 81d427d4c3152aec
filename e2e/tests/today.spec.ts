/**
 * The technician's day (issue #18): an operator plans the day of the demo fabric for the user
 * `technician` from Work orders > Plan the day, and reads the plan's timeline, headroom and totals;
 * the technician logs in on a phone, lands on Today and finds the same visits in the same order,
 * the first one's rack on the first screen.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import { type ApiListPage, DEMO_FABRIC, findFabric, loginAs, loginThroughForm } from './helpers';

interface PlanResult {
  visits: { technician_name: string; work_order: number; start_s: number }[];
  headroom: unknown[];
  unscheduled: number[];
  left_for_later: { work_order: number; reason: string; detail: string }[];
}

/** The worker opens the demo's tickets after the stack starts and groups them into work orders. */
async function waitForOpenOrders(request: APIRequestContext, fabricId: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/work-orders/', { params: { fabric: fabricId, state: 'open' } });
        expect(response.ok(), `GET /api/work-orders/ answered ${response.status()}`).toBeTruthy();
        return ((await response.json()) as ApiListPage<unknown>).count;
      },
      { message: 'open work orders on the demo fabric', timeout: 90_000, intervals: [1_000, 2_000, 5_000] },
    )
    .toBeGreaterThan(0);
}

async function noSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('an operator plans the day for the technician, who reads it on Today on a phone', async ({ browser }) => {
  test.setTimeout(180_000);

  // The operator, at a desk.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await desk.newPage();
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  await waitForOpenOrders(page.request, fabric.id);

  await page.goto('/work-orders');
  await page.getByRole('link', { name: 'Plan the day' }).click();
  await expect(page).toHaveURL(/\/work-orders\/plan/);
  const form = page.getByRole('form', { name: 'Plan the day' });
  await form.getByLabel('Fabric').selectOption({ label: DEMO_FABRIC });
  // Nothing chosen: the form says so and sends nothing.
  await form.getByRole('button', { name: 'Plan the day' }).click();
  await expect(form.getByRole('alert')).toContainText('Choose at least one technician.');
  await form.getByRole('checkbox', { name: /^technician\b/ }).check();
  await form.getByRole('button', { name: 'Plan the day' }).click();

  await expect(page).toHaveURL(/job=\d+/);
  const jobId = Number(new URL(page.url()).searchParams.get('job'));
  await expect(page.getByTestId('plan-totals')).toBeVisible({ timeout: 120_000 });
  const job = await page.request.get(`/api/jobs/${jobId}/`);
  expect(job.ok()).toBeTruthy();
  const plan = ((await job.json()) as { result: PlanResult }).result;
  const planned = plan.visits.filter((visit) => visit.technician_name === 'technician');
  expect(planned.length, 'the plan gives the technician at least one visit').toBeGreaterThan(0);

  // The timeline: a lane for the technician with a bar per visit, the headroom strip, the now-line
  // (the shift starts now), and the table saying the same; the totals beside first in first out.
  await expect(page.getByTestId('timeline-lane')).toHaveCount(1);
  await expect(page.getByTestId('timeline-bar')).toHaveCount(planned.length);
  await expect(page.getByTestId('headroom-segment')).toHaveCount(plan.headroom.length);
  await expect(page.getByTestId('timeline-now')).toHaveCount(1);
  const rows = page.getByTestId('plan-visit-row');
  await expect(rows).toHaveCount(planned.length);
  await expect(rows.first()).toContainText('technician');
  await expect(rows.first()).toContainText(`#${planned[0]!.work_order}`);
  await expect(page.getByTestId('plan-penalty')).not.toHaveText('—');
  await expect(page.getByTestId('plan-fifo')).not.toHaveText('—');
  await expect(page.getByTestId('plan-quality')).toHaveText(/Proven optimal|Within .*% of the best possible plan/);
  // What waits for later, each order with the engine's sentence on why.
  const left = page.getByTestId('left-for-later-order');
  await expect(left).toHaveCount(plan.unscheduled.length);
  expect(plan.left_for_later.map((order) => order.work_order).sort()).toEqual([...plan.unscheduled].sort());
  for (const order of plan.left_for_later) {
    await expect(left.nth(plan.unscheduled.indexOf(order.work_order))).toContainText(order.detail);
  }
  // Tapping a bar names its order.
  await page.getByTestId('timeline-bar').first().click();
  await expect(page.getByTestId('timeline-picked')).toContainText(`Work order #${planned[0]!.work_order}`);
  await noSidewaysScroll(page, 1280);
  await page.screenshot({ path: test.info().outputPath('plan-1280.png'), fullPage: true });

  // The operator looks at the technician's day from Today.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Today' }).click();
  // Pages load on first use: the plan stays on screen until Today's code has arrived.
  await expect(page).toHaveURL(/\/today$/);
  await page.getByLabel('Technician').selectOption('technician');
  await expect(page).toHaveURL(/\/today\?user=technician$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('technician’s day');
  await expect(page.getByTestId('today-visit')).toHaveCount(planned.length);
  await desk.close();

  // The technician, on a phone: login lands on Today.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const technician = await phone.newPage();
  await loginThroughForm(technician, 'technician');
  await expect(technician).toHaveURL(/\/today$/);
  await expect(technician.getByRole('heading', { level: 1 })).toHaveText('Today');
  const cards = technician.getByTestId('today-visit');
  await expect(cards).toHaveCount(planned.length);
  const order = await cards.evaluateAll((elements) => elements.map((element) => Number(element.dataset.workOrder)));
  expect(order).toEqual(planned.map((visit) => visit.work_order));
  await expect(technician.getByTestId('today-plan')).toContainText(`Planned`);
  await expect(technician.getByTestId('today-plan')).toContainText(DEMO_FABRIC);

  // Where the first visit is, without scrolling: its rack and switch inside the first screen.
  const first = cards.first();
  await expect(first.getByTestId('today-time')).toContainText('UTC');
  for (const fact of ['today-rack', 'today-switch']) {
    const box = (await first.getByTestId(fact).boundingBox())!;
    expect(box.y + box.height, `${fact} inside the first screen`).toBeLessThanOrEqual(844);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(first.getByTestId('today-what')).not.toBeEmpty();
  await expect(first.getByRole('link', { name: new RegExp(`Work order #${planned[0]!.work_order}`) })).toBeVisible();
  await noSidewaysScroll(technician, 390);
  await technician.screenshot({ path: test.info().outputPath('today-390.png') });

  // What to bring opens on demand, and the order's page is one tap away.
  await first.getByText(/^What to bring/).click();
  await expect(first.getByTestId('bring-link').first()).toBeVisible();
  await noSidewaysScroll(technician, 390);
  await first.getByRole('link', { name: new RegExp(`Work order #${planned[0]!.work_order}`) }).click();
  await expect(technician).toHaveURL(new RegExp(`/work-orders/${planned[0]!.work_order}$`));
  await phone.close();
});
