/** The configured zone's calendar: today's month and day, days in a month. */
export interface LocalToday {
  month: string;
  day: number;
  daysInMonth: number;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function localToday(now: Date, timeZone: string): LocalToday {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: "UTC",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).formatToParts(now);
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "01";
  const month = `${get("year")}-${get("month")}`;
  return { month, day: Number(get("day")), daysInMonth: daysInMonth(month) };
}
