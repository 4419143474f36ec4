import { type ReactNode, useState } from "react";

/** A section whose body mounts (and so reads its data) only once it is opened; its summary shows
 * an arrow that turns when open (a flex summary loses the browser's own marker). */
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
      className={`on-demand ${className}`}
      data-testid={testId}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary>{title}</summary>
      {open && children()}
    </details>
  );
}
