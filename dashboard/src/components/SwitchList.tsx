import type { AppConfigUpdate } from "../api/types";

/** A config flag shown as a switch: its label and a line saying what turning it on does. */
export type SwitchItem<K extends string> = { key: K; label: string; hint: string };

/** A list of on/off switches over configuration flags; `idPrefix` keeps the label ids unique per page. */
export function SwitchList<K extends string & keyof AppConfigUpdate>({
  items,
  values,
  idPrefix,
  disabled,
  save,
}: {
  items: SwitchItem<K>[];
  values: Partial<Record<K, unknown>>;
  idPrefix: string;
  disabled: boolean;
  save: (patch: AppConfigUpdate, message: string) => unknown;
}) {
  return (
    <ul className="switches">
      {items.map((s) => {
        const on = !!values[s.key];
        return (
          <li key={s.key} className="row-between">
            <span>
              <span className="switch-label" id={`${idPrefix}-${s.key}`}>
                {s.label}
              </span>
              <span className="muted small block">{s.hint}</span>
            </span>
            <button
              type="button"
              role="switch"
              aria-checked={on}
              aria-labelledby={`${idPrefix}-${s.key}`}
              className="switch"
              disabled={disabled}
              onClick={() => save({ [s.key]: !on }, `${s.label} turned ${on ? "off" : "on"}`)}
            >
              <span className="switch-knob" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
