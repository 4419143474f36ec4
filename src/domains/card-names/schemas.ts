import { z } from "zod";

const Digits = z.string().regex(/^\d{4}$/, "must be the card's last four digits");
const Holder = z.string().trim().min(1).max(100);

export const CardNameMapping = z
  .record(z.string().trim().min(1).max(100), z.record(Digits, Holder))
  .describe("Institution → card last four digits → cardholder first name")
  .meta({
    id: "CardNameMapping",
    description:
      "SPEC's `Name`: when an alert greets nobody, the holder of the card it names (as the reference's card_name_mappings.json).",
  });
export type CardNameMapping = z.infer<typeof CardNameMapping>;

export const CardNamesResponse = z
  .object({ count: z.number().int(), mappings: CardNameMapping })
  .meta({ id: "CardNamesResponse" });
