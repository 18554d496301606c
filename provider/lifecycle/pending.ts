/**
 * A create whose outcome could not be established before its deadline: the API may hold the new
 * object, but no lookup could say which. Such a resource is recorded in the stack under a
 * provisional id that carries when the attempt began, so that nothing is forgotten:
 *
 * - `pulumi up` replaces it, deleting first: the delete finds the object the attempt made (by its
 *   key, created since the attempt began) and removes it, then a fresh create runs;
 * - `pulumi refresh` resolves it to the real id (the engine accepts a new id from read), or drops
 *   it when the attempt made nothing;
 * - `pulumi destroy` deletes what the attempt made.
 *
 * The record is the evidence that this declaration made the object: the provider never takes
 * over an object whose creation the stack did not record.
 */
const PREFIX = "pending-create-";

/** The provisional id of a create attempt that began at `startedAt` (ms since epoch). */
export const pendingId = (startedAt: number): string => `${PREFIX}${startedAt}`;

/** When the attempt recorded under a provisional id began, or undefined for a real id. */
export function pendingSince(id: string | undefined): number | undefined {
  if (!id?.startsWith(PREFIX)) return undefined;
  const since = Number(id.slice(PREFIX.length));
  return Number.isFinite(since) ? since : undefined;
}
