/** postject ships no types: the one function scripts/release/plugin.ts calls (its README's API). */
declare module "postject" {
  export function inject(
    filename: string,
    resourceName: string,
    resource: Buffer,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
