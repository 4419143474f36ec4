import { money } from "../lib/format";

interface Props {
  value: number | null | undefined;
  incoming?: boolean;
  signed?: boolean;
  whole?: boolean;
  /** For a signed amount where more is better (net income): positive in green, negative in red. */
  invert?: boolean;
  className?: string;
}

/** A right-aligned, tabular amount; incoming money is shown with a plus and in green. */
export function Money({ value, incoming, signed, whole, invert, className = "" }: Props) {
  const text = incoming && value ? `+${money(value, { whole })}` : money(value, { signed, whole });
  const up = invert ? "amount-down" : "amount-up";
  const down = invert ? "amount-up" : "amount-down";
  const tone = incoming && value ? "amount-in" : signed && value ? (value > 0 ? up : down) : "";
  return <span className={`amount ${tone} ${className}`.trim()}>{text}</span>;
}
