/** What ingestion reads from configuration: getConfig() plus the blocked-company list. */
import { resolverReads } from "../categorize/resolver";
import { type Db, getDb, namedBatch } from "../db";
import { blockedListQuery } from "../domains/blocked-companies/service";
import { yearTargetsQuery } from "../domains/budget/queries";
import { getConfig } from "../domains/config/service";
import type { Env } from "../env";
import { log } from "../lib/log";
import type { Clock } from "../lib/clock";
import { type CardNameMap, cardNameMap, cardNamesQuery } from "../domains/card-names/names";
import { DEFAULT_JOURNAL_CURRENCY } from "./checks";
import type { IngestSettings } from "./types";
import { templatesForHostQuery } from "../domains/templates/engine/store";
import { DEFAULT_RECEIVERS } from "./received";
import { mappingQuery } from "./queries";
import { type UnreadKey, unreadPart } from "./unread";

/**
 * One email's reads, known before it is parsed (the Email Routing door knows the recipient from
 * the envelope): its user mapping and the override resolver's version (and lists when expired)
 * ride in the settings batch. Only for settings used for that one email (not an IMAP poll's).
 */
export interface OneEmail {
  recipient: string;
  clock: Clock;
  /**
   * The row's year when the caller knows it before the row is read (a typed date): the year's budget
   * targets join the batch, so the commit can write the context in the insert's own batch.
   */
  targetsYear?: number;
  /** A sender host whose learned templates the caller will read (a resolve that learns): they join too. */
  templatesHost?: string;
  /** The email's sender, Message-ID and hash: what an unread email reads (ingest/unread.ts) joins too. */
  unread?: UnreadKey;
}

interface Reads {
  blocked: string[];
  cardNames: CardNameMap;
  prefetched?: IngestSettings["prefetched"];
}

/** The reads in ONE batch. When it fails, the lists read as empty (fail-open: the email is still recorded). */
async function readAll(db: Db, one?: OneEmail): Promise<Reads> {
  const resolver = one ? resolverReads(db, one.clock) : null;
  const year = one?.targetsYear;
  const host = one?.templatesHost;
  const unread = one?.unread ? { key: one.unread, part: await unreadPart(db, one.unread) } : null;
  try {
    const r = await namedBatch(db, {
      blocked: blockedListQuery(db),
      cards: cardNamesQuery(db),
      mapping: mappingQuery(db, one?.recipient ?? ""),
      resolver: resolver?.stmts,
      docs: year === undefined ? undefined : yearTargetsQuery(db, year),
      templates: host === undefined ? undefined : templatesForHostQuery(db, host),
      unread: unread?.part.queries,
    });
    return {
      blocked: r.blocked.map((b) => b.key),
      cardNames: cardNameMap(r.cards),
      prefetched:
        one && resolver
          ? {
              recipient: one.recipient,
              userId: r.mapping[0]?.userId ?? null,
              resolverVersion: resolver.take(r.resolver ?? []),
              ...(r.docs && year !== undefined ? { targets: { year, docs: r.docs } } : {}),
              ...(r.templates && host !== undefined ? { templates: { host, rows: r.templates } } : {}),
              ...(unread && r.unread
                ? { unread: { key: unread.key, facts: unread.part.read(r.unread) } }
                : {}),
            }
          : undefined,
    };
  } catch (err) {
    log("warn", "ingest.settings_read_failed", { error: String(err) });
    return { blocked: [], cardNames: {} };
  }
}

export async function loadIngestSettings(env: Env, one?: OneEmail): Promise<IngestSettings> {
  const [config, reads] = await Promise.all([getConfig({ env }), readAll(getDb(env.DB), one)]);
  const { blocked, cardNames, prefetched } = reads;
  return {
    timezone: config.timezone,
    userId: config.user_id,
    aiCategorizationEnabled: config.ai_categorization_enabled,
    aiExtractionEnabled: config.ai_extraction_enabled,
    blockedCompanies: blocked,
    currency: config.journal_currency ?? DEFAULT_JOURNAL_CURRENCY,
    forwardingAddresses: config.forwarding_addresses ?? [],
    receivingAuthservIds: config.receiving_authserv_ids ?? DEFAULT_RECEIVERS,
    arcTrustedSealers: config.arc_trusted_sealers ?? [],
    cardNames,
    ...(prefetched ? { prefetched } : {}),
  };
}
