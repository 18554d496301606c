/**
 * The sentences a field's declaration writes for people: what a change of it does (`effectSentence`)
 * and its whole TSDoc and schema description (`docOf`), which scripts/fieldTypes.ts and
 * scripts/schema.ts put in the generated interfaces, the schema and the docs pages. Written from
 * the declared effect, so the words cannot disagree with what diff does.
 */
import type { ChangeEffect } from "./changeEffects";
import type { Field } from "./declare";

/**
 * What a change does, in one sentence, as the TSDoc and the schema say it: written from the
 * effect, so the words cannot disagree with what diff does.
 */
export function effectSentence(effect: ChangeEffect): string {
  switch (effect.kind) {
    case "replace":
      return "Changing it replaces the resource.";
    case "updateRequest":
      return "Changing it updates the resource in place.";
    case "step":
      return `Changing it updates the resource in place (${effect.step}).`;
    case "ignore":
      return "Never causes a diff.";
    case "remember":
      return "Changing it only records the new value (no API call): deletion uses it.";
    case "depends":
      return "Depending on the change, it is made in place or replaces the resource.";
  }
}

/** A field's TSDoc and schema description: its doc, then for an input (and its echo) what a change does. */
export function docOf(field: Field): string {
  if (field.role === "computed") return field.doc;
  return [field.doc, field.autoname ? AUTONAME_SENTENCE : "", effectSentence(field.onChange)].filter(Boolean).join(" ");
}

/** A name's default (provider/lifecycle/autoname.ts), on every autonamed field's doc. */
const AUTONAME_SENTENCE =
  "Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that.";
