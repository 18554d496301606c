/**
 * The import file `pulumi import --file` takes (https://www.pulumi.com/docs/iac/adopting-pulumi/import/):
 * one entry per adopted object, in an order where each comes after those it refers to, with its
 * type (the plugin's `svc:index:<Kind>`), logical name and id. A secret input gets the placeholder
 * naming its config key in the entry's `inputs` (pulumi 3.254 and newer take from there what the
 * provider's read cannot give), so the import's check sees a value and the generated program holds
 * the placeholder where `svc-import --finish` puts the read of the config secret. No value of a
 * secret is ever written here.
 */
import { TOKEN_PREFIX } from "../provider/typeTokens";
import type { Discovery } from "./discover";
import { placeholderInputs } from "./secrets";

export interface ImportFile {
  resources: Array<{ type: string; name: string; id: string; inputs?: Record<string, unknown> }>;
}

export function importFileOf(d: Discovery): ImportFile {
  return {
    resources: d.adopted.map((a) => ({
      type: `${TOKEN_PREFIX}${a.kind}`,
      name: a.name,
      id: a.id,
      ...(a.secrets.length ? { inputs: placeholderInputs(a.secrets) } : {}),
    })),
  };
}
