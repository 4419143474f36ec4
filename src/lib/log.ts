type Level = "debug" | "info" | "warn" | "error";

const SECRET_KEY = /(password|secret|token|api[_-]?key|authorization|cookie|hash)/i;

/** One structured JSON line. Values under secret-looking keys are never written. */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  const safe: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) safe[k] = SECRET_KEY.test(k) ? "[redacted]" : v;
  const line = JSON.stringify({ level, event, ...safe });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
