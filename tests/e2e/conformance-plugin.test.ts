/** Pulumi's resource options and stack operations on the plugin face, in TypeScript on sdk/nodejs (tests/e2e/conformance.ts). */
import { describeConformance } from "./conformance";

jest.setTimeout(900_000);

describeConformance("plugin");
