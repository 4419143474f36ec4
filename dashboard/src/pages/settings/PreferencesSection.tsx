import { useMemo, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { AppConfigUpdate } from "../../api/types";
import { ErrorNotice } from "../../components/States";
import { type SwitchItem, SwitchList } from "../../components/SwitchList";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";

type Flag = "enable_daily_summaries" | "tax_tracking_enabled";

// The four AI consents live in Intelligence, next to the provider they send to and with what each
// one sends; only the journal's own switches are here.
const SWITCHES: SwitchItem<Flag>[] = [
  {
    key: "enable_daily_summaries",
    label: "Daily summaries",
    hint: "Write a short summary of each day, and send it.",
  },
  { key: "tax_tracking_enabled", label: "Tax tracking", hint: "Collect deductible items for the tax pack." },
];

/** Notification and tax switches, the summary time and the time zone (GET/PUT /api/v1/config). */
export function PreferencesSection() {
  const { config, setConfig, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [time, setTime] = useState(config.daily_summary_schedule_time ?? "19:00");
  const zones = useMemo(() => {
    const all = Intl.supportedValuesOf?.("timeZone") ?? [];
    return all.includes(config.timezone) ? all : [config.timezone, ...all];
  }, [config.timezone]);
  const save = (patch: AppConfigUpdate, message: string) =>
    run(async () => {
      setConfig(await unwrap(api.PUT("/api/v1/config", { body: patch })));
    }, message);
  return (
    <div className="card" id="preferences">
      <h2>Preferences</h2>
      <p className="muted small">
        What may be sent to a model is chosen under <a href="#intelligence">Intelligence</a>.
      </p>
      <SwitchList items={SWITCHES} values={config} idPrefix="sw" disabled={!canWrite || busy} save={save} />
      <div className="inline wrap">
        <label className="field">
          <span>Daily summary time</span>
          <input type="time" value={time} onChange={(e) => setTime(e.target.value)} disabled={!canWrite} />
        </label>
        <button
          type="button"
          className="btn align-end"
          disabled={!canWrite || busy || time === config.daily_summary_schedule_time}
          onClick={() => save({ daily_summary_schedule_time: time }, "Summary time saved")}
        >
          Save time
        </button>
      </div>
      <label className="field">
        <span>Time zone</span>
        <select
          value={config.timezone}
          disabled={!canWrite || busy}
          onChange={(e) => save({ timezone: e.target.value }, `Time zone set to ${e.target.value}`)}
          data-testid="timezone"
        >
          {zones.map((z) => (
            <option key={z}>{z}</option>
          ))}
        </select>
      </label>
      <ErrorNotice error={error} />
    </div>
  );
}
