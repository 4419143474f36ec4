/**
 * The demo household for a first run on this machine: the same generator `npm run seed:demo`
 * uses (scripts/lib/demo-data.mjs, one source), written through drizzle.
 */
import { buildDemo, DEMO_BUDGET, DEMO_OVERRIDES, DEMO_RECIPIENT } from "../../../scripts/lib/demo-data.mjs";

export const x = [buildDemo, DEMO_BUDGET, DEMO_OVERRIDES, DEMO_RECIPIENT];
