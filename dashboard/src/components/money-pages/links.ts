// Links into the search page: a category or merchant over a month range (search needs from and to).
export function searchHref(f: { from: string; to: string; category?: string; company?: string }): string {
  const q = new URLSearchParams({ from: f.from, to: f.to });
  if (f.category) q.set("category", f.category);
  if (f.company) q.set("company", f.company);
  return `/search?${q.toString()}`;
}
