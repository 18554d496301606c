/**
 * A read that must not give up early: the lookups that decide whether a create happened (after an
 * ambiguous answer, or to find the id of an accepted create). Giving up there orphans the object
 * or duplicates it on the next run, so a transient failure (rate limit, server fault, lost
 * connection) is tried again, with the waiter's backoff, until the operation's deadline. Anything
 * else (a 400, a 403) is an answer and is thrown at once.
 */
import { isTransient } from "./client";
import { DeadlineError } from "../errors";
import { pollDelays } from "./workflows";
import { setTimeout as sleep } from "node:timers/promises";

export interface KeepTryingOptions {
  deadline: number;
  /** What is being looked up, for messages: "the recovery lookup". */
  what: string;
  /**
   * Told of a transient failure before the next try, to say so (not the client's `onRetry`, whose
   * event is one request's retry as the retry stage decided it).
   */
  onFailedAttempt?(err: Error, delayMs: number): void;
}

export async function keepTrying<T>(attempt: () => Promise<T>, opts: KeepTryingOptions): Promise<T> {
  const delays = pollDelays();
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isTransient(err)) throw err;
      const delay = delays.next();
      if (Date.now() + delay > opts.deadline)
        throw new DeadlineError(`${opts.what} kept failing until the deadline; the last answer: ${(err as Error).message}`);
      opts.onFailedAttempt?.(err as Error, delay);
      await sleep(delay);
    }
  }
}
