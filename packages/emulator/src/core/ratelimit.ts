/**
 * Rate limiting (spec part 1, "Limits": 429 when exceeded, lifecycle endpoints tighter,
 * thresholds not shown). Token buckets: one per bearer token (or client address when there is
 * none) for the API at large, and a much smaller one per client address for the account
 * lifecycle endpoints (login, register, reset-password, verify-email, lock-account).
 */
export interface BucketSettings {
  /** Requests that may arrive at once. */
  burst: number;
  /** Requests added back per second. */
  perSecond: number;
}

export interface RateLimitSettings {
  general: BucketSettings;
  lifecycle: BucketSettings;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  general: { burst: 2000, perSecond: 1000 },
  lifecycle: { burst: 20, perSecond: 0.5 },
};

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();

  constructor(public settings: RateLimitSettings) {}

  /** Takes one request from the bucket; returns seconds to wait when it is empty, else 0. */
  take(key: string, which: keyof RateLimitSettings, now: number): number {
    const { burst, perSecond } = this.settings[which];
    const id = `${which}:${key}`;
    const bucket = this.buckets.get(id) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(id, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }

  reset(): void {
    this.buckets.clear();
  }
}
