// Insights, Summarize month and Settings → Intelligence in the browser, on the seeded demo server.
// That server has no model API key and no model bridge, so this walk covers what works without a
// model: the context snapshot, the answers in words when a task is off or its provider cannot be
// reached, the per-task settings, the connection test's verdict and the memo. Generating and
// reading a briefing (and its flagged figures) is covered by test/integration/insights.test.ts
// against the fake model server.
import { assert, hasText } from "./helpers.mjs";

const PASSWORD = "correct horse battery";

async function signedIn(t) {
  const probe = await t.page.request.get(`${t.base}/api/v1/config`);
  if (probe.status() !== 401) return;
  const res = await t.page.request.post(`${t.base}/api/v1/auth/login`, {
    data: { password: PASSWORD },
    headers: { origin: t.base },
  });
  assert.equal(res.status(), 200, "sign in for the insights suite");
}

async function putConfig(t, body) {
  const res = await t.page.request.put(`${t.base}/api/v1/config`, { data: body, headers: { origin: t.base } });
  assert.equal(res.status(), 200, `PUT config: ${res.status()}`);
}

export const steps = [
  {
    name: "Insights: the context the model gets, and Generate answers in words while insights are off",
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
      await page.getByRole("button", { name: "Generate briefing" }).click();
      await hasText(page.getByTestId("insights-generate"), "Insights are turned off");
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
      await page.getByText("Insights: Local tool A (bridge)").first().waitFor();
      await task.getByRole("button", { name: "Test" }).click();
      await hasText(task.getByTestId("verdict-insights"), "Not configured");
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
    name: "Insights: the memo reaches the context; a local tool without the bridge is explained",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/insights`);
      const context = page.getByTestId("insights-context");
      await context.waitFor();
      await context.locator("summary").first().click();
      await hasText(context, "Saving for a bike in spring.");
      await page.getByRole("button", { name: "Generate briefing" }).click();
      await hasText(page.getByTestId("insights-generate"), "MODEL_BRIDGE_URL");
      await t.shot("insights-no-bridge");
    },
  },
  {
    name: "Journal: Summarize month answers in words while day summaries are off",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/`);
      const box = page.getByTestId("summarize-month");
      await box.waitFor();
      await box.getByRole("button", { name: "Summarize month" }).click();
      await hasText(box, "Day summaries are turned off");
      await t.shot("summarize-off");
      await putConfig(t, { insights_provider: "disabled", insights_user_memo: null });
    },
  },
];
