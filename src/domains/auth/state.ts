import { getDb } from "../../db";
import { passwordIsSet } from "./queries";

/** Whether a dashboard password is set (ends trust-on-first-use). Missing table → not set. */
export async function isPasswordSet(d1: D1Database): Promise<boolean> {
  try {
    return await passwordIsSet(getDb(d1));
  } catch {
    return false;
  }
}
