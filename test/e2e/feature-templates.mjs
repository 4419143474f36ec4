// Issue 18 in the browser: an alert of a bank the journal does not know is quarantined; resolving
// it by hand with "Read future emails like this one" ticked teaches the journal that bank; the
// next alert of that bank, uploaded, is added as a transaction and the Rules page lists the bank.
// Issues 25 and 27: the resolve form is prefilled from what the email says; a span marked "changes
// from alert to alert" (the card's name) lets the next alert, with another card, become a
// transaction. (The resolve form at 390 px is walked in feature-alerts.mjs, with a real alert the
// relevance check let go.)
// Issue 37: with alert reading routed to a model (the runner's bridge: cli_b's stand-in tool) and
// "Read unknown alerts with AI" on, Needs review offers the model's reading of an unknown bank's
// alert as a template; Confirm saves it and teaches the bank (desktop and 390 px).
// Runs on the seeded demo server (today 2026-11-21).
import { assert, hasText, until, signedIn, putConfig } from "./helpers.mjs";

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

/** Another made-up bank, read by the model: amount with its code, merchant after "at", ISO date. */
function birchAlert({ amount, merchant, day, id }) {
  return [
    "From: Birch Bank <alerts@birchbank.example>",
    "To: demo@finance-journal.example",
    "X-Forwarded-To: demo@finance-journal.example",
    "Subject: Debit card purchase",
    `Date: ${day} Nov 2026 18:00:00 -0800`,
    `Message-ID: <${id}@birchbank.example>`,
    'Content-Type: text/plain; charset="utf-8"',
    "",
    "Your Birch debit card was used for a purchase.",
    `Card payment of ${amount} CAD at ${merchant} on 2026-11-${day}.`,
    "This is an automated transaction alert.",
    "",
  ].join("\r\n");
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

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
  {
    name: "the model's reading of an unknown bank's alert is offered in Needs review; Confirm saves it and teaches the bank (1280 and 390 px)",
    async run(t) {
      const { page } = t;
      const was = await (await page.request.get(`${t.base}/api/v1/config`)).json();
      await putConfig(t, {
        categorization_provider: "cli_b",
        ai_categorization_enabled: false,
        ai_extraction_enabled: true,
      });
      try {
        await page.goto(`${t.base}/upload`);
        await upload(
          t,
          birchAlert({ amount: "18.40", merchant: "Birch Street Books", day: "19", id: "tpl-ai-1" }),
          "birch-1.eml",
        );
        await hasText(page.getByTestId("upload-outcome"), "Quarantined");
        await page.goto(`${t.base}/review?month=2026-11`);
        const item = page
          .getByTestId("parse-failures")
          .locator("li.failure", { hasText: "birchbank.example" });
        await item.waitFor();
        await item.getByRole("button", { name: "Resolve…" }).click();
        const offer = item.getByTestId("template-proposal");
        await hasText(offer, "Read by the model", 60_000);
        await hasText(offer, "Birch Street Books");
        await hasText(offer, "18.40 CAD");
        await hasText(offer, "2026-11-19");
        await hasText(offer, "teaches");
        await t.shot("templates-proposal");
        await page.setViewportSize({ width: 390, height: 844 });
        try {
          await offer.scrollIntoViewIfNeeded();
          assert.ok((await overflow(page)) <= 0, "Needs review with the proposal scrolls sideways at 390 px");
          const confirm = await offer.getByRole("button", { name: "Confirm" }).boundingBox();
          assert.ok(confirm && confirm.x >= 0 && confirm.x + confirm.width <= 390, "Confirm fits the phone");
          await page.screenshot({ path: `${t.shotsDir}/templates-proposal-390-scrolled.png` });
          // Nothing is saved before Confirm: the email still waits in Needs review.
          const pending = await (
            await page.request.get(`${t.base}/api/v1/parse-failures?status=quarantined`)
          ).json();
          assert.ok(
            pending.failures.some((f) => f.from_email?.includes("birchbank.example")),
            "still pending",
          );
          await offer.getByRole("button", { name: "Confirm" }).click();
          await page.getByText("Confirmed: Birch Street Books 18.40 CAD was added").first().waitFor();
          await page.getByText("Future emails like this one will be read as").first().waitFor();
        } finally {
          await page.setViewportSize({ width: 1280, height: 900 });
        }
        // The bank's next alert is read by the template the confirmation taught.
        await page.goto(`${t.base}/upload`);
        await upload(
          t,
          birchAlert({ amount: "6.75", merchant: "Elm Cafe", day: "21", id: "tpl-ai-2" }),
          "birch-2.eml",
        );
        const outcome = page.getByTestId("upload-outcome");
        await hasText(outcome, "Added to your journal");
        await hasText(outcome, "Elm Cafe");
      } finally {
        await putConfig(t, {
          categorization_provider: was.categorization_provider,
          ai_categorization_enabled: was.ai_categorization_enabled,
          ai_extraction_enabled: was.ai_extraction_enabled,
        });
      }
    },
  },
];
