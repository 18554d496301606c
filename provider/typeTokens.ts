/**
 * The type tokens of pulumi-svc's resources, on either face: the one place a tool, the plugin, the
 * policy packs or the dynamic classes learn a kind from a type or a type from a kind. In provider/,
 * not common/, because the dynamic classes register by it (provider/dynamic/classSupport.ts) and
 * nothing in provider/ imports from the tools' layers above it.
 */

/** The package's name in Pulumi: the plugin's, the tokens' first part, `pulumi:autonaming`'s provider key. */
export const PACKAGE_NAME = "svc";

/** The plugin face's token prefix: resources `svc:index:<Kind>`, invokes `svc:index:<lookup>`. */
export const TOKEN_PREFIX = `${PACKAGE_NAME}:index:`;

/** The dynamic face's type of a kind: the classes register it as the SDK's `pulumi.dynamic.Resource` would. */
export const dynamicType = (kind: string): string => `pulumi-nodejs:dynamic/svc:${kind}`;

/** The two type tokens of one kind: the dynamic face's and the plugin's. */
const KIND_TOKENS = [/^pulumi-nodejs:dynamic\/svc:(\w+)$/, new RegExp(`^${TOKEN_PREFIX}(\\w+)$`)];

/** The svc kind of a resource type token, either face; undefined for anything that is not a svc resource. */
export function kindOf(type: string): string | undefined {
  for (const token of KIND_TOKENS) {
    const m = token.exec(type);
    if (m) return m[1];
  }
  return undefined;
}
