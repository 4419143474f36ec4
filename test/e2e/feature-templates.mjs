// Issue 18 in the browser: an alert of a bank the journal does not know is quarantined; resolving
// it by hand with "Read future emails like this one" ticked teaches the journal that bank; the
// next alert of that bank, uploaded, is added as a transaction and the Rules page lists the bank.
// Issues 25 and 27: the resolve form is prefilled from what the email says; a span marked "changes
// from alert to alert" (the card's name) lets the next alert, with another card, become a
// transaction. (The resolve form at 390 px is walked in feature-alerts.mjs, with a real alert the
// relevance check let go.)
// Runs on the seeded demo server (today 2026-11-21).
import { assert, hasText, until, signedIn } from "./helpers.mjs";

/** A made-up bank's alert, in its own wording. */
function mapleAlert({ amount, merchant, day, id, card = "Visa Infinite" }) {
  return [
    "From: Maple Credit Union <alerts@notify.maplecu.example>",
    "To: demo@finance-journal.example",
    "X-Forwarded-To: demo@finance-journal.example",
    `Subject: Card purchase alert: $${amount}`,
    `Date: ${day} Nov 2026 16:00:00 -0800`,
    `Message-ID: <${id}@maplecu.example>`,
    'Content-Type: text/plain; charset="utf-8"',
    "",
    "Hello Sam,",
    "",
    "Your Maple Visa ending 4821 was used.",
    `You spent $${amount} with your Maple ${card} card at ${merchant} on Nov ${day}, 2026 at 3:45 PM.`,
    "Available credit: $2,310.55",
    "",
  ].join("\r\n");
}

async function upload(t, raw, name) {
  const input = t.page.getByTestId("eml-input");
  await input.setInputFiles({ name, mimeType: "message/rfc822", buffer: Buffer.from(raw) });
}

export const steps = [
  {
    name: "an unknown bank's alert is quarantined, resolved from a prefilled form with the card's name marked as changing, and learned",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      await page.goto(`${t.base}/upload`);
      await upload(
        t,
        mapleAlert({ amount: "42.10", merchant: "MAPLE LEAF DINER", day: "20", id: "tpl-1" }),
        "maple-1.eml",
      );
      await hasText(page.getByTestId("upload-outcome"), "Quarantined");
      await page.goto(`${t.base}/review?month=2026-11`);
      const item = page.getByTestId("parse-failures").locator("li.failure", { hasText: "maplecu.example" });
      await item.waitFor();
      await item.getByRole("button", { name: "Resolve…" }).click();
      await item.locator(".email-body").waitFor();
      // Prefilled from what the email plainly says.
      await until(async () => (await item.getByLabel("Amount").inputValue()) === "42.10", "amount prefilled");
      assert.equal(await item.getByLabel("Date").inputValue(), "2026-11-20");
      assert.equal(await item.getByLabel("Time").inputValue(), "15:45");
      assert.equal(await item.getByLabel("Merchant").inputValue(), "MAPLE LEAF DINER");
      await item.getByLabel("Institution").fill("Maple CU");
      // Mark the card's name as changing from alert to alert: select it in the email, then mark it.
      await item.locator(".email-body").evaluate((pre) => {
        const node = pre.firstChild;
        const at = node.textContent.indexOf("Visa Infinite");
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + "Visa Infinite".length);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        pre.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
      });
      await item.getByRole("button", { name: "Mark “Visa Infinite” as changing" }).click();
      await hasText(item.getByRole("list", { name: "Changes from alert to alert" }), "Visa Infinite");
      await t.shot("templates-resolve");
      // Issue 34: a mistyped amount (4210 for $42.10) is warned about BEFORE anything is saved,
      // with the email's amount offered; the Type select speaks words.
      assert.ok(
        (await item.getByLabel("Type").locator("option").allTextContents()).includes("Pre-authorization"),
        "the type options are in words",
      );
      await item.getByLabel("Amount").fill("4210");
      await item.getByRole("button", { name: "Save transaction" }).click();
      const warned = item.getByTestId("resolve-unseen");
      await hasText(warned, "The email does not show $4,210.00: it says $42.10");
      await t.shot("templates-resolve-warning");
      const pending = await (
        await fetch(`${t.base}/api/v1/parse-failures?status=quarantined`, {
          headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
        })
      ).json();
      assert.ok(
        pending.failures.some((f) => f.from_email?.includes("maplecu.example")),
        "nothing was saved: the email is still in Needs review",
      );
      await warned.getByRole("button", { name: "Use $42.10" }).click();
      assert.equal(await item.getByLabel("Amount").inputValue(), "42.10");
      await item.getByRole("button", { name: "Save transaction" }).click();
      await page.getByText('Future emails like this one will be read as "Maple CU purchase"').waitFor();
      await page.getByText("Resolved: MAPLE LEAF DINER $42.10 was added").first().waitFor();
      await t.shot("templates-learned");
    },
  },
  {
    name: "the next alert of that bank, with another card, is added as a transaction; Rules lists the bank",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/upload`);
      await upload(
        t,
        mapleAlert({
          amount: "7.25",
          merchant: "CORNER BAKERY",
          day: "21",
          id: "tpl-2",
          card: "World Elite",
        }),
        "maple-2.eml",
      );
      const outcome = page.getByTestId("upload-outcome");
      await hasText(outcome, "Added to your journal");
      await hasText(outcome, "CORNER BAKERY");
      await hasText(outcome, "$7.25");
      await t.shot("templates-upload");
      await page.goto(`${t.base}/?month=2026-11`);
      await page.locator('[data-testid=tx-row][data-company="CORNER BAKERY"]').waitFor();
      await page.goto(`${t.base}/rules`);
      const card = page.getByTestId("rules-templates");
      await hasText(card, "Maple CU purchase");
      await hasText(card, "read 1 email(s)");
      await until(
        async () => !((await card.textContent()) ?? "").includes("MAPLE LEAF DINER"),
        "example masked",
      );
      await card.scrollIntoViewIfNeeded();
      await t.shot("templates-rules");
    },
  },
];
