/** Tool schemas for forced function calls (JSON Schema; strict-compatible shapes). */
import { ALERT_TYPES } from "../lib/transaction-types";
import type { ToolSpec } from "./provider";

/** `category` is constrained to the user's category list. */
export function categorizeTool(categories: readonly string[]): ToolSpec {
  return {
    name: "categorize_transaction",
    description: "Assign exactly one spending category to a bank transaction.",
    parameters: {
      type: "object",
      properties: {
        category: { type: "string", enum: [...categories], description: "One of the allowed categories" },
      },
      required: ["category"],
      additionalProperties: false,
    },
  };
}

export const detectAlertTool: ToolSpec = {
  name: "detect_if_transaction_alert",
  description:
    "Decide whether an email is a bank or card alert about one specific money movement " +
    "(purchase, withdrawal, pre-authorized payment or e-transfer).",
  parameters: {
    type: "object",
    properties: {
      is_transaction_alert: { type: "boolean" },
    },
    required: ["is_transaction_alert"],
    additionalProperties: false,
  },
};

export const extractTransactionTool: ToolSpec = {
  name: "extract_transaction",
  description:
    "Extract the single transaction an alert email reports. Copy the amount and the merchant or " +
    "recipient exactly as they appear in the email; use null for a company that is not named.",
  parameters: {
    type: "object",
    properties: {
      amount: { type: "number", description: "The amount as written in the email, without currency sign" },
      company: { type: ["string", "null"], description: "Merchant or recipient, verbatim from the email" },
      transaction_type: { type: "string", enum: [...ALERT_TYPES] },
    },
    required: ["amount", "company", "transaction_type"],
    additionalProperties: false,
  },
};
