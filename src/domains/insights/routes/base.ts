import { ErrorEnvelope } from "../../../http/errors";

/** Documented error responses in the one envelope. */
export const errors = (table: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(table).map(([status, description]) => [
      status,
      { description, content: { "application/json": { schema: ErrorEnvelope } } },
    ]),
  );
