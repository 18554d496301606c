/**
 * The emulator's notion of "now". Tests can move it forward (session expiry, invite lifetime,
 * scheduled terminations, coupon expiry) through POST /_emulator/clock without waiting.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  iso(at: number = this.now()): string {
    return new Date(at).toISOString();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }
}
