/** Time is injected: every rule that depends on "now" reads a Clock. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function fixedClock(iso: string): Clock {
  const t = new Date(iso).getTime();
  return () => new Date(t);
}

export function ageSeconds(clock: Clock, iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.floor((clock().getTime() - t) / 1000));
}
