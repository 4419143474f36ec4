// AI that explains itself and settings that do what they say (issues 23 and 25), in the browser on
// the seeded server. scripts/e2e.mjs starts a model bridge whose cli_b is a stand-in tool and hands
// its log to the suite (t.state.bridgeLog: one "<provider> exit=…" line per run), so "no model
// call" is counted where the call would land. The server has no hosted model key.
import { assert, cibcAlert, hasText, until, signedIn, putConfig } from "./helpers.mjs";

const bridgeRuns = (t, provider) =>
  (t.state.bridgeLog ?? []).filter((l) => l.startsWith(`${provider} `)).length;

async function uploadAlert(t, merchant, id) {
  const { page } = t;
  await page.goto(`${t.base}/upload`);
  await page.getByTestId("eml-input").setInputFiles({
    name: `${id}.eml`,
    mimeType: "message/rfc822",
    buffer: Buffer.from(cibcAlert({ amount: "17.45", merchant, id })),
  });
  const outcome = page.getByTestId("upload-outcome");
  await hasText(outcome, merchant, 30_000);
  return outcome;
}

async function chooseCategorization(t, value, words) {
  const { page } = t;
  await page.goto(`${t.base}/settings#intelligence`);
  const task = page.getByTestId("settings-intelligence").getByTestId("task-categorization");
  await task.waitFor();
  await task.getByLabel("Provider").selectOption(value);
  await page.getByText(`Categorization: ${words}`).first().waitFor();
  return task;
}

export const steps = [
  {
    name: "Categorization off in Settings → Intelligence: an uploaded alert reaches no model (rules only); a local tool chosen, it does",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      assert.ok(Array.isArray(t.state.bridgeLog), "the runner hands the bridge's log to this suite");
      await putConfig(t, {
        categorization_provider: "cli_b",
        ai_categorization_enabled: true,
        ai_extraction_enabled: true,
      });
      const task = await chooseCategorization(t, "disabled", "Off");
      await hasText(task.getByTestId("provider-sentence-categorization"), "Nothing leaves the journal");
      const cfg = await (await page.request.get(`${t.base}/api/v1/config`)).json();
      assert.equal(cfg.categorization_provider, "disabled");

      const before = bridgeRuns(t, "cli_b");
      await page.goto(`${t.base}/upload`);
      await hasText(page.getByTestId("ai-needs-categorization"), "Categorization is turned off");
      const outcome = await uploadAlert(t, "E2E RULES ONLY SHOP", "e2e-ai-off-1");
      await hasText(outcome, "Added to your journal");
      await hasText(outcome, "Miscellaneous");
      assert.equal(bridgeRuns(t, "cli_b"), before, "categorization off: the model tool never ran");
      await t.shot("ai-categorization-off-upload");

      // The same upload with Command-line model B chosen does reach it: the counter counts.
      const local = await chooseCategorization(t, "cli_b", "Command-line model B");
      await hasText(
        local.getByTestId("provider-sentence-categorization"),
        "model bridge on your own computer",
      );
      await uploadAlert(t, "E2E LOCAL TOOL SHOP", "e2e-ai-on-1");
      await until(() => bridgeRuns(t, "cli_b") === before + 1, "one run of Command-line model B", 30_000);
      await putConfig(t, { categorization_provider: "disabled" });
    },
  },
  {
    name: "An AI button with no model is disabled, says why beside it, and links to Settings → Intelligence (1280 and 390 px)",
    async run(t) {
      const { page } = t;
      // Hosted chosen but the server has no key (once a 500): the button cannot work.
      await putConfig(t, { insights_provider: "hosted", daily_summary_provider: "disabled" });
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ]) {
        await page.setViewportSize({ width, height });
        await page.goto(`${t.base}/insights`);
        const needs = page.getByTestId("ai-needs-insights");
        await hasText(needs, "no model API key");
        const button = page.getByRole("button", { name: "Generate briefing" });
        assert.equal(await button.isDisabled(), true, `Generate briefing disabled at ${width} px`);
        assert.equal(await button.getAttribute("aria-describedby"), "ai-needs-insights");
        await hasText(needs, "Needs: A provider for Insights");
        await t.shot(`ai-button-disabled-${width}`);
        await needs.getByRole("link", { name: "Set up", exact: true }).click();
        await until(() => new URL(page.url()).pathname === "/settings", "the settings page");
        const section = page.getByTestId("settings-intelligence");
        await section.waitFor();
        await until(async () => {
          const box = await section.boundingBox();
          return box && box.y < height && box.y + box.height > 0;
        }, "Intelligence in view");
        await hasText(
          section.getByTestId("provider-sentence-insights"),
          "over the internet to the model API",
        );
        await hasText(section.getByTestId("task-state-insights"), "no model API key");
        await t.shot(`ai-settings-from-link-${width}`);

        // Summarize month on the journal: off, so disabled with its reason.
        await page.goto(`${t.base}/`);
        const box = page.getByTestId("summarize-month");
        await box.waitFor();
        await hasText(box, "Day summaries are turned off");
        assert.equal(await box.getByRole("button", { name: "Summarize month" }).isDisabled(), true);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await putConfig(t, { insights_provider: "disabled" });
    },
  },
];
