/** The configured zone's calendar: today's month, day and date (YYYY-MM-DD), days in a month. */
interface LocalToday {
  month: string;
  day: number;
  date: string;
  daysInMonth: number;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function localToday(now: Date, timeZone: string): LocalToday {
  const partsIn = (zone: string) =>
    new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).formatToParts(now);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = partsIn(timeZone);
  } catch {
    parts = partsIn("UTC");
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "01";
  const month = `${get("year")}-${get("month")}`;
  return { month, day: Number(get("day")), date: `${month}-${get("day")}`, daysInMonth: daysInMonth(month) };
}
