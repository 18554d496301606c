/**
 * What a create that failed after the API made its object leaves behind, so that the same create
 * called again (an error hook's retry, or the next `pulumi up`) converges on one object; and what
 * the same update called again can do (at the end).
 *
 * Why the object's condition decides: a create that fails with an id is recorded by the engine
 * as made, and the engine's retry of it is an Update of that id (pkg/v3 resource/deploy/step.go,
 * CreateStep.Apply: "any retries must update it rather than create another one"), which cannot
 * change the id. An object the next up would merely finish or repair (still moving, or a later
 * step failed) is kept with its id: the retry's Update, or the next up, finishes it in place. An
 * object the next up would replace (FAILED, the definition's `broken`) cannot be replaced by an
 * Update, so it is deleted now, the replacement's delete done first, and the create fails
 * without an id: the retry's Create, or the next up, makes it anew.
 */

/** The made object as read after the failure. */
export type Found =
  /** The API no longer shows it. */
  | "gone"
  /** The definition's `broken`: what the next up replaces. */
  | "broken"
  /** Moving, or settled with a later step failed: what the next up finishes or repairs in place. */
  | "repairable"
  /** The read failed too: its condition is unknown. */
  | "unread";

export type Remedy =
  /** Fail without an id: nothing is left to record. */
  | "forget"
  /** Delete it, then fail without an id; kept after all (`keep`) when the delete fails. */
  | "remove"
  /** Fail with its id (a partial failure): the stack keeps it. */
  | "keep";

/** By what was found; `removable` is false for a kind the API cannot delete (`retainOnDelete`). */
const REMEDIES: Record<Found, { removable: Remedy; retained: Remedy }> = {
  gone: { removable: "forget", retained: "forget" },
  broken: { removable: "remove", retained: "keep" },
  repairable: { removable: "keep", retained: "keep" },
  // Unknown is kept: an id in the stack orphans nothing.
  unread: { removable: "keep", retained: "keep" },
};

export function remedyFor(found: Found, removable: boolean): Remedy {
  return REMEDIES[found][removable ? "removable" : "retained"];
}

/** What was found after a failure, from the read (`current`) and the definition's `broken`. */
export function foundAfter<O>(current: O | undefined | "unread", broken?: (o: O) => boolean): Found {
  if (current === "unread") return "unread";
  if (!current) return "gone";
  return broken?.(current) ? "broken" : "repairable";
}

/**
 * What the same Update called again can do after it failed, by what was found. The engine's
 * retry of a failed update (an onError hook's) is an Update of the same id with the outputs
 * recorded before it (pkg/v3 resource/deploy/step.go, UpdateStep.Apply), and an Update cannot
 * change the id: it finishes or repairs an object in place, but one the next up would replace
 * (FAILED, the definition's `broken`) stays as it is, each retry refused by the API again.
 */
export type UpdateRetry =
  /** The retry runs the steps again on the object as it is: it converges where the API lets it. */
  | "in place"
  /** Only a replacement mends it: the next up's diff replaces it (provider/lifecycle/diff.ts). */
  | "next up replaces";

const UPDATE_RETRIES: Record<Found, UpdateRetry> = {
  broken: "next up replaces",
  repairable: "in place",
  // Gone or unknown: the retry's own read and request say what it is; nothing to add.
  gone: "in place",
  unread: "in place",
};

export function updateRetryFor(found: Found): UpdateRetry {
  return UPDATE_RETRIES[found];
}
