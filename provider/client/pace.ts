/**
 * How fast one process may send to the API: pure decisions over a small state, so the rules is a
 * table that can be read and tested on its own (as retry.ts is), with the clock passed in.
 *
 * The API answers 429 when a token's requests come faster than its limit, and says nothing of the
 * limit itself (spec part 1, Limits: "429 when exceeded … numeric thresholds: not shown"). Every
 * process on one token (the stacks of several CI jobs) shares that limit. The processes of one
 * machine share one pace state (paceStore.ts) and learn as one; those of different machines cannot
 * talk to each other. So each pace learns its share from the answers, the way TCP shares a link:
 *
 * - **Unpaced until told otherwise.** A process that has never been answered 429 (and has no cap)
 *   sends at once: the default API costs nothing extra.
 * - **Multiplicative decrease.** A 429 cuts the pace to `decrease` times what the API granted this
 *   process, once per congestion episode (429s for requests sent before the last cut do not cut
 *   again). The first 429 measures that over the last `windowMs`; a later one over the episode
 *   since the last cut: a 429 means the API's reserve was empty, so between two of them this
 *   process got exactly its share of what the API refills (a token bucket's rate), whatever the
 *   burst it allows. The pace at the refusal overstates it (the reserve paid the excess), which
 *   made the pace climb back past the limit within seconds. A cut never goes below `decrease`
 *   of the pace before it, though (`grantedShare`).
 *   Everything waits out the answer's Retry-After (a 429 means the API did nothing, spec part 1,
 *   Errors), so the requests in flight do not hammer it.
 * - **Increase.** Each request answered without 429 *that waited for its slot* (the pace
 *   was what held it) raises the pace by `gain / pace`: about `gain` requests/s more for every
 *   second spent sending at the pace, where the gain starts at the smaller of `increasePerSecond`
 *   and `increaseShare` of the pace per request answered after a cut, and grows the longer no 429 comes
 *   (`accelerateEveryS`). A process that sends less than its pace allows learns nothing and does
 *   not grow (its pace says nothing about the API then).
 * - Processes that cut by the same factor and grow by the same amount converge on equal shares
 *   (Chiu and Jain, 1989), whatever share each started from. But K processes growing by the same
 *   absolute amount probe K times as fast together: where each one's share is under one request a
 *   second, the token is refused far more often (eight stacks on 5 requests/s: 18% of requests
 *   answered 429, measured). Below one request a second the probe is relative to the pace
 *   (`increaseShare`), so such processes probe more gently, the more of them there are. A probe
 *   relative all the way up would keep the share of 429s the same for any number of processes,
 *   but it no longer evens out unequal shares, and stacks that came late finished late
 *   (bench/README.md, "Many processes on one token", has both, measured).
 * - **A cap** (`svc:maxRequestsPerSecond`) bounds the pace from the start, for people who know
 *   their limit.
 */
export interface PaceSettings {
  /** The pace after a 429, as a share of what was getting through. */
  decrease: number;
  /** The share instead, when the last cut was less than `crowdedWithinS` ago: refused again so soon, the token is crowded. */
  decreaseWhenCrowded: number;
  crowdedWithinS: number;
  /** Requests/s gained per second spent sending at the pace, right after a cut, at most. */
  increasePerSecond: number;
  /**
   * At most this share of the pace gained per request answered (`increaseShare` × pace² requests/s
   * per second): the smaller probe below `sqrt(increasePerSecond / increaseShare)`, one request a
   * second, where a process shares its token with many.
   */
  increaseShare: number;
  /**
   * After this many seconds without a cut, the gain grows by `increasePerSecond` every
   * `accelerateEveryS`: slow near the pace that was last refused (processes sharing a token cut
   * every few seconds, and a quick gain would make them refused more often), quicker the longer
   * the API accepts more (as CUBIC probes), so a process whose neighbours finished takes up the
   * freed budget in seconds, not minutes.
   */
  accelerateAfterS: number;
  accelerateEveryS: number;
  /**
   * Below the pace the last cut came down from, the share of the gap closed per second: the cut
   * takes a margin the API never asked for, so most of it comes back within seconds; only past
   * the old pace does the slow probe take over.
   */
  regain: number;
  /** The slowest pace (requests/s): below it a process would starve on a shared token. */
  minRate: number;
  /** How far back the rate that got through is measured (ms). */
  windowMs: number;
  /**
   * The shortest span that rate is measured over (ms): the first 429 often ends a burst the API
   * took from its reserve at once, which is no rate it can sustain.
   */
  minSpanMs: number;
  /** The wait after a 429 that carries no Retry-After (ms). */
  defaultPauseMs: number;
  /**
   * The pause after a 429 lasts its Retry-After plus up to this share of it again, drawn at random:
   * processes refused together (a token's CI jobs starting at once) do not all come back at once.
   */
  pauseSpread: number;
}

/** 0.7 as CUBIC cuts (a gentler sawtooth than halving: more of the limit is used). */
export const PACE_SETTINGS: PaceSettings = {
  decrease: 0.7,
  decreaseWhenCrowded: 0.6,
  crowdedWithinS: 5,
  increasePerSecond: 0.15,
  increaseShare: 0.15,
  accelerateAfterS: 10,
  accelerateEveryS: 3,
  regain: 0.3,
  minRate: 0.1,
  windowMs: 5_000,
  minSpanMs: 2_000,
  defaultPauseMs: 1_000,
  pauseSpread: 0.5,
};

