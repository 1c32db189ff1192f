// Cancel from the demo's button (e2e/demo.spec.ts, e2e/product.spec.ts).
import { expect, Page } from '@playwright/test';

// Starts a proof in the demo and clicks Cancel once one of its stages runs. A proof that ends
// before the click lands is no failure of cancel (a loaded machine can delay the click past a
// short proof's last stage; the button is disabled by then, and a click on it is given up after
// a few seconds instead of waiting for the test's end): tried again, three times at most.
// -> the last proof's status ('cancelled' or 'ok') and the ms from its click to that status.
export async function proveAndCancel(page: Page): Promise<{ status: string; stopMs: number }> {
  let status = '';
  let stopMs = 0;
  for (let attempt = 0; attempt < 3 && status !== 'cancelled'; ++attempt) {
    await page.click('#prove');
    await page.locator('#stages tr[data-state="running"], #prove-status:not([data-status="busy"])').first()
      .waitFor({ timeout: 60_000 });
    const t0 = Date.now();
    await page.click('#cancel', { timeout: 5_000 }).catch(() => undefined);
    await expect(page.locator('#prove-status')).toHaveAttribute('data-status', /^(cancelled|ok)$/, { timeout: 30_000 });
    stopMs = Date.now() - t0;
    status = (await page.locator('#prove-status').getAttribute('data-status'))!;
  }
  return { status, stopMs };
}
