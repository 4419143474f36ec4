// Rules → beside "Banks I taught": statement PDF layouts taught by marking columns, each with the
// header words it is recognised by and how many statements it has read; rename, delete (undoable).
import { RenameDelete } from "../../components/RenameDelete";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { useApi } from "../../lib/useApi";

type Layout = components["schemas"]["StatementLayout"];

export function TaughtLayouts() {
  const list = useApi(() => unwrap(api.GET("/api/v1/statements/layouts")), "statement-layouts");
  const items = list.data?.layouts;
  return (
    <div className="card" data-testid="rules-layouts">
      <h2>Statement layouts I taught {items && <span className="count">{items.length}</span>}</h2>
      <p className="muted small">
        Marking the columns of a PDF statement the journal could not read teaches it that bank's page; its
        next statements read on their own and are still checked against their printed balances.
      </p>
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {!items && list.loading && <Loading rows={2} />}
      {items && items.length === 0 && <Empty title="None yet" />}
      <ul className="plain-list rule-list">
        {(items ?? []).map((l) => (
          <LayoutRow key={l.id} l={l} reload={list.reload} />
        ))}
      </ul>
    </div>
  );
}

function LayoutRow({ l, reload }: { l: Layout; reload: () => void }) {
  const { canWrite } = useApp();
  const action = useAction();
  const [name, setName] = useState<string | null>(null);
  const path = { params: { path: { layout_id: l.id } } };
  const rename = () =>
    void action.run(async () => {
      await unwrap(
        api.PATCH("/api/v1/statements/layouts/{layout_id}", { ...path, body: { name: (name ?? "").trim() } }),
      );
      setName(null);
      reload();
    }, "Renamed");
  const remove = () =>
    void action.run(async () => {
      await unwrap(api.DELETE("/api/v1/statements/layouts/{layout_id}", path));
      reload();
    }, "Deleted (undo from the activity page)");
  return (
    <li className="row-between">
      <span className="rule-text">
        {name === null ? (
          <strong>{l.name}</strong>
        ) : (
          <input
            aria-label="Layout name"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        )}{" "}
        <span className="muted small">
          {l.institution} · header “{l.header.join(" · ")}” · read {l.match_count} statement(s)
          {l.last_matched_at ? `, last ${l.last_matched_at.slice(0, 10)}` : ""}
        </span>
        <ErrorNotice error={action.error} />
      </span>
      <RenameDelete
        name={l.name}
        editing={name}
        disabled={!canWrite || action.busy}
        onEdit={() => setName(l.name)}
        onSave={rename}
        onDelete={remove}
      />
    </li>
  );
}
