import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../src/db/schema";
import { yearAggregates } from "../../src/domains/income/queries";
const calls: any[] = [];
const fake: any = {
  prepare(sql: string) { const st: any = { sql, bind: (...p: any[]) => { st.p = p; return st; } }; calls.push(st); return st; },
  batch: async (sts: any[]) => { for (const s of sts) console.log(s.sql, "\n", JSON.stringify(s.p)); throw new Error("stop"); },
};
const db = drizzle(fake, { schema });
await yearAggregates(db as any, "2025.01.", "2025.12/", 2025, "default").catch((e) => console.log(String(e)));
