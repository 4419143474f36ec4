import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { CategoryWithGroup } from "../../api/types";
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { useApi } from "../../lib/useApi";

/** Add, rename, regroup and delete categories. */
export function CategoriesSection() {
  const { canWrite, reloadCategories } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/categories/managed")), "managed");
  const [name, setName] = useState("");
  const [group, setGroup] = useState("");
  const { busy, error, run } = useAction();
  const refreshed = () => {
    list.reload();
    reloadCategories();
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    run(async () => {
      await unwrap(
        api.POST("/api/v1/categories", { body: { name: name.trim(), group: group.trim() || null } }),
      );
      setName("");
      refreshed();
    }, `Added ${name.trim()}`);
  };
  const data = list.data;
  const groups = new Map<string, CategoryWithGroup[]>();
  for (const c of data?.categories ?? []) {
    const g = c.group ?? "Ungrouped";
    groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  return (
    <div className="card" id="categories">
      <h2>Categories {data && <span className="count">{data.count}</span>}</h2>
      <form className="inline wrap" onSubmit={add} aria-label="Add a category">
        <label className="field grow">
          <span>New category</span>
          <input required maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Group</span>
          <input
            list="category-groups"
            maxLength={60}
            value={group}
            onChange={(e) => setGroup(e.target.value)}
          />
          <datalist id="category-groups">
            {data?.groups.map((g) => (
              <option key={g} value={g} />
            ))}
          </datalist>
        </label>
        <button
          type="submit"
          className="btn btn-primary align-end"
          disabled={!canWrite || busy || !name.trim()}
        >
          Add
        </button>
      </form>
      <ErrorNotice error={error ?? list.error} />
      {!data && list.loading && <Loading rows={3} />}
      {[...groups.entries()].map(([g, cats]) => (
        <details key={g} className="group">
          <summary>
            {g} <span className="muted small">{cats.length}</span>
          </summary>
          <ul className="plain-list">
            {cats.map((c) => (
              <CategoryRow key={c.name} c={c} all={data?.categories ?? []} onChanged={refreshed} />
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

function CategoryRow({
  c,
  all,
  onChanged,
}: {
  c: CategoryWithGroup;
  all: CategoryWithGroup[];
  onChanged: () => void;
}) {
  const { canWrite } = useApp();
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const [value, setValue] = useState(c.name);
  const [reassign, setReassign] = useState("Miscellaneous");
  const { busy, error, run } = useAction();
  const path = { path: { old_name: c.name } };
  const rename = () =>
    run(async () => {
      await unwrap(
        api.PUT("/api/v1/categories/{old_name}", { params: path, body: { new_name: value.trim() } }),
      );
      setMode("view");
      onChanged();
    }, `Renamed to ${value.trim()}`);
  const remove = () =>
    run(async () => {
      const r = await unwrap(
        api.DELETE("/api/v1/categories/{name}", {
          params: { path: { name: c.name }, query: { reassign_to: reassign } },
        }),
      );
      onChanged();
      return r;
    }, `Deleted ${c.name}`);
  return (
    <li className="cat-row">
      <div className="row-between wrap">
        {mode === "rename" ? (
          <input
            aria-label={`New name for ${c.name}`}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            maxLength={60}
          />
        ) : (
          <span>{c.name}</span>
        )}
        <span className="inline">
          {mode === "view" && (
            <>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setMode("rename")}
                disabled={!canWrite}
              >
                Rename
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger-quiet"
                onClick={() => setMode("delete")}
                disabled={!canWrite}
              >
                Delete
              </button>
            </>
          )}
          {mode === "rename" && (
            <>
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={rename}
                disabled={busy || !value.trim()}
              >
                Save
              </button>
              <button type="button" className="btn btn-small" onClick={() => setMode("view")}>
                Cancel
              </button>
            </>
          )}
        </span>
      </div>
      {mode === "delete" && (
        <div className="inline wrap notice notice-warn">
          <label className="field">
            <span>Move its transactions to</span>
            <select value={reassign} onChange={(e) => setReassign(e.target.value)}>
              {all
                .filter((o) => o.name !== c.name)
                .map((o) => (
                  <option key={o.name}>{o.name}</option>
                ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-small btn-danger align-end"
            onClick={remove}
            disabled={busy}
          >
            Delete {c.name}
          </button>
          <button type="button" className="btn btn-small align-end" onClick={() => setMode("view")}>
            Cancel
          </button>
        </div>
      )}
      <ErrorNotice error={error} />
    </li>
  );
}
