/**
 * Work orders on a phone (issue #18): the technician opens the work order of the demo's breakout
 * cable, sees where to go, what to bring and the siblings the repair takes down, and Start
 * is refused with its options; a safe order is started and finished from its page.
 *
 * The demo's shared-component fault corrupts one ToR's breakout uplinks (eth2/1-4): its cable
 * carries all four of that ToR's uplinks, so no restoration can save it and the start is blocked.
 * The safe order is a one-link repair on a link CorrOpt already took out of service. An admin may
 * still start the blocked one with a reason; finishing it as not repaired puts every link back.
 *
 * The demo's loose breakout transceiver on p1-fab2 (its spine side) needs a capacity restoration:
 * reseating it takes p1-fab2's four spine uplinks down, which would leave pod 1's ToRs under their
 * constraint unless the lossy p1-fab0 uplink CorrOpt disabled is enabled for the visit. That test
 * runs before the safe order's, which may pick the p1-fab0 uplink's cleaning and put it back.
 */
import {
  expect,
  test,
  type APIRequestContext,
  type Locator,
  type Page,
} from "@playwright/test";

import { type ApiListPage, DEMO_FABRIC, findFabric, loginAs } from "./helpers";

interface LinkState {
  admin_state: string;
  admin_reason: string;
}

interface WorkOrderRow {
  id: number;
  state: string;
  action: string;
  component_name: string;
  footprint: number[];
  footprint_size: number;
  tickets: number[];
  kinds: string[];
}

/**
 * The worker opens the demo's tickets after the stack starts and groups them into work orders;
 * wait for an open one of the demo fabric matching `wanted`.
 */
async function openWorkOrder(
  request: APIRequestContext,
  what: string,
  wanted: (order: WorkOrderRow) => boolean,
): Promise<WorkOrderRow> {
  const fabricId = (await findFabric(request, DEMO_FABRIC)).id;
  let found: WorkOrderRow | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get("/api/work-orders/", {
          params: { fabric: fabricId, state: "open", limit: 100 },
        });
        expect(
          response.ok(),
          `GET /api/work-orders/ answered ${response.status()}`,
        ).toBeTruthy();
        found = (
          (await response.json()) as ApiListPage<WorkOrderRow>
        ).results.find(wanted);
        return found !== undefined;
      },
      {
        message: `an open work order: ${what}`,
        timeout: 90_000,
        intervals: [1_000, 2_000, 5_000],
      },
    )
    .toBe(true);
  return found!;
}

/** A breakout `part` (cable or transceiver) carrying four links: the demo's shared-component faults. */
function breakout(part: "cable" | "transceiver") {
  return (candidate: WorkOrderRow) =>
    candidate.component_name.startsWith(`breakout ${part}`) &&
    candidate.footprint_size === 4;
}

async function noSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(390);
}

/** Every cell of a row (a card on a phone) is shown in full inside the 390-px screen: no column cut off. */
async function wholeOnScreen(row: Locator) {
  for (const cell of await row.locator("th, td").all()) {
    await expect(cell).toBeVisible();
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(
      await cell.evaluate(
        (element) => element.scrollWidth <= element.clientWidth + 1,
      ),
    ).toBe(true);
  }
}

/** Start work on the order's page: the dry run's options (its verdict in data-verdict). */
async function startWork(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Start work" }).click();
  const options = page.getByTestId("start-options");
  await expect(options).toBeVisible();
  return options;
}

/** Finish the order in progress on its page with an outcome and notes; the answer's sentence. */
async function finishWork(
  page: Page,
  outcome: "Repaired" | "Not repaired",
  notes: string,
): Promise<Locator> {
  const finish = page.getByRole("form", { name: "Finish the work order" });
  await finish.getByRole("radio", { name: outcome, exact: true }).check();
  await finish.getByLabel(/Notes/).fill(notes);
  await finish.getByRole("button", { name: "Finish" }).click();
  const message = page.getByTestId("finish-message");
  await expect(message).toBeVisible();
  return message;
}

/** Another demo user takes over the phone (a technician hands it to an operator). */
async function switchUser(page: Page, username: string) {
  await page.context().clearCookies();
  await loginAs(page, username);
}

async function linkState(
  request: APIRequestContext,
  linkId: number,
): Promise<LinkState> {
  const response = await request.get(`/api/links/${linkId}/`);
  expect(
    response.ok(),
    `GET /api/links/${linkId}/ answered ${response.status()}`,
  ).toBeTruthy();
  return (await response.json()) as LinkState;
}

