/**
 * One async iterator over the paged envelope (spec part 1): follows the keyset `after` cursor
 * while `hasNext`, which works for page-numbered and keyset-paged lists alike.
 */
import type { Query, SvcClient } from "./client";

interface Envelope<T> {
  items: T[];
  hasNext: boolean;
  hasPrevious: boolean;
  after: string | null;
  before: string | null;
}

async function* paginate<T>(client: SvcClient, path: string, query: Query = {}, pageSize = 100): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const page = await client.get<Envelope<T>>(path, { ...query, limit: pageSize, after });
    if (!page || !Array.isArray(page.items)) throw new Error(`GET ${path} did not return the paged envelope (items, hasNext, after)`);
    yield* page.items;
    if (!page.hasNext || !page.after) return;
    after = page.after;
  }
}

export async function listAll<T>(client: SvcClient, path: string, query: Query = {}): Promise<T[]> {
  const out: T[] = [];
  for await (const item of paginate<T>(client, path, query)) out.push(item);
  return out;
}
