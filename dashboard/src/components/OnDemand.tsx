import { type ReactNode, useState } from "react";

/** A section whose body mounts (and so reads its data) only once it is opened. */
export function OnDemand({
  title,
  className,
  testId,
  children,
}: {
  title: ReactNode;
  className: string;
  testId: string;
  children: () => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className={className}
      data-testid={testId}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary>{title}</summary>
      {open && children()}
    </details>
  );
}
