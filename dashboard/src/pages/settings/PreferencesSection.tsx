import { useMemo, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { AppConfig, AppConfigUpdate } from "../../api/types";
import { ErrorNotice } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";

type Flag = {
  [K in keyof AppConfig]: AppConfig[K] extends boolean | undefined ? K : never;
}[keyof AppConfig];

// The four AI consents live in Intelligence, next to the provider they send to and with what each
// one sends; only the journal's own switches are here.
const SWITCHES: { key: Flag; label: string; hint: string }[] = [
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
      <ul className="switches">
        {SWITCHES.map((s) => {
          const on = !!config[s.key];
          return (
            <li key={s.key} className="row-between">
              <span>
                <span className="switch-label" id={`sw-${s.key}`}>
                  {s.label}
                </span>
                <span className="muted small block">{s.hint}</span>
              </span>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={`sw-${s.key}`}
                className="switch"
                disabled={!canWrite || busy}
                onClick={() => save({ [s.key]: !on }, `${s.label} turned ${on ? "off" : "on"}`)}
              >
                <span className="switch-knob" />
              </button>
            </li>
          );
        })}
      </ul>
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
