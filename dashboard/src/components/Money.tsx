import { money } from "../lib/format";

interface Props {
  value: number | null | undefined;
  incoming?: boolean;
  signed?: boolean;
  whole?: boolean;
  className?: string;
}

/** A right-aligned, tabular amount; incoming money is shown with a plus and in green. */
export function Money({ value, incoming, signed, whole, className = "" }: Props) {
  const text = incoming && value ? `+${money(value, { whole })}` : money(value, { signed, whole });
  const tone = incoming ? "amount-in" : signed && value ? (value > 0 ? "amount-up" : "amount-down") : "";
  return <span className={`amount ${tone} ${className}`.trim()}>{text}</span>;
}
