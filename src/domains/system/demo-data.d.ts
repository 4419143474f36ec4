// Types for the shared demo generator (plain JS so the Node scripts can run it unbuilt).
declare module "*/scripts/lib/demo-data.mjs" {
  export const DEMO_RECIPIENT: string;
  /** Rows keyed by the transactions table's column names; Amount in integer cents. */
  export function buildDemo(opts?: {
    seed?: number;
    today?: Date;
    months?: number;
  }): Record<string, unknown>[];
  export const DEMO_OVERRIDES: [company: string, category: string][];
  export const DEMO_BUDGET: {
    spending_ceiling: number;
    categories: Record<string, { target: number; input_mode: string; category_type: string }>;
  };
}
