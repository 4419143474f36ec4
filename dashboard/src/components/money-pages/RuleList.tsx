// One rule list on the Rules page: rows with a delete button, a filter, and an add form.
import { type ReactNode, useState } from "react";
import { useApp } from "../../lib/app";
import { Empty, ErrorNotice, Loading } from "../States";
import { useAction } from "../useAction";

interface Props<T> {
  title: string;
  help: ReactNode;
  testId: string;
  items: T[] | undefined;
  loading: boolean;
  error: unknown;
  keyOf: (item: T) => string;
  render: (item: T) => ReactNode;
  onDelete: (item: T) => Promise<unknown>;
  /** The add form: its inputs, the write it makes, the toast after it and the button's words. */
  add: { fields: ReactNode; save: () => Promise<unknown>; done: string; button?: string };
  reload: () => void;
}

export function RuleList<T>({
  title,
  help,
  testId,
  items,
  loading,
  error,
  keyOf,
  render,
  onDelete,
  add,
  reload,
}: Props<T>) {
  const { canWrite } = useApp();
  const action = useAction();
  const [filter, setFilter] = useState("");
  const shown = (items ?? []).filter((i) => keyOf(i).toLowerCase().includes(filter.trim().toLowerCase()));
  const submit = (fn: () => Promise<unknown>, done: string) =>
    void action.run(async () => {
      await fn();
      reload();
    }, done);
  return (
    <div className="card" data-testid={testId}>
      <h2>
        {title} {items && <span className="count">{items.length}</span>}
      </h2>
      <p className="muted small">{help}</p>
      <form
        className="inline wrap"
        onSubmit={(e) => {
          e.preventDefault();
          submit(add.save, add.done);
        }}
      >
        {add.fields}
        <button type="submit" className="btn btn-small btn-primary" disabled={!canWrite || action.busy}>
          {add.button ?? "Add"}
        </button>
      </form>
      <ErrorNotice error={action.error ?? error} onRetry={error ? reload : undefined} />
      {!items && loading && <Loading rows={2} />}
      {items && items.length > 6 && (
        <input
          type="search"
          className="filter"
          placeholder="Filter…"
          aria-label={`Filter ${title.toLowerCase()}`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      {items && items.length === 0 && <Empty title="None yet" />}
      <ul className="plain-list rule-list">
        {shown.map((i) => (
          <li key={keyOf(i)} className="row-between">
            <span className="rule-text">{render(i)}</span>
            <button
              type="button"
              className="btn btn-small btn-danger-quiet"
              disabled={!canWrite || action.busy}
              onClick={() => submit(() => onDelete(i), "Deleted")}
              aria-label={`Delete ${keyOf(i)}`}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
