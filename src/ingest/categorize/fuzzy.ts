/**
 * Tier 3: cosine similarity between the merchant and every override key, over embeddings from
 * the configured provider. Vectors are cached in D1 (`embeddings`, keyed by model and text) and
 * in memory, so each override key is embedded once per model.
 */
import type { AiProvider } from "../../ai/provider";
import { log } from "../../lib/log";
import { normalizeMerchant } from "./normalize";
import { cosine, type ResolverHit, type ResolverIndex } from "./rules";

export const FUZZY_THRESHOLD_AUTOMATIC = 0.9;
export const FUZZY_THRESHOLD_RECONCILER = 0.85;

const memory = new Map<string, number[]>();
const memKey = (model: string, text: string) => `${model}\u0000${text}`;

async function readCached(db: D1Database, model: string, texts: string[]): Promise<void> {
  const missing = texts.filter((t) => !memory.has(memKey(model, t)));
  for (let i = 0; i < missing.length; i += 50) {
    const chunk = missing.slice(i, i + 50);
    const { results } = await db
      .prepare(
        `SELECT text, vector FROM embeddings WHERE model = ? AND text IN (${chunk.map(() => "?").join(",")})`,
      )
      .bind(model, ...chunk)
      .all<{ text: string; vector: string }>();
    for (const r of results) memory.set(memKey(model, r.text), JSON.parse(r.vector) as number[]);
  }
}

/** Vectors for `texts`, embedding (and storing) only the ones never seen before. */
export async function embedAll(db: D1Database, ai: AiProvider, texts: string[], nowIso: string) {
  const model = ai.embeddingModel;
  const unique = [...new Set(texts.filter(Boolean))];
  try {
    await readCached(db, model, unique);
  } catch (err) {
    log("warn", "fuzzy.cache_read_failed", { error: String(err) });
  }
  const missing = unique.filter((t) => !memory.has(memKey(model, t)));
  for (let i = 0; i < missing.length; i += 100) {
    const chunk = missing.slice(i, i + 100);
    const vectors = await ai.embed(chunk);
    const writes = chunk.map((t, j) => {
      const v = vectors[j] ?? [];
      memory.set(memKey(model, t), v);
      return db
        .prepare("INSERT OR REPLACE INTO embeddings (model, text, vector, created_at) VALUES (?, ?, ?, ?)")
        .bind(model, t, JSON.stringify(v), nowIso);
    });
    await db.batch(writes).catch((err) => log("warn", "fuzzy.cache_write_failed", { error: String(err) }));
  }
  return (t: string) => memory.get(memKey(model, t)) ?? [];
}

/** Best override key at or above `threshold`, else null. Throws AiError on provider failure. */
export async function resolveFuzzy(
  db: D1Database,
  ai: AiProvider,
  index: ResolverIndex,
  company: string | null,
  nowIso: string,
  threshold = FUZZY_THRESHOLD_AUTOMATIC,
): Promise<ResolverHit | null> {
  const name = normalizeMerchant(company);
  if (!name || index.overrides.length === 0) return null;
  const keys = index.overrides.map((o) => ({
    o,
    text: normalizeMerchant(o.company) || o.company.toLowerCase(),
  }));
  const vectorOf = await embedAll(db, ai, [name, ...keys.map((k) => k.text)], nowIso);
  const target = vectorOf(name);
  let best: { score: number; o: (typeof keys)[number]["o"] } | null = null;
  for (const k of keys) {
    const score = cosine(target, vectorOf(k.text));
    if (!best || score > best.score) best = { score, o: k.o };
  }
  if (!best || best.score < threshold) return null;
  return {
    category: best.o.category,
    source: "override_fuzzy",
    matched_rule: best.o.company,
    confidence: Math.round(best.score * 10_000) / 10_000,
    tier: 3,
  };
}

export function clearEmbeddingMemory(): void {
  memory.clear();
}
