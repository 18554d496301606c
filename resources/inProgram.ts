/**
 * Inputs a program settles itself before they reach the provider process, by kind: the generated
 * class (scripts/classes.ts) passes its args through the kind's entry here. Kept out of the
 * resource files so that a program never loads a definition (nor zod): only the SDK and the types.
 */
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { ImageArgs, ImageSourceArgs } from "./image";

export const inProgram = {
  /**
   * An UPLOAD source's relative file path is the program's: the provider process runs in another
   * working directory, so the path is made absolute here.
   */
  Image: (args: ImageArgs): ImageArgs => ({
    ...args,
    source: output(args.source).apply((s) =>
      s.type === "UPLOAD" ? { ...s, filePath: path.resolve(s.filePath) } : s,
    ) as pulumi.Output<ImageSourceArgs>,
  }),
};
