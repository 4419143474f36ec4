export declare function seedDemoState(opts?: {
  persistTo?: string | null;
  today?: string | null;
  seed?: number | null;
  log?: (line: string) => void;
}): Promise<{
  transactions: number;
  emails: number;
  quarantined: number;
  statement_imported: number;
  overrides: number;
  budget_year: number | null;
  recipient: string;
  ms: number;
}>;
