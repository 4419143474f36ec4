import { type ReactNode, useRef, useState } from "react";

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

/** The drop zone's other way in: a button that opens the file chooser, handing on one file. */
export function ChooseFile({
  accept,
  label,
  testId,
  disabled,
  onFile,
  children,
}: {
  accept: string;
  label: string;
  testId: string;
  disabled: boolean;
  onFile: (file: File | undefined) => void;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => input.current?.click()}
        disabled={disabled}
      >
        {children}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        data-testid={testId}
        onChange={(e) => {
          onFile(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
    </>
  );
}
