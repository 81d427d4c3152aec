import { expect, type Page, test } from "@playwright/test";

import { loginAs } from "./helpers";

// The browser says the system is dark: the UI follows it until the header's toggle chooses.
test.use({ colorScheme: "dark" });

/** The page background's lightness, 0 (black) to 255 (white). */
async function pageLightness(page: Page): Promise<number> {
  const color = await page.evaluate(
    () => getComputedStyle(document.documentElement).backgroundColor,
  );
  const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

test("a dark system gets the dark theme; the header toggle switches it, and the choice is remembered", async ({
  page,
}) => {
  await loginAs(page, "viewer");
  await page.goto("/fabric-health");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const toggle = page.getByRole("button", { name: "Dark theme" });
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  expect(await pageLightness(page)).toBeLessThan(60);
  // Text stays readable: the ink is light on the dark page.
  const ink = await page.evaluate(
    () => getComputedStyle(document.querySelector("h1") as Element).color,
  );
  expect(Number(ink.match(/\d+/)?.[0])).toBeGreaterThan(180);

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  expect(await pageLightness(page)).toBeGreaterThan(200);

  await page.reload();
  await expect(
    page.getByRole("button", { name: "Dark theme" }),
  ).toHaveAttribute("aria-pressed", "false");
  expect(await pageLightness(page)).toBeGreaterThan(200);

  await page.getByRole("button", { name: "Dark theme" }).click();
  expect(await pageLightness(page)).toBeLessThan(60);
});

/** WCAG contrast of an element's text on its own background (both opaque here). */
async function badgeContrast(page: Page, selector: string): Promise<number> {
  return page.locator(selector).first().evaluate((element) => {
    const style = getComputedStyle(element);
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/\d+/g) ?? []).slice(0, 3).map((part) => {
        const channel = Number(part) / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  });
}

test("in the dark theme the tickets' state badges stay readable", async ({ page }) => {
  await loginAs(page, "viewer");
  await page.goto("/tickets");
  const badge = '[data-testid="ticket-row"] .badge[class*="badge-ticket-"]';
  await expect(page.locator(badge).first()).toBeVisible({ timeout: 90_000 });
  // Trial 29: the base badge's grey (dark slate here) covered each state's own colours, 1.4:1.
  expect(await badgeContrast(page, badge)).toBeGreaterThanOrEqual(4.5);
});
