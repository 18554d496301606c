/**
 * schema.json under the metaschema of the CLI the suite runs (Pulumi's pkg/codegen/schema/pulumi.json,
 * from the Go module that CLI was built from), with unknown keys refused: a misspelt key such as
 * `replaceOnChange` is an error, not a key every code generator ignores. In the e2e project because
 * it needs the toolchain (Go and the module cache); the schema's other checks are unit tests.
 */
import Ajv2020 from "ajv/dist/2020";
import { generateSchema } from "../../scripts/schema";
import { pulumiMetaschema, refusingUnknownKeys } from "../support/metaschema";

jest.setTimeout(120_000);

it("schema.json is valid under the running CLI's metaschema, with unknown keys refused", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
  const validate = ajv.compile(refusingUnknownKeys(pulumiMetaschema()) as object);
  validate(generateSchema());
  expect((validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)).toEqual([]);
});
