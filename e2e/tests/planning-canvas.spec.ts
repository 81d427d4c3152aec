import { expect, type Page, test } from '@playwright/test';

import { importFabric, loginAs, pushTelemetry, SR4_MODEL, type TelemetrySample } from './helpers';

// A leaf-spine fabric of 100 ToRs × 32 spines: 3,200 links, above the 3,000 where drawings switch to canvas.
const TORS = 100;
const SPINES = 32;
const MINUTE_MS = 60_000;
// The legend's colours (CLASS_LINK_STYLE), as RGB.
const COLOURS = {
  other: [0xc3, 0xc9, 0xd1],
  member: [0x1f, 0x6f, 0xb4],
  repair: [0x7a, 0x1f, 0x16],
  worst: [0xd9, 0x34, 0x2b],
} as const;
type Role = keyof typeof COLOURS;

function leafSpineDocument(name: string): Record<string, unknown> {
  const switches = [
    ...Array.from({ length: TORS }, (_, tor) => ({
      name: `cv-tor${tor}`,
      tier: 0,
      pod: 0,
      plane: null,
    })),
    ...Array.from({ length: SPINES }, (_, spine) => ({
      name: `cv-spine${spine}`,
      tier: 1,
      pod: 0,
      plane: spine,
    })),
  ];
  const links = [];
  for (let tor = 0; tor < TORS; tor++)
    for (let spine = 0; spine < SPINES; spine++)
      links.push({
        a: `cv-tor${tor}`,
        a_port: `eth1/${spine + 1}`,
        b: `cv-spine${spine}`,
        b_port: `eth1/${tor + 1}`,
        length_m: 30,
        speed_gbps: 100,
        fiber: 'MMF',
        transceiver_model: '100G-SR4',
      });
  return {
    format: 'lightpath-fabric/1',
    name,
    description: 'A 3,200-link leaf-spine fabric for the reliability-class canvas drawing.',
    tiers: ['tor', 'spine'],
    // Every uplink must stay: CorrOpt then disables none of the lossy links the classes should see.
    capacity_constraint: 1,
    switches,
    links,
    transceiver_models: [SR4_MODEL],
  };
}

/**
 * Counters over two 15-minute windows in the last hour: every uplink of cv-tor0 loses 5e-4 upward
 * (out of class 1, inside classes 2 and 3) and cv-tor1's uplink to cv-spine1 loses 20 % (repair).
 */
function lossyCounters(): TelemetrySample[] {
  const lossy: { tor: number; spine: number; fcsPerMillion: number }[] = [
    ...Array.from({ length: SPINES }, (_, spine) => ({
      tor: 0,
      spine,
      fcsPerMillion: 500,
    })),
    { tor: 1, spine: 1, fcsPerMillion: 250_000 },
  ];
  const start = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - 45 * MINUTE_MS;
  const samples: TelemetrySample[] = [];
  for (let poll = 0; poll < 3; poll++) {
    const time = new Date(start + poll * 15 * MINUTE_MS).toISOString();
    const packets = (poll + 1) * 1_000_000;
    for (const { tor, spine, fcsPerMillion } of lossy) {
      // The spine receives the upward direction (A = the ToR, the lower tier).
      samples.push({
        time,
        switch: `cv-spine${spine}`,
        port: `eth1/${tor + 1}`,
        in_pkts: packets,
        in_fcs_errors: (poll + 1) * fcsPerMillion,
        out_pkts: packets,
        out_discards: 0,
      });
      samples.push({
        time,
        switch: `cv-tor${tor}`,
        port: `eth1/${spine + 1}`,
        in_pkts: packets,
        in_fcs_errors: 0,
        out_pkts: packets,
        out_discards: 0,
      });
    }
  }
  return samples;
}

interface Painted {
  counts: Record<Role, number>;
  /** Pixel indices painted in the worst path's colour. */
  worst: number[];
}

/** Reads the canvas back and counts the pixels whose colour is (close to) each role's legend colour. */
async function paintedColours(page: Page): Promise<Painted> {
  return page.getByTestId('class-drawing-canvas').evaluate((element, colours) => {
    const canvas = element as HTMLCanvasElement;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const counts = { other: 0, member: 0, repair: 0, worst: 0 };
    const worst: number[] = [];
    for (let index = 0; index < data.length; index += 4) {
      // Faint antialiased edges have too little alpha to carry their colour exactly.
      if (data[index + 3]! < 48) continue;
      for (const [role, [red, green, blue]] of Object.entries(colours) as [keyof typeof counts, readonly number[]][]) {
        const close =
          Math.abs(data[index]! - red!) <= 12 &&
          Math.abs(data[index + 1]! - green!) <= 12 &&
          Math.abs(data[index + 2]! - blue!) <= 12;
        if (!close) continue;
        counts[role] += 1;
        if (role === 'worst') worst.push(index / 4);
      }
    }
    return { counts, worst };
  }, COLOURS);
}

