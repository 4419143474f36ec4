import type { ReactNode } from "react";

/** A box that scrolls sideways on a phone, named and reachable by keyboard (so it can be scrolled without a pointer). */
export function ScrollRegion({
  label,
  className = "table-scroll",
  testId,
  children,
}: {
  label: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access (WCAG 2.1.1)
    <section className={className} tabIndex={0} aria-label={label} data-testid={testId}>
      {children}
    </section>
  );
}
