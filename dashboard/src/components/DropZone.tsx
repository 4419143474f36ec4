import { type ReactNode, useState } from "react";

/** A drop target for files: highlights while something is dragged over, hands the dropped files on. */
export function DropZone({
  onFiles,
  enabled,
  testId,
  label,
  busy,
  children,
}: {
  onFiles: (files: File[]) => void;
  enabled: boolean;
  testId: string;
  label: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const [dragging, setDragging] = useState(false);
  return (
    <section
      className={`dropzone${dragging ? " dragging" : ""}${enabled ? "" : " disabled"}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (enabled) onFiles(Array.from(e.dataTransfer.files));
      }}
      data-testid={testId}
      aria-label={label}
      aria-busy={busy}
    >
      {children}
    </section>
  );
}