async function legendCount(page: Page, label: string): Promise<number> {
  const item = page
    .getByRole('list', { name: 'Class drawing legend' })
    .getByRole('listitem')
    .filter({ hasText: new RegExp(`^${label}`) });
  return Number((await item.locator('.legend-count').textContent())!.replace(/,/g, ''));
}

interface ClassesJob {
  state: string;
  result: {
    classes: {
      class: number;
      links: number[];
      worst: { hops: { link: number }[] } | null;
    }[];
    repair: unknown[];
  };
}

test('an operator sees a reliability class of a 3,200-link fabric painted on canvas, and another class repaints it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await loginAs(page, 'operator');
  const fabricName = `e2e-class-canvas-${Date.now()}`;
  const fabric = await importFabric(page, leafSpineDocument(fabricName));
  expect(fabric.link_count).toBe(TORS * SPINES);

  const result = (await pushTelemetry(page, fabricName, lossyCounters())) as {
    derivation: string;
  };
  expect(result.derivation).toBe('queued');
  // The worker derives the rates right after the push: wait for the 33 lossy links to be corrupting.
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/api/links/', {
          params: { fabric: fabric.id, health: 'corrupting', limit: 1 },
        });
        return ((await response.json()) as { count: number }).count;
      },
      { timeout: 30_000 },
    )
    .toBe(SPINES + 1);

  await page.goto('/planning/classes');
  const form = page.getByRole('form', { name: 'New reliability classes' });
  await form.getByLabel('Fabric').selectOption({ label: fabricName });
  await form.getByLabel('Class bounds (worst path loss)').fill('4.8e-8, 1e-3, 0.1');
  await form.getByRole('button', { name: 'Build classes' }).click();
  await expect(page).toHaveURL(/\/planning\/classes\/\d+$/);
  await expect(page.getByTestId('classes-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  const jobId = page.url().split('/').at(-1)!;
  const job = (await (await page.request.get(`/api/jobs/${jobId}/`)).json()) as ClassesJob;
  const [tightest, , loosest] = job.result.classes;

  // The loosest class is shown first, drawn on a canvas: no SVG line per link.
  await expect(page.getByRole('heading', { level: 2, name: /^Class 3: / })).toBeVisible();
  const drawing = page.getByTestId('class-drawing');
  await expect(drawing).toHaveAttribute('data-renderer', 'canvas');
  await expect(drawing.getByTestId('class-drawing-canvas')).toBeVisible();
  await expect(drawing.getByTestId('class-drawing-svg')).toHaveCount(0);
  await expect(
    drawing.getByRole('img', {
      name: /^Class 3 .* of 3,200 links in the class/,
    }),
  ).toBeVisible();

  // The legend counts the job's result: the class's links (worst path included), the link to repair.
  const worstHops = loosest!.worst!.hops.length;
  expect(await legendCount(page, 'Worst path')).toBe(worstHops);
  expect(await legendCount(page, 'In the class')).toBe(loosest!.links.length - worstHops);
  expect(await legendCount(page, 'Marked for repair')).toBe(job.result.repair.length);
  expect(await legendCount(page, 'Not in the class')).toBe(0);

  // The canvas painted the class, the link to repair and the worst path in their legend colours.
  const loose = await paintedColours(page);
  expect(loose.counts.member).toBeGreaterThan(1000);
  expect(loose.counts.repair).toBeGreaterThan(10);
  expect(loose.counts.worst).toBeGreaterThan(50);

  // Class 1 leaves out cv-tor0's 32 lossy uplinks: they turn grey and the worst path moves.
  await page.getByRole('form', { name: 'Class shown' }).getByLabel('Class shown').selectOption({ value: '1' });
  await expect(page.getByRole('heading', { level: 2, name: /^Class 1: / })).toBeVisible();
  expect(await legendCount(page, 'Not in the class')).toBe(SPINES);
  expect(await legendCount(page, 'Worst path')).toBe(tightest!.worst!.hops.length);
  await expect
    .poll(async () => (await paintedColours(page)).counts.other, {
      timeout: 5_000,
    })
    .toBeGreaterThan(10);
  const tight = await paintedColours(page);
  expect(tight.counts.member).toBeGreaterThan(1000);
  expect(tight.counts.worst).toBeGreaterThan(50);
  // Grey appears only now: in class 3 every link was in the class or marked for repair.
  expect(loose.counts.other).toBeLessThan(tight.counts.other);
  const looseWorst = new Set(loose.worst);
  const moved = tight.worst.filter((pixel) => !looseWorst.has(pixel)).length;
  expect(moved, 'pixels of the worst path that were not red before').toBeGreaterThan(50);
});
