/**
 * Tier 3: cosine similarity between the merchant and every override key, over embeddings from
 * the configured provider. Vectors are cached in D1 (`embeddings`, keyed by model and text) and
 * in memory, so each override key is embedded once per model. The memory copy is dropped with
 * the resolver's cache (invalidateResolverCache), when the override keys change.
 */
import type { AiProvider } from "../ai/provider";
import { z } from "zod";
import type { Db } from "../db";
import { storedJson } from "../db/json";
import { log } from "../lib/log";
import { cachedVectorsQuery, putVectorQuery } from "./embedding-queries";
import { normalizeMerchant } from "./normalize";
import { cosine, inAmbiguousGroup, type ResolverHit, type ResolverIndex } from "./rules";

export const FUZZY_THRESHOLD_AUTOMATIC = 0.9;
/** The statements reconciler's looser threshold (a person confirms its matches). */
export const FUZZY_THRESHOLD_RECONCILER = 0.85;

/** Scores closer than this are a tie: the embedding cannot tell the keys apart. */
const TIE = 1e-6;

const memory = new Map<string, number[]>();
const memKey = (model: string, text: string) => `${model}\u0000${text}`;

/** Forgets the in-memory vectors (the D1 cache stays). */
export function clearEmbeddingMemory(): void {
  memory.clear();
}

/** A cached vector; an unreadable one is empty (its text matches nothing; logged). */
const readVector = storedJson("embeddings.vector", z.array(z.number()), { value: () => [] });

async function readCached(db: Db, model: string, texts: string[]): Promise<void> {
  const missing = texts.filter((t) => !memory.has(memKey(model, t)));
  // 50 texts + the model stay under D1's 100 bound parameters per query.
  for (let i = 0; i < missing.length; i += 50) {
    const chunk = missing.slice(i, i + 50);
    const rows = await cachedVectorsQuery(db, model, chunk);
    for (const r of rows) memory.set(memKey(model, r.text), readVector(r.vector));
  }
}

/** Vectors for `texts`, embedding (and storing) only the ones never seen before. */
export async function embedAll(db: Db, ai: AiProvider, texts: string[], nowIso: string) {
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
      const vector = vectors[j] ?? [];
      memory.set(memKey(model, t), vector);
      return putVectorQuery(db, { model, text: t, vector, created_at: nowIso });
    });
    const [first, ...rest] = writes;
    if (!first) continue;
    await db
      .batch([first, ...rest])
      .catch((err) => log("warn", "fuzzy.cache_write_failed", { error: String(err) }));
  }
  return (t: string) => memory.get(memKey(model, t)) ?? [];
}

interface FuzzyInput {
  ai: AiProvider;
  index: ResolverIndex;
  company: string | null;
  nowIso: string;
  threshold?: number;
}

/**
 * Best override key at or above `threshold`, else null. Null too when the ambiguity rule holds
 * there: the best key's group names two categories, or keys as close as it name another category
 * (the model decides, never a full-confidence pick of one side). Throws AiError on provider failure.
 */
export async function resolveFuzzy(
  db: Db,
  { ai, index, company, nowIso, threshold = FUZZY_THRESHOLD_AUTOMATIC }: FuzzyInput,
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
  const top = best;
  const rivals = keys.filter(
    (k) =>
      k.o.category.toLowerCase() !== top.o.category.toLowerCase() &&
      top.score - cosine(target, vectorOf(k.text)) < TIE,
  );
  if (inAmbiguousGroup(index, top.o.company) || rivals.length > 0) return null;
  return {
    category: best.o.category,
    source: "override_fuzzy",
    matched_rule: best.o.company,
    confidence: Math.round(best.score * 10_000) / 10_000,
    tier: 3,
  };
}
