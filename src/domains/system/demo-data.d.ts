// Types for the shared demo generator (plain JS so the Node scripts can run it unbuilt).
declare module "*/scripts/lib/demo-data.mjs" {
  export const DEMO_RECIPIENT: string;
  export const DEMO_NAME: string;
  /** Raw alert emails in the banks' wording, oldest first, with when the bank sent each. */
  export function buildDemoEmails(opts?: { seed?: number; today?: Date; months?: number }): {
    raw: string;
    at: Date;
  }[];
  /** What is left to do: alerts to review (another currency) and one from a bank no reader knows. */
  export function buildDemoChores(opts?: { today?: Date }): {
    review: { raw: string; at: Date }[];
    unknownBank: { raw: string; at: Date };
  };
  /** The card statement of the last whole month (or `monthsBack` months ago) as OFX, or null. */
  export function buildDemoStatement(opts?: {
    seed?: number;
    today?: Date;
    months?: number;
    monthsBack?: number;
  }): {
    filename: string;
    text: string;
    rows: number;
  } | null;
  export const DEMO_OVERRIDES: [company: string, category: string][];
  export const DEMO_BUDGET: {
    spending_ceiling: number;
    categories: Record<string, { target: number; input_mode: string; category_type: string }>;
  };
  export const DEMO_GROUPS: { groups: { name: string; categories: string[] }[] };
  /** The seeded generator the household is drawn from: numbers in [0, 1). */
  export function prng(seed: number): () => number;
}

declare module "*/scripts/lib/demo-alerts.mjs" {
  /** One raw alert email in a bank's wording (`p`: the local wall-clock parts it was sent at). */
  export function alertEmail(
    e: {
      institution: string;
      type: string;
      company: string;
      cents: number;
      card: string;
      ref: string;
      id: string;
    },
    p: {
      year: number;
      month: number;
      day: number;
      hour: number;
      minute: number;
      weekday: number;
      offset: number;
    },
    who: { recipient: string; name: string },
  ): string;
}

declare module "*/scripts/lib/demo-receipts.mjs" {
  /** A one-page PDF store receipt. */
  export function receiptPdf(opts: {
    merchant: string;
    day: string;
    cents: number;
    items: string[];
  }): Uint8Array;
}
