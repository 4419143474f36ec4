// Insights, Summarize month and Settings → Intelligence in the browser, on the seeded demo server.
// The server has no model API key. When it was started with MODEL_BRIDGE_URL pointing at a model
// bridge whose cli_a runs test/fixtures/bridge/briefing.mjs, the walk generates a briefing through
// it, watches the progress, reads it and sees the made-up figure flagged; without a bridge it walks
// what works without a model (the context, the answers in words, the settings, the memo). The
// integration tests cover generation against the fake model server either way.
import { assert, hasText, signedIn, putConfig } from "./helpers.mjs";

export const steps = [
  {
    name: "Insights: the context the model gets, and Generate disabled with the reason while insights are off",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      await putConfig(t, { insights_provider: "disabled", daily_summary_provider: "disabled" });
      await page.goto(`${t.base}/`);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Insights" }).click();
      await page.getByRole("heading", { name: "Insights", level: 1 }).waitFor();
      const context = page.getByTestId("insights-context");
      await context.waitFor();
      await context.locator("summary").first().click();
      await hasText(context, "Trend:");
      await hasText(page.getByTestId("ai-needs-insights"), "Insights are turned off");
      assert.equal(await page.getByRole("button", { name: "Generate briefing" }).isDisabled(), true);
      await t.shot("insights-off");
    },
  },
  {
    name: "Settings → Intelligence: choose a provider per task, test it (in words), save the memo",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/settings#intelligence`);
      const section = page.getByTestId("settings-intelligence");
      await section.waitFor();
      const task = section.getByTestId("task-insights");
      await task.getByLabel("Provider").selectOption("cli_a");
      await page.getByText("Insights: Command-line model A").first().waitFor();
      await task.getByRole("button", { name: "Test" }).click();
      const verdict = task.getByTestId("verdict-insights");
      await verdict.waitFor();
      const said = (await verdict.textContent()) ?? "";
      assert.match(said, /^(Not configured|Reachable)/);
      t.state.bridged = said.startsWith("Reachable");
      await section.getByLabel("Personal memo for insights").fill("Saving for a bike in spring.");
      await section.getByRole("button", { name: "Save memo" }).click();
      await page.getByText("Memo saved").first().waitFor();
      await hasText(section, "What may be sent");
      await section.getByRole("heading", { name: "Intelligence" }).scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById("intelligence")?.scrollIntoView());
      await t.shot("intelligence");
      const cfg = await (await page.request.get(`${t.base}/api/v1/config`)).json();
      assert.equal(cfg.insights_provider, "cli_a");
      assert.equal(cfg.insights_user_memo, "Saving for a bike in spring.");
    },
  },
  {
    name: "Insights: the memo reaches the context; Generate through the bridge (or its absence explained)",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/insights`);
      const context = page.getByTestId("insights-context");
      await context.waitFor();
      await context.locator("summary").first().click();
      await hasText(context, "Saving for a bike in spring.");
      if (!t.state.bridged) {
        await hasText(page.getByTestId("ai-needs-insights"), "model bridge");
        assert.equal(await page.getByRole("button", { name: "Generate briefing" }).isDisabled(), true);
        await t.shot("insights-no-bridge");
        return;
      }
      await hasText(page.getByTestId("ai-needs-insights"), "Sends to Command-line model A");
      await page.getByRole("button", { name: "Generate briefing" }).click();
      await page.getByTestId("insights-progress").waitFor();
      await t.shot("insights-progress");
      const briefing = page.getByTestId("insights-briefing");
      await briefing.waitFor({ timeout: 60_000 });
      await hasText(page.getByTestId("insights-figure-check"), "1 of 3 figures could not be traced");
      const flagged = briefing.locator("mark.figure-flag");
      assert.equal(await flagged.count(), 1);
      assert.equal(await flagged.textContent(), "$12,345.67");
      assert.equal(
        await briefing.locator("h3", { hasText: "What changed" }).count(),
        1,
        "markdown headings render",
      );
      await t.shot("insights-briefing");
    },
  },
  {
    name: "Journal: Summarize month fills the missing days through the bridge (or says why it cannot)",
    async run(t) {
      const { page } = t;
      if (t.state.bridged) await putConfig(t, { daily_summary_provider: "cli_a" });
      await page.goto(`${t.base}/`);
      const box = page.getByTestId("summarize-month");
      await box.waitFor();
      if (!t.state.bridged) {
        await hasText(box, "Day summaries are turned off");
        assert.equal(await box.getByRole("button", { name: "Summarize month" }).isDisabled(), true);
        await t.shot("summarize-off");
      } else {
        await hasText(box, "Sends to Command-line model A");
        await box.getByRole("button", { name: "Summarize month" }).click();
        await page.getByTestId("summarize-progress").waitFor();
        await t.shot("summarize-progress");
        const summary = page.locator("[data-testid=journal-day] .day-summary").first();
        await summary.waitFor({ timeout: 60_000 });
        await hasText(summary, "A steady day (walk summary for");
        // A second press finds nothing missing.
        await box.getByRole("button", { name: "Summarize month" }).click();
        await hasText(box, "already has a summary");
        await t.shot("summarize-done");
      }
      await putConfig(t, {
        insights_provider: "disabled",
        daily_summary_provider: "disabled",
        insights_user_memo: null,
      });
    },
  },
];