export interface PaceState {
  /** Requests/s this process sends at; null while no 429 has been seen. */
  rate: number | null;
  /** The user's cap (requests/s), or null. */
  cap: number | null;
  /** When the next request may start (ms since epoch). */
  nextAt: number;
  /** No request starts before this (a 429's Retry-After). */
  pausedUntil: number;
  /** When the pace was last cut: 429s for requests sent before it belong to that episode. */
  cutAt: number;
  /** The rate the last cut came down from (what the API granted): regained quickly, passed slowly. */
  ceiling: number;
  /** Requests answered without 429 since the last cut: the episode's granted rate. */
  grantedSinceCut: number;
  /** When requests were answered without 429, for the last `windowMs` (oldest first). */
  granted: number[];
}

export function initialPace(cap: number | null = null): PaceState {
  return { rate: null, cap, nextAt: 0, pausedUntil: 0, cutAt: -Infinity, ceiling: 0, grantedSinceCut: 0, granted: [] };
}

/** The rate requests are spaced at: the learned pace under the cap; Infinity when neither holds. */
export function effectiveRate(s: PaceState): number {
  return Math.min(s.rate ?? Infinity, s.cap ?? Infinity);
}

/** Whether requests are being spaced at all (a 429 was seen, or a cap is set). */
export function isPaced(s: PaceState): boolean {
  return effectiveRate(s) < Infinity;
}

/** The earliest start for a request asked for `now`, and the state once it has taken that slot. */
export function takeSlot(s: PaceState, now: number): { at: number; state: PaceState } {
  const at = Math.max(now, s.nextAt, s.pausedUntil);
  const rate = effectiveRate(s);
  return { at, state: { ...s, nextAt: rate === Infinity ? at : at + 1000 / rate } };
}

export interface Answer {
  /** The HTTP status, or undefined for a network failure. */
  status: number | undefined;
  /** When the request was sent (ms since epoch). */
  sentAt: number;
  /** Whether it waited for its slot (the pace, not the caller, decided when it went). */
  waited: boolean;
  /** A 429's Retry-After (ms). */
  retryAfterMs?: number;
}

function recent(granted: number[], now: number, windowMs: number): number[] {
  const from = now - windowMs;
  let i = 0;
  while (i < granted.length && granted[i] < from) i++;
  return i ? granted.slice(i) : granted;
}

/** The rate (requests/s) that got through over the window; over the time since the first, while shorter (but at least `minSpanMs`). */
export function grantedRate(s: PaceState, now: number, settings: PaceSettings = PACE_SETTINGS): number {
  const within = recent(s.granted, now, settings.windowMs);
  if (within.length === 0) return settings.minRate;
  const span = Math.max(settings.minSpanMs, now - within[0]);
  return (within.length * 1000) / span;
}

/**
 * What the API granted this process, the rate a 429 cuts from: over the episode since the last
 * cut when it lasted `minSpanMs`, else over the window (the first 429); never above the pace, and
 * never below `decrease` of it: a process that sent less than its pace allowed (its resources
 * waiting on workflows) would otherwise be cut far below its share for a 429 others caused, and
 * straggle at the end (four stacks on one token: 1.52x the floor instead of 1.20x).
 */
function grantedShare(s: PaceState, now: number, settings: PaceSettings = PACE_SETTINGS): number {
  const span = now - s.cutAt;
  if (s.rate === null || span === Infinity) return Math.min(s.rate ?? Infinity, grantedRate(s, now, settings));
  if (span < settings.minSpanMs) return s.rate;
  return Math.max(settings.decrease * s.rate, Math.min(s.rate, (s.grantedSinceCut * 1000) / span));
}

/**
 * What the pace grows by, in requests/s per second spent sending at it, after a request answered
 * without 429 that waited for its slot: the probe (the smaller of the absolute and the relative
 * one, both quicker the longer no 429 comes) or, below the pace the last cut came down from, the
 * regain of the gap, whichever is larger.
 */
export function gainPerSecond(s: PaceState, now: number, settings: PaceSettings = PACE_SETTINGS): number {
  const rate = s.rate ?? 0;
  const quietS = Math.max(0, now - s.cutAt) / 1000;
  const accelerate = 1 + Math.max(0, quietS - settings.accelerateAfterS) / settings.accelerateEveryS;
  const probe = Math.min(settings.increasePerSecond, settings.increaseShare * rate * rate) * accelerate;
  return Math.max(probe, settings.regain * (s.ceiling - rate));
}

/** The state after an answer arrives at `now`; `random` (0 to 1) spreads the pause after a 429. */
export function onAnswer(
  s: PaceState,
  a: Answer,
  now: number,
  settings: PaceSettings = PACE_SETTINGS,
  random: () => number = Math.random,
): PaceState {
  if (a.status === 429) {
    const pauseMs = (a.retryAfterMs ?? settings.defaultPauseMs) * (1 + settings.pauseSpread * random());
    const pausedUntil = Math.max(s.pausedUntil, now + pauseMs);
    if (a.sentAt < s.cutAt) return { ...s, pausedUntil };
    const ceiling = grantedShare(s, now, settings);
    const crowded = now - s.cutAt < settings.crowdedWithinS * 1000;
    const rate = Math.max(settings.minRate, (crowded ? settings.decreaseWhenCrowded : settings.decrease) * ceiling);
    return { ...s, rate, ceiling, pausedUntil, cutAt: now, grantedSinceCut: 0, nextAt: Math.max(s.nextAt, pausedUntil) };
  }
  if (a.status === undefined) return s;
  const granted = [...recent(s.granted, now, settings.windowMs), now];
  const grantedSinceCut = s.grantedSinceCut + 1;
  if (s.rate === null || !a.waited) return { ...s, granted, grantedSinceCut };
  const grown = s.rate + gainPerSecond(s, now, settings) / s.rate;
  return { ...s, granted, grantedSinceCut, rate: s.cap === null ? grown : Math.min(grown, s.cap) };
}
