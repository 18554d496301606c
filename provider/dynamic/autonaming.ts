/**
 * `pulumi:autonaming` on the dynamic face. The engine reads the stack's setting and sends what it
 * asks with Check only to a provider that says it supports it (the plugin does); the SDK's
 * dynamic-provider host does not, so a class does the engine's part itself, from the same stack
 * config, as pulumi/pulumi's pkg/resource/autonaming documents it:
 *
 *   pulumi:autonaming:
 *     mode: default | verbatim | disabled          # or
 *     pattern: ${stack}-${name}-${hex(6)}          # with enforce: true to forbid changes
 *     providers:
 *       svc:
 *         pattern: ...                            # every svc kind
 *         resources:
 *           "svc:index:App": { mode: verbatim }   # one kind
 *
 * The most specific setting wins: the type's, the provider's, the stack's. A pattern's stack
 * expressions (`${organization}`, `${project}`, `${stack}`, `${config.<key>}`) and `${name}` are
 * resolved here, then its random ones (`${hex(n)}`, `${alphanum(n)}`, `${string(n)}`,
 * `${num(n)}`, `${uuid}`). What it asks is carried to the provider's check as the same `Asked`
 * the plugin reads from the engine (provider/lifecycle/autoname.ts). Loaded by programs: no zod.
 */
import { randomInt, randomUUID } from "node:crypto";
import type { Asked } from "../lifecycle/autoname";

/** One level of the setting, as the stack config holds it. */
export interface NamingSetting {
  mode?: "default" | "verbatim" | "disabled";
  pattern?: string;
  enforce?: boolean;
}

/** The whole `pulumi:autonaming` value. */
export interface AutonamingSetting extends NamingSetting {
  providers?: Record<string, NamingSetting & { resources?: Record<string, NamingSetting> }>;
}

/** What a pattern's stack expressions stand for. */
export interface StackNames {
  organization: string;
  project: string;
  stack: string;
  /** A value of the project's config (`${config.<key>}`); undefined where unset. */
  config(key: string): string | undefined;
}

const says = (s: NamingSetting | undefined): s is NamingSetting => s?.mode !== undefined || s?.pattern !== undefined;

/** The setting for one type (`svc:index:App`) of one provider (`svc`): its own, else its provider's, else the stack's. */
export function settingFor(setting: AutonamingSetting | undefined, provider: string, type: string): NamingSetting | undefined {
  const forProvider = setting?.providers?.[provider];
  const found = [forProvider?.resources?.[type], forProvider, setting].find(says);
  return found && { mode: found.mode, pattern: found.pattern, enforce: found.enforce };
}

const ALPHABETS: Record<string, string> = {
  hex: "0123456789abcdef",
  alphanum: "abcdefghijklmnopqrstuvwxyz0123456789",
  string: "abcdefghijklmnopqrstuvwxyz",
  num: "0123456789",
};

const drawn = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join("");

/** A pattern's stack expressions and `${name}` resolved; an unset config key fails as the engine's does. */
function resolveStack(pattern: string, logicalName: string, stack: StackNames): string {
  return pattern
    .replaceAll("${organization}", stack.organization)
    .replaceAll("${project}", stack.project)
    .replaceAll("${stack}", stack.stack)
    .replace(/\$\{config\.([^}]+)\}/g, (_m, key: string) => {
      const value = stack.config(key);
      if (value === undefined) throw new Error(`pulumi:autonaming: no value found for key "${key}" (\${config.${key}})`);
      return value;
    })
    .replaceAll("${name}", logicalName);
}

/** A pattern's random expressions drawn, and whether it had any (a replacement is then named anew). */
export function drawRandom(pattern: string): { name: string; fresh: boolean } {
  const name = pattern
    .replace(/\$\{(hex|alphanum|string|num)\((\d+)\)\}/g, (_m, kind: string, n: string) => drawn(ALPHABETS[kind], Number(n)))
    .replaceAll("${uuid}", () => randomUUID());
  return { name, fresh: name !== pattern };
}

/** What one setting asks for a resource; undefined: the provider's default. */
export function askedBy(setting: NamingSetting | undefined, logicalName: string, stack: StackNames): Asked | undefined {
  if (setting?.pattern !== undefined) {
    const { name, fresh } = drawRandom(resolveStack(setting.pattern, logicalName, stack));
    return { mode: setting.enforce ? "enforce" : "propose", name, fresh };
  }
  if (setting?.mode === "verbatim") return { mode: "enforce", name: logicalName, fresh: false };
  if (setting?.mode === "disabled") return { mode: "disable" };
  return undefined;
}
