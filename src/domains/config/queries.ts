const ROW_ID = "app";

export async function readStoredConfig(db: D1Database): Promise<unknown | null> {
  const row = await db.prepare("SELECT data FROM app_config WHERE id = ?").bind(ROW_ID).first<string>("data");
  return row === null ? null : JSON.parse(row);
}

export async function writeStoredConfig(db: D1Database, data: unknown, nowIso: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO app_config (id, data, version, updated_at) VALUES (?1, ?2, 1, ?3)
       ON CONFLICT (id) DO UPDATE SET data = ?2, version = version + 1, updated_at = ?3`,
    )
    .bind(ROW_ID, JSON.stringify(data), nowIso)
    .run();
}
