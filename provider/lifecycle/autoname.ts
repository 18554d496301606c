/**
 * autoname: a resource's name where the program declares none, as every Pulumi provider makes one
 * (issue 46). Check's second job, for a kind whose definition names an `autonamed` field:
 *
 * - a name the program declares is the name;
 * - else the recorded name is kept, so a name once made stays across ups and updates;
 * - else one is made: what `pulumi:autonaming` asks (the engine's proposal on the plugin face, the
 *   class's reading of the same config on the dynamic face, provider/dynamic/autonaming.ts), or
 *   by default the logical name, a dash and seven hex digits, fitted to the field's length limits;
 * - mode `disabled` asks for a declared name, and fails without one.
 *
 * A name made for the program marks the checked inputs with `AUTONAMED_KEY` where a replacement
 * gets a name of its own: the engine checks a replacement again with no recorded inputs, so it is
 * named anew, and diff may create it before deleting the old one even where names are unique.
 */
import { createHash, randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "../fields/zod";

/** The checked input that says the name was made for the program and is made anew for a replacement. */
export const AUTONAMED_KEY = "__autonamed";

/**
 * What `pulumi:autonaming` asks for one resource: a name proposed (the provider may refuse it) or
 * enforced, or none made (`disable`). `fresh`: a replacement is proposed another name (the pattern
 * has a random part); where not, the engine deletes the old one first itself.
 */
export type Asked = { mode: "propose" | "enforce"; name: string; fresh: boolean } | { mode: "disable" };

/** What a face knows of one resource's naming: the plugin from the engine's Check, the dynamic face from its class. */
export interface Naming {
  /** The resource's logical name, the default name's stem. */
  logicalName: string;
  /** The engine's random seed for this resource (plugin face): the default suffix from it. Absent: random. */
  seed?: Uint8Array;
  /** What `pulumi:autonaming` asks; absent: the provider's default. */
  asked?: Asked;
}

const SUFFIX_DIGITS = 7;

/** The default name: the logical name, a dash and seven hex digits, the stem cut so the whole fits `max`. */
export function defaultName(logicalName: string, max: number | null | undefined, random: Uint8Array): string {
  const suffix = `-${Buffer.from(random).toString("hex").slice(0, SUFFIX_DIGITS)}`;
  const room = max == null ? logicalName.length : Math.max(1, max - suffix.length);
  return logicalName.slice(0, room) + suffix;
}

/** The suffix's bytes: from the engine's seed where it gave one (the same name in one run), else random. */
const randomFor = (seed: Uint8Array | undefined): Uint8Array =>
  seed?.length ? createHash("sha256").update(seed).digest() : randomBytes(SUFFIX_DIGITS);

/** What the job gives check: failures, the field whose failure it reported itself, and whether to mark the inputs. */
export interface Named {
  failures: pulumi.dynamic.CheckFailure[];
  /** The name field, where the job reported its failure: validation leaves it out rather than say "Required" again. */
  relax: string[];
  /** The name was made for the program, anew for a replacement: check adds `AUTONAMED_KEY`. */
  marked: boolean;
}

/** A resource's properties (types.ts's `Props`, which imports this module's `Naming`). */
type Props = Record<string, unknown>;

const NOTHING: Named = { failures: [], relax: [], marked: false };

/** A field's schema, as a definition's shape holds it. */
type Schema = Parameters<typeof z.safeParse>[0];

/** The longest name a string schema allows (zod's `maxLength`; null: no limit), the rule a default name is fitted to. */
const maxLengthOf = (schema: Schema): number | null | undefined => (schema as { maxLength?: number | null }).maxLength;

/**
 * Fills `raw[field]` where the program declared no name (see the header). `recorded`: the recorded
 * inputs (absent for a new resource and for the engine's check of a replacement).
 */
export function fillName(
  field: string | undefined,
  schema: Schema | undefined,
  naming: Naming | undefined,
  recorded: Props | undefined,
  raw: Props,
): Named {
  if (!field || !schema || raw[field] !== undefined) return NOTHING;
  const asked = naming?.asked;
  if (asked?.mode === "disable")
    return {
      failures: [
        {
          property: field,
          reason: `no ${field} declared, and pulumi:autonaming's mode "disabled" makes none: declare ${field}, or set pulumi:autonaming to another mode`,
        },
      ],
      relax: [field],
      marked: false,
    };
  const fresh = asked ? asked.fresh : true;
  if (typeof recorded?.[field] === "string") {
    raw[field] = recorded[field];
    return { ...NOTHING, marked: fresh };
  }
  if (!asked) {
    raw[field] = defaultName(naming?.logicalName ?? "resource", maxLengthOf(schema), randomFor(naming?.seed));
    return { ...NOTHING, marked: true };
  }
  const parsed = z.safeParse(schema, asked.name);
  if (parsed.success) {
    raw[field] = asked.name;
    return { ...NOTHING, marked: fresh };
  }
  return {
    failures: [
      {
        property: field,
        reason: `the name pulumi:autonaming made, "${asked.name}", breaks this kind's rule: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      },
    ],
    relax: [field],
    marked: false,
  };
}
