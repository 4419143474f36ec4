// Which categories count toward which claim line: one line (or none) per category, so no category
// can be claimed twice. Saving makes a personal mapping (journaled, undoable from the toast);
// "Use the packaged lines" drops it. Opened on demand at the foot of the Tax page.
import { useState } from "react";
import { OnDemand } from "../../components/OnDemand";
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { useApi } from "../../lib/useApi";
import { dropMapping, loadMapping, saveMapping, type TaxMapping } from "./api";

const NONE = "";
const norm = (c: string) => c.trim().toLowerCase();

/** category (normalized) → line key, from a mapping document. */
function assignment(m: TaxMapping): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of m.lines) for (const c of line.categories) out[norm(c)] = line.key;
  return out;
}

export function TaxMappingEditor({ onSaved }: { onSaved: () => void }) {
  return (
    <OnDemand
      className="card tax-mapping"
      testId="tax-mapping"
      title={<h2 className="inline-heading">Which categories count</h2>}
    >
      {() => <MappingBody onSaved={onSaved} />}
    </OnDemand>
  );
}

function MappingBody({ onSaved }: { onSaved: () => void }) {
  const { categories, canWrite, config } = useApp();
  const data = useApi(loadMapping, "tax-mapping");
  const { busy, error, run } = useAction();
  const [edits, setEdits] = useState<Record<string, string>>({});
  if (!data.data)
    return data.error ? <ErrorNotice error={data.error} onRetry={data.reload} /> : <Loading rows={4} />;
  const { mapping, personal } = data.data;
  const stored = assignment(mapping);
  const names = new Map<string, string>();
  for (const c of categories) names.set(norm(c), c);
  for (const line of mapping.lines)
    for (const c of line.categories) if (!names.has(norm(c))) names.set(norm(c), c);
  const rows = [...names.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  const lineOf = (k: string) => edits[k] ?? stored[k] ?? NONE;
  const dirty = Object.entries(edits).some(([k, v]) => v !== (stored[k] ?? NONE));
  const off = !canWrite || busy || !!config.demo_mode;
  const save = () =>
    run(async () => {
      const doc: TaxMapping = {
        ...mapping,
        lines: mapping.lines.map((l) => ({
          ...l,
          categories: rows.filter(([k]) => lineOf(k) === l.key).map(([, name]) => name),
        })),
      };
      await saveMapping(doc);
      setEdits({});
      data.reload();
      onSaved();
    }, "Tax lines saved");
  const reset = () =>
    run(async () => {
      await dropMapping();
      setEdits({});
      data.reload();
      onSaved();
    }, "Back to the packaged tax lines");
  return (
    <>
      <p className="muted small" data-testid="tax-mapping-kind">
        {personal ? "Your own mapping is in use." : "The packaged mapping is in use."} Each category counts
        toward one line at most; rows can still be claimed or left out one by one.
      </p>
      <ul className="plain-list tax-mapping-rows">
        {rows.map(([k, name]) => (
          <li key={k} className="row-between">
            <span id={`taxmap-${k}`}>{name}</span>
            <select
              aria-labelledby={`taxmap-${k}`}
              value={lineOf(k)}
              disabled={off}
              onChange={(e) => setEdits({ ...edits, [k]: e.target.value })}
            >
              <option value={NONE}>Not claimable</option>
              {mapping.lines.map((l) => (
                <option key={l.key} value={l.key}>
                  {l.label}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ul>
      <ErrorNotice error={error} />
      <div className="inline wrap">
        <button
          type="button"
          className="btn btn-primary"
          disabled={off || !dirty}
          onClick={() => void save()}
        >
          Save lines
        </button>
        {personal && (
          <button type="button" className="btn" disabled={off} onClick={() => void reset()}>
            Use the packaged lines
          </button>
        )}
      </div>
    </>
  );
}
