// Statement PDFs in the browser, beyond the rules: a bank layout no rule reads is taught by marking
// its columns once on the laid-out page, the next statement of that layout reads with no help, the
// layout is listed on Rules; a card payment in a statement is shown as a transfer and skipped. With
// document parsing routed to a model (the runner's bridge: cli_b's stand-in tool), the model's marks
// come prefilled and labelled, with the balances they add up to; the person still confirms.
// Runs on the seeded demo server; screenshots at desktop width and 390 px.
import { join } from "node:path";
import { assert, hasText, until, signedIn, putConfig } from "./helpers.mjs";

const own = (f) => join(import.meta.dirname, "..", "fixtures", "statements", "taught", f);

async function json(t, path) {
  const res = await t.page.request.get(`${t.base}${path}`);
  assert.equal(res.status(), 200, `${path}: ${res.status()}`);
  return res.json();
}

async function uploadOnStatementsPage(t, file) {
  const { page } = t;
  await page.goto(`${t.base}/statements`);
  await page.getByTestId("statement-input").setInputFiles(file);
  await until(
    async () => new URL(page.url()).searchParams.get("id")?.startsWith("stmt_"),
    "the review opens",
  );
  return new URL(page.url()).searchParams.get("id");
}

export const steps = [
  {
    name: "a PDF no rule reads opens the review with its page laid out, to mark the columns",
    async run(t) {
      const { page } = t;
      await signedIn(t);
      t.state.first = await uploadOnStatementsPage(t, own("ribera-2025-01.pdf"));
      const teacher = page.getByTestId("layout-teacher");
      await teacher.waitFor({ timeout: 25_000 });
      // Never an empty review: it says no rows were found and why, beside the marking form.
      await hasText(page.getByTestId("balance-warnings"), "No rows found in this PDF");
      await hasText(
        page.getByTestId("balance-warnings"),
        "Mark its date, description, amount and balance columns",
      );
      await teacher.getByTestId("layout-open").click();
      await page.getByTestId("layout-page").waitFor();
      await t.shot("layout-page");
    },
  },
  {
    name: "with document parsing on, the model's marks are proposed, prefilled and labelled, balance-checked; an unusable answer is dropped in words",
    async run(t) {
      const { page } = t;
      const runs = () => (t.state.bridgeLog ?? []).filter((l) => l.startsWith("cli_b ")).length;
      const before = runs();
      const openTeacher = async () => {
        await page.reload();
        const teacher = page.getByTestId("layout-teacher");
        await teacher.waitFor({ timeout: 25_000 });
        await teacher.getByTestId("layout-open").click();
      };
      const kinds = page.getByRole("radiogroup", { name: "Column kind" });
      try {
        // cli_a's stand-in answers prose, not column marks: dropped, said why, nothing prefilled.
        await putConfig(t, { document_parsing_provider: "cli_a" });
        await openTeacher();
        const dropped = page.getByTestId("layout-proposal-dropped");
        await dropped.waitFor({ timeout: 30_000 });
        await hasText(dropped, "The model's proposal was dropped");
        await hasText(dropped, "mark the columns by hand");
        assert.equal(((await kinds.textContent()) ?? "").includes("✓"), false, "nothing prefilled");
        assert.equal(await page.getByTestId("layout-save").isEnabled(), false);
        await t.shot("layout-proposal-dropped");

        await putConfig(t, { document_parsing_provider: "cli_b" });
        await openTeacher();
        const note = page.getByTestId("layout-proposal");
        await note.waitFor({ timeout: 30_000 });
        await hasText(note, "Proposed by the model");
        await hasText(note, "read 4 rows");
        await hasText(note, "3,475.98");
        assert.equal(runs(), before + 1, "one model run for the proposal");
        for (const role of ["Date", "Description", "Amount", "Balance"]) await hasText(kinds, `${role} ✓`);
        const save = page.getByTestId("layout-save");
        assert.equal(await save.isEnabled(), true, "the proposal can be confirmed");
        await hasText(save, "Confirm these columns");
        const marked = page.getByTestId("layout-page").locator(".layout-marked");
        assert.ok((await marked.count()) >= 16, "the proposed columns are marked on the page");
        await t.shot("layout-proposal");
      } finally {
        await putConfig(t, { document_parsing_provider: "disabled" });
      }
    },
  },
  {
    name: "marking date, description, amount and balance once reads every row, balance-checked",
    async run(t) {
      const { page } = t;
      const area = page.getByTestId("layout-page");
      const mark = async (role, text) => {
        await page.getByRole("radio", { name: role }).check();
        await area.getByRole("button", { name: text, exact: true }).click();
      };
      await mark("Date", "03/01/2025");
      await mark("Description", "MERCADONA VALENCIA");
      await mark("Amount", "-45,12");
      await mark("Balance", "1.454,88");
      await page.getByLabel("Bank name").fill("Banco Ribera");
      await page.getByTestId("layout-save").click();
      const rows = page.locator("[data-testid=statement-rows] tbody tr");
      await until(async () => (await rows.count()) === 4, "4 rows read with the marked columns");
      const d = await json(t, `/api/v1/statements/${t.state.first}`);
      assert.equal(d.balance_check.ok, true, JSON.stringify(d.balance_check));
      assert.deepEqual(
        d.transactions.map((x) => [x.date, x.type, x.amount]),
        [
          ["2025-01-03", "withdrawal", 45.12],
          ["2025-01-05", "deposit", 2100],
          ["2025-01-12", "withdrawal", 63.9],
          ["2025-01-12", "withdrawal", 15],
        ],
      );
      await t.shot("layout-taught");
    },
  },
  {
    name: "the next statement of that layout reads with no help, and the layout is on Rules",
    async run(t) {
      const { page } = t;
      const id = await uploadOnStatementsPage(t, own("ribera-2025-02.pdf"));
      const rows = page.locator("[data-testid=statement-rows] tbody tr");
      await until(async () => (await rows.count()) === 3, "3 rows read by the taught layout");
      assert.equal(await page.getByTestId("layout-teacher").count(), 0, "no marking needed");
      const d = await json(t, `/api/v1/statements/${id}`);
      assert.equal(d.institution, "Banco Ribera");
      assert.equal(d.balance_check.ok, true);
      await page.goto(`${t.base}/rules`);
      await hasText(page.getByTestId("rules-layouts"), "Banco Ribera");
      await hasText(page.getByTestId("rules-layouts"), "read 1 statement");
      await t.shot("rules-layouts");
    },
  },
  {
    name: "a card payment in a statement is shown as a transfer, defaults to skip, and is not imported",
    async run(t) {
      const { page } = t;
      const id = await uploadOnStatementsPage(t, own("maple-card-payment.pdf"));
      await page.getByTestId("statement-rows").waitFor({ timeout: 25_000 });
      const first = page.locator("[data-testid=statement-rows] tbody tr").first();
      await first.getByTestId("transfer-tag").waitFor();
      await hasText(first, "card payment");
      assert.equal(await page.getByLabel("Action for row 1").inputValue(), "skip");
      await t.shot("transfer-row");
      await page.getByTestId("import-btn").click();
      await page.getByTestId("import-outcome").waitFor({ timeout: 15_000 });
      const d = await json(t, `/api/v1/statements/${id}`);
      assert.equal(d.transactions[0].transfer, true);
      assert.equal(d.transactions[0].action_result, "skipped");
    },
  },
];
