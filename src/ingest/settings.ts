/** What ingestion reads from configuration: getConfig() plus the blocked-company list. */
import { resolverReads } from "../categorize/resolver";
import { type Db, getDb } from "../db";
import { blockedListQuery } from "../domains/blocked-companies/service";
import type { AlertTemplateRow } from "../db/schema";
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
    const [blocked, cards, mapping, ...rest] = await db.batch([
      blockedListQuery(db),
      cardNamesQuery(db),
      mappingQuery(db, one?.recipient ?? ""),
      ...(resolver?.stmts ?? []),
      ...(year === undefined ? [] : [yearTargetsQuery(db, year)]),
      ...(host === undefined ? [] : [templatesForHostQuery(db, host)]),
      ...(unread?.part.queries ?? []),
    ]);
    const facts = unread ? unread.part.read(rest.splice(rest.length - unread.part.queries.length)) : null;
    const templates = host === undefined ? undefined : (rest.pop() as AlertTemplateRow[]);
    const docs = year === undefined ? undefined : (rest.pop() as { user_id: string; data: unknown }[]);
    return {
      blocked: blocked.map((r) => r.key),
      cardNames: cardNameMap(cards),
      prefetched:
        one && resolver
          ? {
              recipient: one.recipient,
              userId: mapping[0]?.userId ?? null,
              resolverVersion: resolver.take(rest),
              ...(docs && year !== undefined ? { targets: { year, docs } } : {}),
              ...(templates && host !== undefined ? { templates: { host, rows: templates } } : {}),
              ...(unread && facts ? { unread: { key: unread.key, facts } } : {}),
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
