/**
 * The placeholder an import gives a secret input that no read can give back in a form a program
 * may hold (a registry password, a k3s secret's values, a BGP session password): the text
 * `svc-import-secret:<config key>`. svc-import writes it into the import file's `inputs` (pulumi
 * 3.254 and newer take values the provider's read lacks from there), so the import's check sees a
 * value, and the program `pulumi import` generates holds the placeholder where the secret goes;
 * `svc-import --finish` then turns each into a read of the named config secret. A placeholder is no
 * secret: it names the key, never the value. Declared once here: the importer writes and finds it,
 * the plugin never takes it for a recorded value.
 */

const PREFIX = "svc-import-secret:";

/** The placeholder for the config secret `key`. */
export const configSecretPlaceholder = (key: string): string => `${PREFIX}${key}`;

/** The config key a placeholder names, or undefined for any other value. */
export function placeholderKey(value: unknown): string | undefined {
  return typeof value === "string" && value.startsWith(PREFIX) ? value.slice(PREFIX.length) : undefined;
}

/** Whether a value is, or holds anywhere inside it, a placeholder rather than a real value. */
export function holdsPlaceholder(value: unknown): boolean {
  if (placeholderKey(value) !== undefined) return true;
  if (Array.isArray(value)) return value.some(holdsPlaceholder);
  if (value && typeof value === "object") return Object.values(value).some(holdsPlaceholder);
  return false;
}

/** Every placeholder in a program's text, by key (the quoted forms every language writes a string in). */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/svc-import-secret:([A-Za-z][A-Za-z0-9]*)/g)].map((m) => m[1]))];
}
