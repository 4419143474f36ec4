import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A box that scrolls sideways on a phone, named and reachable by keyboard (so it can be scrolled
 * without a pointer). When its content is wider than the screen it says so above it, and shades
 * the side that has more, so no column is hidden without a cue.
 */
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
  const box = useRef<HTMLElement>(null);
  const [more, setMore] = useState<{ left: boolean; right: boolean }>({ left: false, right: false });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft > 2;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 2;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, []);
  const wide = more.left || more.right;
  return (
    <>
      {wide && (
        <p className="scroll-cue muted small" data-testid={testId ? `${testId}-cue` : "scroll-cue"}>
          {more.right
            ? "More columns to the right: swipe or scroll sideways →"
            : "← More columns to the left"}
        </p>
      )}
      <section
        ref={box}
        className={`${className}${more.right ? " has-more-right" : ""}${more.left ? " has-more-left" : ""}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access (WCAG 2.1.1)
        tabIndex={0}
        aria-label={label}
        data-testid={testId}
      >
        {children}
      </section>
    </>
  );
}
