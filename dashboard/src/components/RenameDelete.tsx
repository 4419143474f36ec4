/** Rename (then Save) and Delete for one named, learned item (a bank's template, a statement layout). */
export function RenameDelete({
  name,
  editing,
  disabled,
  onEdit,
  onSave,
  onDelete,
}: {
  name: string;
  /** The name being typed, or null when not renaming. */
  editing: string | null;
  disabled: boolean;
  onEdit: () => void;
  onSave: () => void;
  onDelete: () => void;
}) {
  return (
    <span className="inline">
      {editing === null ? (
        <button type="button" className="btn btn-small" disabled={disabled} onClick={onEdit}>
          Rename
        </button>
      ) : (
        <button
          type="button"
          className="btn btn-small"
          disabled={disabled || !editing.trim()}
          onClick={onSave}
        >
          Save
        </button>
      )}
      <button
        type="button"
        className="btn btn-small btn-danger-quiet"
        disabled={disabled}
        onClick={onDelete}
        aria-label={`Delete ${name}`}
      >
        Delete
      </button>
    </span>
  );
}
