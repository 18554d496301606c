/**
 * The secret inputs an import cannot carry: write-only ones no read gives back (a registry
 * password, a k3s secret's values) and secret ones that must not reach a program in plain text
 * (a BGP session password). Each becomes a config secret with a clear name (`ghcrIoPassword`,
 * `appSecretDbPassword`: the resource's logical name and the input, or the map key), which the
 * program reads and a person sets; nothing secret is written anywhere. Map-valued inputs get one
 * config secret per key, the keys as the object has them.
 */
import { configSecretPlaceholder } from "../provider/fields/configSecret";
import type { FieldSet } from "../provider/fields/declare";

export interface ConfigSecret {
  /** The config key (in the program's project namespace). */
  key: string;
  /** The input it sets, and the key within it for a map-valued input. */
  field: string;
  mapKey?: string;
}

/** The keys of a map-valued secret input, as the object has them (its values are what no read gives). */
const MAP_KEYS: Record<string, Record<string, (outputs: Record<string, unknown>) => string[]>> = {
  K3sSecret: { data: (o) => (Array.isArray(o.keys) ? o.keys.map(String) : []) },
  App: { environment: (o) => Object.keys((o.environment as Record<string, unknown> | null) ?? {}) },
};

/** camelCase of the words in `parts`: (`ghcr-io`, `password`) -> `ghcrIoPassword`, (`app-secret`, `DB_PASSWORD`) -> `appSecretDbPassword`. */
function configKey(...parts: string[]): string {
  const words = parts
    .join(" ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const [first = "secret", ...rest] = words;
  const key = [first, ...rest.map((w) => w[0].toUpperCase() + w.slice(1))].join("");
  return /^[a-z]/.test(key) ? key : `s${key}`;
}

/**
 * The config secrets one object's declaration needs: each secret input the object has a value
 * for. A write-only one (never read back: outputs lack it) is always there when the field is
 * required; a readable one only when the object holds a value (a BGP configuration without a password has none).
 */
export function configSecretsOf(
  kind: string,
  name: string,
  fields: FieldSet,
  outputs: Record<string, unknown>,
  required: (field: string) => boolean,
): ConfigSecret[] {
  return Object.entries(fields).flatMap(([field, f]): ConfigSecret[] => {
    if (f.role !== "input" || !f.secret) return [];
    const mapKeys = MAP_KEYS[kind]?.[field];
    if (mapKeys) return mapKeys(outputs).map((mapKey) => ({ key: configKey(name, mapKey), field, mapKey }));
    const value = outputs[field];
    const present = value !== undefined && value !== null && value !== "";
    return present || (value === undefined && required(field)) ? [{ key: configKey(name, field), field }] : [];
  });
}

/** The inputs an import file gives for the secrets: each the placeholder naming its config key (provider/fields/configSecret.ts). */
export function placeholderInputs(secrets: ConfigSecret[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const s of secrets) {
    if (s.mapKey === undefined) inputs[s.field] = configSecretPlaceholder(s.key);
    else inputs[s.field] = { ...((inputs[s.field] as Record<string, unknown>) ?? {}), [s.mapKey]: configSecretPlaceholder(s.key) };
  }
  return inputs;
}
