import type { Db } from "../../db";
import { passwordIsSet } from "./queries";

/** Whether a dashboard password is set (ends trust-on-first-use). Missing table → not set. */
export async function isPasswordSet(db: Db): Promise<boolean> {
  try {
    return await passwordIsSet(db);
  } catch {
    return false;
  }
}
