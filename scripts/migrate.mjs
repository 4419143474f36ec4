// npm run migrate [-- --persist-to DIR | --remote]: applies migrations/ to D1.
import { applyMigrations, stateArgs } from "./lib/wrangler.mjs";

applyMigrations(stateArgs(process.argv.slice(2)));
