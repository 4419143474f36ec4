/** Whether a dashboard password is set (ends trust-on-first-use). Missing table → not set. */
export async function isPasswordSet(db: D1Database): Promise<boolean> {
  try {
    const row = await db
      .prepare("SELECT 1 AS one FROM auth_settings WHERE id = 'owner' AND password_hash IS NOT NULL")
      .first("one");
    return row !== null;
  } catch {
    return false;
  }
}
