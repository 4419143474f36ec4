/**
 * Page furniture: text a statement prints at the same place on most of its pages (a bank's stamp
 * laid over the rows, a footer, the legal lines), never part of a row. Found by position and text
 * alone, on statements of three pages or more: an item counts when the same text stands at the
 * same point on at least 60% of the pages. Pure.
 */
import type { Line } from "./layout";
import type { TextItem } from "./pdf-text";

const keyOf = (it: TextItem) => `${Math.round(it.x)}:${Math.round(it.y)}:${it.str}`;

/** The keys of the items repeated in place over most pages (empty below three pages). */
export function furnitureOf(lines: readonly Line[]): Set<string> {
  const pages = new Set(lines.map((l) => l.page)).size;
  const out = new Set<string>();
  if (pages < 3) return out;
  const seen = new Map<string, Set<number>>();
  for (const l of lines)
    for (const it of l.items) {
      const k = keyOf(it);
      const on = seen.get(k) ?? new Set<number>();
      on.add(l.page);
      seen.set(k, on);
    }
  for (const [k, on] of seen) if (on.size >= Math.max(3, Math.ceil(pages * 0.6))) out.add(k);
  return out;
}

/** The line without its furniture (the same line when it holds none). */
export function withoutFurniture(line: Line, furniture: ReadonlySet<string>): Line {
  if (furniture.size === 0) return line;
  const items = line.items.filter((it) => !furniture.has(keyOf(it)));
  return items.length === line.items.length ? line : { ...line, items };
}
