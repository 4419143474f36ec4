/**
 * CaptureSummary (SPEC.md): the share of statement rows an alert email had already captured,
 * overall, by institution and by type; null until reconciled rows exist. GET /coverage reads it.
 */
import { eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../db";
import { round2 } from "../../lib/money";
import { STATEMENT_RECIPIENT } from "./views";

const s = schema.statements;
const r = schema.statementRows;

export interface CaptureBucket {
  caught: number;
  total: number;
  rate: number;
}
export interface CaptureSummary {
  overall: CaptureBucket;
  by_institution: (CaptureBucket & { institution: string })[];
  by_type: (CaptureBucket & { type: string })[];
}

const bucket = (caught: number, total: number): CaptureBucket => ({
  caught,
  total,
  rate: total ? round2(caught / total) : 0,
});

export async function captureSummary(d1: D1Database): Promise<CaptureSummary | null> {
  const caught = sql<number>`SUM(CASE WHEN ${r.reconcile_tier} IN ('matched', 'ambiguous', 'suspected_duplicate')
    AND ${r.db_forwarded_to} IS NOT NULL
    AND ${r.db_forwarded_to} NOT IN (${STATEMENT_RECIPIENT}, 'manual@finance-journal.local') THEN 1 ELSE 0 END)`;
  const groups = await getDb(d1)
    .select({ institution: s.institution, type: r.type, caught, total: sql<number>`COUNT(*)` })
    .from(r)
    .innerJoin(s, eq(s.id, r.statement_id))
    .groupBy(s.institution, r.type)
    .all();
  if (groups.length === 0) return null;
  const sum = (rows: typeof groups) =>
    bucket(
      rows.reduce((a, g) => a + Number(g.caught), 0),
      rows.reduce((a, g) => a + Number(g.total), 0),
    );
  const institutions = [...new Set(groups.map((g) => g.institution))].sort();
  return {
    overall: sum(groups),
    by_institution: institutions.map((institution) => ({
      institution,
      ...sum(groups.filter((g) => g.institution === institution)),
    })),
    by_type: ["withdrawal", "deposit"].map((type) => ({
      type,
      ...sum(groups.filter((g) => g.type === type)),
    })),
  };
}
