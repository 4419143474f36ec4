/**
 * The claim-line mapping: the packaged lines.json, or the personal mapping that replaces it.
 * Validation is pure and reports in words; a category claimed by two lines is a load error.
 */
import type { ValidationIssue } from "../../lib/errors";
import packaged from "./lines.json";

export const OTHER_KEY = "other";
export const OTHER_LABEL = "Other claimable";

export interface TaxLine {
  key: string;
  label: string;
  /** Country-specific reference: carried by the API, never shown in the UI or the CSV. */
  cra_ref: string | null;
  note: string | null;
  categories: string[];
}

export interface TaxMapping {
  version: number;
  lines: TaxLine[];
  /** lowercased category → line key */
  byCategory: ReadonlyMap<string, string>;
}

const KEY = /^[a-z][a-z0-9_]{0,31}$/;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Parses and checks a mapping document; `issues` names every problem (empty when valid). */
export function parseMapping(doc: unknown, loc: (string | number)[] = ["body"]) {
  const issues: ValidationIssue[] = [];
  const bad = (at: (string | number)[], msg: string) =>
    issues.push({ loc: [...loc, ...at], msg, type: "value_error" });
  const raw = (doc && typeof doc === "object" ? (doc as { lines?: unknown }).lines : undefined) as unknown;
  if (!Array.isArray(raw) || raw.length === 0) {
    bad(["lines"], "The mapping needs a non-empty `lines` list");
    return { mapping: null, issues };
  }
  const lines: TaxLine[] = [];
  const byCategory = new Map<string, string>();
  const keys = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const e = (entry && typeof entry === "object" ? entry : {}) as Record<string, unknown>;
    const key = str(e.key);
    if (!KEY.test(key)) bad(["lines", i, "key"], "A line key is lowercase letters, digits and _ (up to 32)");
    else if (key === OTHER_KEY) bad(["lines", i, "key"], "`other` is reserved for the Other claimable line");
    else if (keys.has(key)) bad(["lines", i, "key"], `Line key '${key}' appears twice`);
    keys.add(key);
    const label = str(e.label);
    if (!label || label.length > 80) bad(["lines", i, "label"], "A line needs a label (up to 80 characters)");
    const cats = Array.isArray(e.categories) ? e.categories : null;
    if (!cats) bad(["lines", i, "categories"], "A line needs a `categories` list");
    const categories: string[] = [];
    for (const [j, c] of (cats ?? []).entries()) {
      const name = str(c);
      if (!name) {
        bad(["lines", i, "categories", j], "A category name cannot be empty");
        continue;
      }
      const lower = name.toLowerCase();
      const owner = byCategory.get(lower);
      if (owner !== undefined && owner !== key)
        bad(
          ["lines", i, "categories", j],
          `Category '${name}' is claimed by two lines: '${owner}' and '${key}'`,
        );
      else if (owner === undefined) byCategory.set(lower, key);
      categories.push(name);
    }
    const note = str(e.note) || null;
    const ref = str(e.cra_ref) || null;
    lines.push({ key, label, cra_ref: ref, note, categories });
  });
  if (issues.length) return { mapping: null, issues };
  const version =
    typeof (doc as { version?: unknown }).version === "number" ? (doc as { version: number }).version : 1;
  return { mapping: { version, lines, byCategory } as TaxMapping, issues };
}

/** The packaged mapping; a broken lines.json throws (test/unit/domains/tax catches it before a deploy). */
export function packagedMapping(): TaxMapping {
  const { mapping, issues } = parseMapping(packaged, ["lines.json"]);
  if (!mapping) throw new Error(`lines.json does not load: ${issues.map((i) => i.msg).join("; ")}`);
  return mapping;
}

/** The stored document of a mapping (what PUT accepts and GET returns). */
/** The stored form of a mapping (tax_mapping.data, the R2 backup, the ledger images). */
export type TaxMappingDoc = ReturnType<typeof mappingDoc>;

export function mappingDoc(m: TaxMapping) {
  return {
    version: m.version,
    lines: m.lines.map((l) => ({
      key: l.key,
      label: l.label,
      cra_ref: l.cra_ref,
      note: l.note,
      categories: l.categories,
    })),
  };
}

/** A category renamed (or deleted: `to` null) in Categories, carried through the mapping's lines. */
export function renameCategory(m: TaxMapping, from: string, to: string | null): TaxMapping | null {
  const lower = from.toLowerCase();
  if (!m.byCategory.has(lower)) return null;
  const lines = m.lines.map((l) => ({
    ...l,
    categories: l.categories.flatMap((c) => (c.toLowerCase() === lower ? (to ? [to] : []) : [c])),
  }));
  return parseMapping({ version: m.version, lines }).mapping;
}
