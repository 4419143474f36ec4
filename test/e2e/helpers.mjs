// Small helpers for the browser walk (no test framework: scripts/e2e.mjs runs the steps).
import assert from "node:assert/strict";

export { assert };

/** Polls `fn` until it returns a truthy value (or stops throwing); fails with `what` after `ms`. */
export async function until(fn, what, ms = 8000) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = new Error(`still false: ${what}`);
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${last?.message ?? last}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the locator's text contains `text`. */
export async function hasText(locator, text, ms) {
  return until(async () => ((await locator.textContent()) ?? "").includes(text), `text "${text}"`, ms);
}

/** A raw CIBC alert like the ones the bank sends, for the upload test. */
export function cibcAlert({ amount = "12.34", merchant = "E2E TEST CAFE", id = "e2e-upload-1" } = {}) {
  return [
    "From: CIBC Alerts <alerts@cibc.com>",
    "To: demo@finance-journal.example",
    "X-Forwarded-To: demo@finance-journal.example",
    "Subject: Transaction Alert",
    "Date: Sat, 21 Nov 2026 10:15:00 -0800",
    `Message-ID: <${id}@e2e.test>`,
    'Content-Type: text/plain; charset="utf-8"',
    "",
    "Dear Carlos,",
    `You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $${amount} at ${merchant}.`,
    "",
  ].join("\r\n");
}

/** The password the main walk sets before the feature suites run. */
export const PASSWORD = "correct horse battery";

/** Signs the suite's browser context in through the API when the journal asks for it (401). */
export async function signedIn(t) {
  const probe = await t.page.request.get(`${t.base}/api/v1/config`);
  if (probe.status() !== 401) return;
  const res = await t.page.request.post(`${t.base}/api/v1/auth/login`, {
    data: { password: PASSWORD },
    headers: { origin: t.base },
  });
  assert.equal(res.status(), 200, "sign in with the walk's password");
}

/** PUT /api/v1/config from the journal's own origin; fails the step on anything but 200. */
export async function putConfig(t, body) {
  const res = await t.page.request.put(`${t.base}/api/v1/config`, {
    data: body,
    headers: { origin: t.base },
  });
  assert.equal(res.status(), 200, `PUT config: ${res.status()}`);
}
