// Statements in the browser: upload a real statement PDF, review the rows (one edit, one bulk
// edit), import, see the outcome and the status, reparse, download, and delete. Runs on the seeded
// demo server; screenshots at desktop width and 390 px.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { assert, hasText, until, signedIn } from "./helpers.mjs";

// Tidings' RBC statement (../shared/reference/tidings, never committed here): the steps marked
// `referencePdf` are skipped, saying so in one line, where the folder is absent.
const pdf = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "shared",
  "reference",
  "tidings",
  "test_data",
  "rbc",
  "Rbc_Chequing_2025-02-24_to_2025-03-24.pdf",
);
const hasPdf = existsSync(pdf);
if (!hasPdf)
  console.log(
    "  - statements: the PDF review steps are skipped: ../shared/reference/tidings is absent on this machine",
  );
const csv = join(import.meta.dirname, "..", "fixtures", "statements", "own-card-export.csv");
// Field codes no header word list knows: the upload is refused in words and kept for the mapping form.
const refusedCsv = join(
  import.meta.dirname,
  "..",
  "fixtures",
  "statements",
  "made",
  "erp-codes-refused-header-rescued.csv",
);

// One OFX holding a chequing account and a card: two statements, both listed in each review.
const twoAccounts = join(
  import.meta.dirname,
  "..",
  "fixtures",
  "statements",
  "made",
  "ofx-two-accounts-utf8-declared-8859-1.ofx",
);

async function json(t, path) {
  const res = await t.page.request.get(`${t.base}${path}`);
  assert.equal(res.status(), 200, `${path}: ${res.status()}`);
  return res.json();
}

