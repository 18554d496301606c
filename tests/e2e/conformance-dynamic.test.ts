/** Pulumi's resource options and stack operations on the dynamic face (tests/e2e/conformance.ts). */
import { describeConformance } from "./conformance";

jest.setTimeout(900_000);

describeConformance("dynamic");
