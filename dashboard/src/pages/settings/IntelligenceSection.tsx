import { useEffect, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { useTaskReadiness } from "../../components/AiGate";
import { ErrorNotice } from "../../components/States";
import { type SwitchItem, SwitchList } from "../../components/SwitchList";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";

type Config = components["schemas"]["AppConfigResponse"];
type Update = components["schemas"]["AppConfigUpdateRequest"];
type Task = "categorization" | "daily_summary" | "document_parsing" | "insights";

const ALL = ["disabled", "hosted", "cli_a", "cli_b", "cli_c"] as const;
const TASKS: { task: Task; label: string; does: string; providers: readonly string[] }[] = [
  {
    task: "categorization",
    label: "Categorization",
    does: "Picks a category for a transaction no rule covers, finds similar merchant rules, and reads alert emails no parser knows (when allowed below).",
    providers: ["disabled", "hosted", "cli_b"],
  },
  {
    task: "daily_summary",
    label: "Day summaries",
    does: "Writes the one-line summaries of each day in the journal (“Summarize month” and the evening run).",
    providers: ALL,
  },
  {
    task: "document_parsing",
    label: "Document parsing",
    does: "Reads receipts and statements the built-in readers do not know (when allowed below).",
    providers: ALL,
  },
  {
    task: "insights",
    label: "Insights",
    does: "Writes the monthly briefing on the Insights page.",
    providers: ALL,
  },
];
const PROVIDER_LABEL: Record<string, string> = {
  disabled: "Off",
  hosted: "Hosted model API",
  cli_a: "Command-line model A",
  cli_b: "Command-line model B",
  cli_c: "Command-line model C",
};
/** One sentence per provider: what leaves the journal and where it goes. */
const PROVIDER_SENTENCE: Record<string, string> = {
  disabled: "Nothing leaves the journal: the task is done by your rules alone, or not at all.",
  hosted:
    "The text the task needs (a merchant and amount, a receipt, a month's figures) goes over the internet to the model API this server is configured with (its MODEL_API_KEY), under that provider's terms.",
  cli_a:
    "The text goes from this server to the model bridge on your own computer (npm run model-bridge), which hands it to the command-line tool you set up there as tool A; it goes wherever that tool sends it.",
  cli_b:
    "The text goes from this server to the model bridge on your own computer (npm run model-bridge), which hands it to the command-line tool you set up there as tool B; it goes wherever that tool sends it.",
  cli_c:
    "The text goes from this server to the model bridge on your own computer (npm run model-bridge), which hands it to the command-line tool you set up there as tool C; it goes wherever that tool sends it.",
};
const isLocal = (p: string) => p.startsWith("cli_");
const EFFORTS = ["", "none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

const CONSENTS: SwitchItem<keyof Config & keyof Update>[] = [
  {
    key: "ai_categorization_enabled",
    label: "Categorize with AI",
    hint: "Sends the merchant name, amount and type of a transaction no rule covers, with your category list.",
  },
  {
    key: "ai_extraction_enabled",
    label: "Read unknown alerts with AI",
    hint: "Sends the text of an alert email the built-in parsers cannot read.",
  },
  {
    key: "ai_receipt_parsing_enabled",
    label: "Read receipts with AI",
    hint: "Sends a receipt's photo or PDF text, only when you press “Read with AI” on it.",
  },
  {
    key: "ai_statement_parsing_enabled",
    label: "Read statements with AI",
    hint: "Sends the text of a statement PDF the built-in parsers cannot read.",
  },
];

/** Settings → Intelligence: provider, model and effort per task; connection test; consents; memo. */
export function IntelligenceSection() {
  const { config, setConfig, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const save = (patch: Update, message: string) =>
    run(async () => setConfig(await unwrap(api.PUT("/api/v1/config", { body: patch }))), message);
  const [memo, setMemo] = useState(config.insights_user_memo ?? "");
  const c = config as Config;
  // Arriving from an AI action's "Set it up" link: bring this section into view.
  useEffect(() => {
    if (window.location.hash === "#intelligence") document.getElementById("intelligence")?.scrollIntoView();
  }, []);
  return (
    <div className="card" id="intelligence" data-testid="settings-intelligence">
      <h2>Intelligence</h2>
      <p className="muted small">
        Which model does each job. Each job asks for its model here and nowhere else: “Off” sends nothing. The
        local tools are command-line model programs on your own computer, reached through the model bridge
        (see the README for setting it up and giving its token to this server).
      </p>
      <div className="intelligence-tasks">
        {TASKS.map((t) => (
          <TaskRow key={t.task} task={t} config={c} disabled={!canWrite || busy} save={save} />
        ))}
      </div>
      <h3>What may be sent</h3>
      <SwitchList items={CONSENTS} values={c} idPrefix="int" disabled={!canWrite || busy} save={save} />
      <h3>
        <label htmlFor="insights-memo">Personal memo for insights</label>
      </h3>
      <p className="muted small">
        Given to the model with every briefing (goals, context). At most 2000 characters.
      </p>
      <textarea
        id="insights-memo"
        rows={4}
        maxLength={2000}
        value={memo}
        disabled={!canWrite}
        onChange={(e) => setMemo(e.target.value)}
      />
      <div className="row-between">
        <span className="muted small">{memo.length} / 2000</span>
        <button
          type="button"
          className="btn"
          disabled={!canWrite || busy || memo === (c.insights_user_memo ?? "")}
          onClick={() => save({ insights_user_memo: memo.trim() ? memo : null }, "Memo saved")}
        >
          Save memo
        </button>
      </div>
      <ErrorNotice error={error} />
    </div>
  );
}

function TaskRow({
  task,
  config,
  disabled,
  save,
}: {
  task: (typeof TASKS)[number];
  config: Config;
  disabled: boolean;
  save: (patch: Update, message: string) => Promise<unknown>;
}) {
  const k = task.task;
  const provider = (config[`${k}_provider`] as string | undefined) ?? "disabled";
  const [model, setModel] = useState((config[`${k}_model`] as string | null | undefined) ?? "");
  const effort = (config[`${k}_reasoning_effort`] as string | null | undefined) ?? "";
  const [verdict, setVerdict] = useState<{ ok: boolean; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const state = useTaskReadiness(k);
  const test = async () => {
    setTesting(true);
    setVerdict(null);
    try {
      const r = await unwrap(
        api.POST("/api/v1/config/test-model-key", {
          body: { provider: provider as "hosted", model: model.trim() || null },
        }),
      );
      setVerdict({ ok: r.ok, text: r.error ?? r.message });
    } catch (err) {
      setVerdict({ ok: false, text: err instanceof Error ? err.message : "The test could not run." });
    } finally {
      setTesting(false);
    }
  };
  return (
    <fieldset className="intelligence-task" data-testid={`task-${k}`}>
      <legend>{task.label}</legend>
      <p className="muted small">{task.does}</p>
      <label>
        Provider{" "}
        <select
          value={provider}
          disabled={disabled}
          onChange={(e) =>
            save(
              { [`${k}_provider`]: e.target.value } as Update,
              `${task.label}: ${PROVIDER_LABEL[e.target.value]}`,
            )
          }
        >
          {task.providers.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_LABEL[p]}
            </option>
          ))}
        </select>
      </label>{" "}
      <label>
        Model{" "}
        <input
          value={model}
          placeholder={isLocal(provider) ? "the bridge's first allowed" : "the server's default"}
          maxLength={200}
          disabled={disabled || provider === "disabled"}
          onChange={(e) => setModel(e.target.value)}
          onBlur={() =>
            model !== ((config[`${k}_model`] as string | null | undefined) ?? "") &&
            save({ [`${k}_model`]: model.trim() || null } as Update, `${task.label}: model saved`)
          }
        />
      </label>{" "}
      {provider === "hosted" && (
        <label>
          Effort{" "}
          <select
            value={effort}
            disabled={disabled}
            onChange={(e) =>
              save(
                { [`${k}_reasoning_effort`]: e.target.value || null } as Update,
                `${task.label}: effort saved`,
              )
            }
          >
            {EFFORTS.map((x) => (
              <option key={x} value={x}>
                {x || "default"}
              </option>
            ))}
          </select>
        </label>
      )}{" "}
      <button
        type="button"
        className="btn btn-small"
        disabled={testing || provider === "disabled"}
        onClick={test}
      >
        {testing ? "Testing…" : "Test"}
      </button>
      <p className="small" data-testid={`provider-sentence-${k}`}>
        {PROVIDER_SENTENCE[provider]}
        {isLocal(provider) && " A model named here must be on that tool's allowed list in the bridge."}
      </p>
      {state && provider !== "disabled" && (
        <p
          className={state.ready ? "small" : "small text-danger"}
          data-testid={`task-state-${k}`}
          role={state.ready ? undefined : "note"}
        >
          {state.ready
            ? `Ready: uses ${state.provider_label}${state.model ? ` (${state.model})` : ""}.`
            : state.reason}
        </p>
      )}
      {verdict && (
        <p role="status" className={verdict.ok ? "small" : "text-danger small"} data-testid={`verdict-${k}`}>
          {verdict.text}
        </p>
      )}
    </fieldset>
  );
}