export const steps = [
  {
    name: "the Statements page is in the nav and offers an upload",
    async run(t) {
      const { page } = t;
      await signedIn(t);
      await page.goto(`${t.base}/`);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Statements" }).click();
      await page.getByRole("heading", { name: "Statements" }).waitFor();
      await page.getByTestId("statement-dropzone").waitFor();
      await t.shot("statements-empty");
    },
  },
  {
    name: "upload a statement PDF: every row is shown, sorted into tiers, with the capture rate",
    referencePdf: true,
    async run(t) {
      const { page } = t;
      await page.getByTestId("statement-input").setInputFiles(pdf);
      await page.getByTestId("statement-rows").waitFor({ timeout: 25_000 });
      const rows = page.locator("[data-testid=statement-rows] tbody tr");
      await until(async () => (await rows.count()) === 11, "11 statement rows");
      await hasText(page.getByTestId("capture"), "Alerts caught");
      await hasText(page.getByTestId("statement-status"), "Pending review");
      t.state.id = new URL(page.url()).searchParams.get("id");
      assert.ok(t.state.id?.startsWith("stmt_"), `statement id in the URL: ${page.url()}`);
      await t.shot("statement-review");
    },
  },
  {
    name: "edit one row and skip two in bulk: the statement is in progress",
    referencePdf: true,
    async run(t) {
      const { page } = t;
      await page.getByLabel("Action for row 2").selectOption("skip");
      await until(
        async () => (await json(t, `/api/v1/statements/${t.state.id}`)).transactions[1].action === "skip",
        "row 2 saved as skip",
      );
      await page.getByLabel("Select row 5").check();
      await page.getByLabel("Select row 9").check();
      await page.getByTestId("bulk-bar").waitFor();
      await page.getByLabel("Action for the selected rows").selectOption("skip");
      await page.getByTestId("bulk-bar").getByRole("button", { name: "Apply" }).click();
      await hasText(page.getByTestId("statement-status"), "In progress");
      const d = await json(t, `/api/v1/statements/${t.state.id}`);
      assert.deepEqual([d.transactions[4].action, d.transactions[8].action], ["skip", "skip"]);
      await t.shot("statement-edited");
    },
  },
  {
    name: "import: the outcome, a complete statement, the rows in the journal",
    referencePdf: true,
    async run(t) {
      const { page } = t;
      // What the review says will be imported: the rows left to import after the person's skips and
      // the own-account moves (card payment, savings) that default to skip with their reason.
      const review = await json(t, `/api/v1/statements/${t.state.id}`);
      t.state.toImport = review.transactions.filter((r) => r.action === "import").length;
      assert.ok(t.state.toImport >= 5, `rows to import: ${t.state.toImport}`);
      await page.getByTestId("import-btn").click();
      const outcome = page.getByTestId("import-outcome");
      await outcome.waitFor({ timeout: 15_000 });
      await hasText(outcome, `${t.state.toImport} imported`);
      await hasText(page.getByTestId("statement-status"), "Complete");
      const month = await json(t, "/api/v1/transactions?month=2025-03");
      assert.ok(
        month.transactions.some((x) => /_stmt_rbc_/.test(x.date_file_name)),
        "imported rows are in March 2025",
      );
      await t.shot("statement-imported");
    },
  },
  {
    name: "reparse keeps the results; download returns the PDF; delete leaves the transactions",
    referencePdf: true,
    async run(t) {
      const { page } = t;
      await page.getByRole("button", { name: "Reparse" }).click();
      await page.getByText("Parsed again").first().waitFor();
      await hasText(page.getByTestId("statement-status"), "Complete");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download" }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `statement-${t.state.id}.pdf`);
      page.once("dialog", (d) => d.accept());
      await page.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("heading", { name: "Statements" }).waitFor();
      const list = await json(t, "/api/v1/statements");
      assert.equal(
        list.statements.some((s) => s.id === t.state.id),
        false,
      );
      let kept = 0;
      for (const m of ["2025-02", "2025-03"]) {
        const month = await json(t, `/api/v1/transactions?month=${m}`);
        kept += month.transactions.filter((x) => /_stmt_rbc_/.test(x.date_file_name)).length;
      }
      assert.equal(kept, t.state.toImport, "the imported rows stay");
      await t.shot("statements-after-delete");
    },
  },
  {
    name: "a CSV export: confirm its columns once (card sign convention), the rows are read again",
    async run(t) {
      const { page } = t;
      await page.getByTestId("statement-input").setInputFiles(csv);
      const form = page.getByTestId("csv-mapping");
      await form.waitFor({ timeout: 25_000 });
      await t.shot("csv-mapping");
      await form.getByLabel("Institution").fill("Harbour Card");
      await form.getByTestId("csv-flip").check();
      await form.getByRole("button", { name: "Confirm columns and read again" }).click();
      await form.waitFor({ state: "detached" });
      const id = new URL(page.url()).searchParams.get("id");
      const d = await json(t, `/api/v1/statements/${id}`);
      assert.equal(d.institution, "Harbour Card");
      assert.deepEqual(
        d.transactions.map((x) => x.type),
        ["withdrawal", "deposit", "withdrawal"],
      );
      // No balance column: the API says unchecked, and the review says so as a note, not an alarm.
      assert.equal(d.balance_check.checked, false);
      const note = page.getByTestId("balance-warnings");
      await hasText(note, "carries no balances to check");
      assert.equal(await note.getAttribute("role"), "note");
      await t.shot("csv-confirmed");
    },
  },
  {
    name: "a CSV whose header nothing names opens on the mapping form, with a preview of signs and a flip, and is rescued",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/statements`);
      await page.getByTestId("statement-input").setInputFiles(refusedCsv);
      const form = page.getByTestId("csv-mapping");
      await form.waitFor({ timeout: 25_000 });
      await hasText(form.getByTestId("csv-refused"), "names no date and amount column");
      const signs = form.getByTestId("csv-preview-sign");
      await until(async () => (await signs.count()) === 4, "four preview rows");
      assert.equal(await signs.first().textContent(), "money out 1234.56");
      assert.equal(await signs.nth(1).textContent(), "money in 2500.00");
      await form.getByTestId("csv-flip").check();
      assert.equal(await signs.first().textContent(), "money in 1234.56");
      await t.shot("csv-refused-header-flipped");
      await form.getByTestId("csv-flip").uncheck();
      await form.getByLabel("Institution").fill("Ledger Export Bank");
      await form.getByRole("button", { name: "Confirm columns and read again" }).click();
      await form.waitFor({ state: "detached" });
      const id = new URL(page.url()).searchParams.get("id");
      const d = await json(t, `/api/v1/statements/${id}`);
      assert.equal(d.institution, "Ledger Export Bank");
      assert.deepEqual(
        d.transactions.map((x) => [x.date, x.type, x.amount]),
        [
          ["2024-03-02", "withdrawal", 1234.56],
          ["2024-03-11", "deposit", 2500],
          ["2024-04-05", "withdrawal", 7.99],
          ["2024-04-28", "deposit", 15.1],
        ],
      );
      await page.locator("[data-testid=statement-rows]").waitFor();
      await t.shot("csv-refused-header-rescued");
    },
  },
  {
    name: "a file of two accounts: the review lists both, each opening its own statement",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/statements`);
      await page.getByTestId("statement-input").setInputFiles(twoAccounts);
      const nav = page.getByRole("navigation", { name: /This file held 2 accounts/ });
      await nav.waitFor({ timeout: 25_000 });
      const links = nav.getByRole("link");
      await until(async () => (await links.count()) === 2, "two account links");
      await hasText(links.first(), "2 rows");
      assert.equal(await links.first().getAttribute("aria-current"), "page");
      const firstId = new URL(page.url()).searchParams.get("id");
      await t.shot("file-accounts-first");
      await links.nth(1).click();
      await until(
        async () => new URL(page.url()).searchParams.get("id") !== firstId,
        "the second review opened",
      );
      const secondId = new URL(page.url()).searchParams.get("id");
      const d = await json(t, `/api/v1/statements/${secondId}`);
      assert.equal(d.account_type, "credit_card");
      const rows = page.locator("[data-testid=statement-rows] tbody tr");
      await until(async () => (await rows.count()) === 2, "the card's two rows");
      assert.equal(await nav.getByRole("link").nth(1).getAttribute("aria-current"), "page");
      await t.shot("file-accounts-second");
      // And back to the first account, whose review is its own.
      await nav.getByRole("link").first().click();
      await until(async () => new URL(page.url()).searchParams.get("id") === firstId, "back on the first");
      await until(async () => (await rows.count()) === 2, "the chequing account's two rows");
    },
  },
].filter((step) => hasPdf || !step.referencePdf);