test.describe("work orders on a phone (390x844)", () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

  test("the breakout cable: where, what to bring, the siblings it takes down, and Start refused with the options", async ({
    page,
  }) => {
    await loginAs(page, "technician");
    const order = await openWorkOrder(
      page.request,
      "a breakout cable",
      breakout("cable"),
    );
    // "breakout cable p3-tor1 eth2/1-4": the ToR whose uplinks ride the cable.
    const tor = order.component_name.split(" ")[2]!;

    // The list: from the navigation (behind Menu on a phone), the order with its location, footprint and tickets.
    await page.goto("/fabrics");
    await page.getByRole("button", { name: "Menu" }).click();
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Work orders" })
      .click();
    await expect(page).toHaveURL(/\/work-orders$/);
    const row = page.locator(
      `[data-testid="work-order-row"][data-order-id="${order.id}"]`,
    );
    await expect(row).toContainText(order.component_name);
    await expect(row).toContainText("4 links");
    await expect(row.getByTestId("work-order-location")).toContainText(
      `(${tor})`,
    );
    await expect(row.getByTestId("work-order-state")).toHaveText("open");
    await wholeOnScreen(row);
    await noSidewaysScroll(page);
    await row
      .getByRole("link", { name: new RegExp(`^Work order ${order.id}:`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/work-orders/${order.id}$`));

    // Where to go, first: the ToR's rack, the switch and the cable's four ports.
    await expect(page.getByRole("heading", { level: 1 })).toContainText(
      `Work order #${order.id}`,
    );
    const location = page.getByTestId("visit-location");
    await expect(location.getByTestId("location-switch")).toHaveText(tor);
    await expect(location.getByTestId("location-rack")).not.toHaveText("—");
    await expect(location.getByTestId("location-ports")).toHaveText(
      "eth2/1, eth2/2, eth2/3, eth2/4",
    );
    const locationBox = await location.boundingBox();
    const bringBox = await page.getByTestId("bring-list").boundingBox();
    expect(locationBox!.y).toBeLessThan(bringBox!.y);

    // What to bring: each link's cable, transceivers and far-end rack.
    await expect(page.getByTestId("bring-link")).toHaveCount(4);
    await expect(page.getByTestId("bring-link").first()).toContainText("Cable");
    await expect(page.getByTestId("bring-link").first()).toContainText(
      "Transceiver here",
    );

    // Its tickets link to their pages; the footprint marks each sibling by its own health (the demo's corrupt too).
    for (const ticket of order.tickets) {
      await expect(
        page
          .getByTestId("order-tickets")
          .getByRole("link", { name: `Ticket #${ticket}` }),
      ).toBeVisible();
    }
    const footprint = page.getByTestId("footprint-link");
    await expect(footprint).toHaveCount(4);
    const siblings = page.locator(
      '[data-testid="footprint-link"][data-role="breakout_sibling"]',
    );
    await expect(siblings).toHaveCount(4 - order.tickets.length);
    await expect(siblings.first()).toContainText("breakout sibling");
    const detail = await page.request.get(`/api/work-orders/${order.id}/`);
    const { footprint_links } = (await detail.json()) as {
      footprint_links: { id: number; health: string }[];
    };
    const health = new Map(
      footprint_links.map((link) => [link.id, link.health]),
    );
    for (const sibling of await siblings.all()) {
      const linkHealth = health.get(
        Number(await sibling.getAttribute("data-link-id")),
      )!;
      const word = linkHealth === "clean" ? "healthy" : linkHealth;
      await expect(sibling.locator('td[data-label="Why"]')).toHaveText(
        `${word} breakout sibling`,
      );
    }
    for (const card of await footprint.all()) {
      await wholeOnScreen(card);
      await expect(card.locator('td[data-label="Taken down"]')).toHaveText(
        /^(yes|already out)$/,
      );
    }
    // The guard's sentence, without a "not now" of its own beside the start's options (trial item 11).
    await expect(page.getByTestId("work-order-verdict")).toContainText(
      "Starting first asks whether a capacity restoration makes it possible.",
    );
    await expect(page.getByTestId("work-order-verdict")).not.toContainText(
      "Not safe to start now",
    );
    await expect(page.getByTestId("work-order-verdict")).not.toContainText(
      "would keep",
    );
    await noSidewaysScroll(page);

    // Start asks the guard first: blocked, who is short and by how much, nothing to override for a technician.
    const options = await startWork(page);
    await expect(options).toHaveAttribute("data-verdict", "blocked");
    await expect(options.getByTestId("start-verdict")).toContainText("Blocked");
    await expect(
      options.getByTestId("start-footprint").getByRole("listitem"),
    ).toHaveCount(4);
    await expect(options.getByTestId("unreachable-tors")).toContainText(
      `${tor} keeps at most`,
    );
    await expect(options.getByTestId("unreachable-tors")).toContainText(
      "paths short",
    );
    await expect(options.getByTestId("no-override")).toContainText(
      "Only an admin",
    );
    await expect(
      options.getByRole("button", { name: /start work/i }),
    ).toHaveCount(0);
    await noSidewaysScroll(page);

    // Nothing was taken down: the siblings are still in service.
    await page.reload();
    await expect(page.getByTestId("work-order-state")).toHaveText("open");
    for (const sibling of await siblings.all())
      await expect(sibling).toContainText("enabled");
  });

  test("an admin overrides the blocked breakout with a reason; not repaired puts every link back", async ({
    page,
  }) => {
    await loginAs(page, "admin");
    const order = await openWorkOrder(
      page.request,
      "a breakout cable",
      breakout("cable"),
    );
    await page.goto(`/work-orders/${order.id}`);
    const siblings = page.locator(
      '[data-testid="footprint-link"][data-role="breakout_sibling"]',
    );
    await expect(siblings).toHaveCount(4 - order.tickets.length);

    const options = await startWork(page);
    await expect(options).toHaveAttribute("data-verdict", "blocked");
    const override = options.getByRole("form", {
      name: "Override with a reason",
    });
    await override
      .getByRole("button", { name: "Override and start work" })
      .click();
    await expect(override.getByRole("alert")).toContainText(
      "An override needs a reason",
    );
    await override
      .getByLabel(/Override with a reason/)
      .fill("rack drained of its servers for the repair");
    await override
      .getByRole("button", { name: "Override and start work" })
      .click();

    await expect(page.getByTestId("work-order-state")).toHaveText(
      "in progress",
    );
    await expect(page.getByTestId("started-note")).toContainText("by admin");
    for (const sibling of await siblings.all())
      await expect(sibling).toContainText("disabled");
    await noSidewaysScroll(page);

    const finish = page.getByRole("form", { name: "Finish the work order" });
    // Each radio sits beside its label, centred on its line, not above it (trial item 13).
    for (const name of ["Repaired", "Not repaired"]) {
      const radio = (await finish
        .getByRole("radio", { name, exact: true })
        .boundingBox())!;
      const label = (await finish
        .locator("label.check", { hasText: new RegExp(`^${name}$`) })
        .boundingBox())!;
      expect(
        Math.abs(radio.y + radio.height / 2 - (label.y + label.height / 2)),
      ).toBeLessThanOrEqual(3);
    }
    await finishWork(page, "Not repaired", "no spare breakout cable on site");
    await expect(page.getByTestId("work-order-state")).toHaveText("open");
    await expect(
      page.getByRole("button", { name: "Start work" }),
    ).toBeVisible();
    for (const sibling of await siblings.all())
      await expect(sibling).toContainText("enabled");
  });

  test("a breakout transceiver that needs a restoration: the technician asks, an operator approves, repaired disables the restored link again", async ({
    page,
  }) => {
    await loginAs(page, "technician");
    const order = await openWorkOrder(
      page.request,
      "a breakout transceiver",
      breakout("transceiver"),
    );
    await page.goto(`/work-orders/${order.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(
      `Work order #${order.id}`,
    );

    // The technician: the restoration (the lossy link to enable, its added penalty) and that an operator approves it.
    let options = await startWork(page);
    await expect(options).toHaveAttribute("data-verdict", "needs_restoration");
    await expect(options.getByTestId("start-verdict")).toHaveText(
      "Not safe as it stands: it needs a capacity restoration",
    );
    await expect(options.getByTestId("start-detail")).toContainText(
      "re-enabling 1 lossy link",
    );
    await expect(
      options.getByTestId("start-footprint").getByRole("listitem"),
    ).toHaveCount(4);
    const restoration = options.getByTestId("restoration-link");
    await expect(restoration).toHaveCount(1);
    const restoredLink = restoration.getByRole("link");
    const restoredName = (await restoredLink.textContent())!.trim();
    const restoredId = Number(
      (await restoredLink.getAttribute("href"))!.split("/").pop(),
    );
    expect(restoredName).toMatch(/^p1-fab0:eth2\/\d - pl0-spine\d:eth1\/\d$/);
    await expect(options.getByTestId("restoration-penalty")).toContainText(
      /Added penalty: \S+ \(the least possible\)/,
    );
    await expect(options.getByTestId("ask-operator")).toContainText(
      "an operator must approve re-enabling lossy links",
    );
    await expect(
      options.getByRole("button", {
        name: "Restore these links for the repair",
      }),
    ).toHaveCount(0);
    expect(await linkState(page.request, restoredId)).toMatchObject({
      admin_state: "disabled",
      admin_reason: "corruption",
    });
    await noSidewaysScroll(page);
    await restoration.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: test.info().outputPath("needs-restoration-technician.png"),
    });

    // An operator approves the restoration, which starts the work: the footprint out, the lossy link in.
    await switchUser(page, "operator");
    await page.goto(`/work-orders/${order.id}`);
    options = await startWork(page);
    await expect(options).toHaveAttribute("data-verdict", "needs_restoration");
    await expect(options.getByTestId("restoration-link")).toHaveText(
      new RegExp(restoredName),
    );
    await expect(options.getByTestId("ask-operator")).toHaveCount(0);
    await options
      .getByRole("button", { name: "Restore these links for the repair" })
      .click();
    await expect(page.getByTestId("work-order-state")).toHaveText(
      "in progress",
    );
    await expect(page.getByTestId("started-note")).toContainText("by operator");
    await expect(page.getByTestId("started-note")).toContainText(
      "1 link is restored for the repair",
    );
    await expect(page.getByTestId("restored-links")).toContainText(
      restoredName,
    );
    for (const card of await page.getByTestId("footprint-link").all())
      await expect(card).toContainText("disabled");
    expect(await linkState(page.request, restoredId)).toMatchObject({
      admin_state: "enabled",
      admin_reason: `restoration: work order ${order.id}`,
    });
    await noSidewaysScroll(page);

    // The technician reseats it and finishes as repaired: the restored link is disabled again for corruption.
    await switchUser(page, "technician");
    await page.goto(`/work-orders/${order.id}`);
    const message = await finishWork(
      page,
      "Repaired",
      "reseated the breakout transceiver, latched",
    );
    await expect(message).toContainText(
      `disabled again for corruption: ${restoredName}`,
    );
    await expect(page.getByTestId("work-order-state")).toHaveText("done");
    await expect(page.getByTestId("restored-links")).toHaveCount(0);
    await page.goto(`/links/${restoredId}`);
    await expect(page.getByTestId("link-admin-state")).toContainText(
      "disabled",
    );
    await expect(page.getByTestId("link-admin-state")).toContainText(
      "corruption",
    );
    expect(await linkState(page.request, restoredId)).toMatchObject({
      admin_state: "disabled",
      admin_reason: "corruption",
    });
    await noSidewaysScroll(page);
  });

  test("a safe order: started after its dry run, then finished as repaired; its ticket follows", async ({
    page,
  }) => {
    await loginAs(page, "technician");
    // A repair: its link is already out for corruption, so taking it for the visit costs nothing. A
    // preventive order (forecast-pages.spec opens one) takes a link in service and may be blocked.
    const order = await openWorkOrder(
      page.request,
      "a one-link repair",
      (candidate) =>
        candidate.footprint_size === 1 &&
        candidate.tickets.length === 1 &&
        candidate.kinds.length === 1 &&
        candidate.kinds[0] === "repair",
    );
    const ticket = order.tickets[0]!;

    // The ticket's page leads to its work order.
    await page.goto(`/tickets/${ticket}`);
    await page.getByTestId("ticket-work-order").getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/work-orders/${order.id}$`));

    const options = await startWork(page);
    await expect(options).toHaveAttribute("data-verdict", "safe");
    await expect(options.getByTestId("start-detail")).toContainText(
      `work order ${order.id}`,
    );
    await options.getByRole("button", { name: "Confirm: start work" }).click();

    await expect(page.getByTestId("work-order-state")).toHaveText(
      "in progress",
    );
    await expect(page.getByTestId("started-note")).toContainText(
      "by technician",
    );
    await expect(page.getByTestId("order-tickets")).toContainText(
      "in progress",
    );
    await noSidewaysScroll(page);

    await finishWork(page, "Repaired", "cleaned both ends, scope clean");
    await expect(page.getByTestId("work-order-state")).toHaveText("done");
    await expect(page.getByTestId("ended-note")).toContainText("Finished");
    await expect(page.getByTestId("ended-note")).toContainText("repaired");

    // The ticket went on to validation with the action recorded.
    await page
      .getByTestId("order-tickets")
      .getByRole("link", { name: `Ticket #${ticket}` })
      .click();
    await expect(
      page.getByTestId("ticket-facts").getByTestId("ticket-state"),
    ).toHaveText("awaiting validation");
    await expect(page.getByTestId("ticket-link-admin-state")).toContainText(
      "enabled",
    );
    await noSidewaysScroll(page);
  });
});
