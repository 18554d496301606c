/**
 * zod, as the provider's code imports it (eslint forbids importing "zod" itself in provider/ and
 * resources/): the same `z`, without loading zod's 64 locales when it starts.
 *
 * Why: zod's index requires the messages of every locale it ships, about a third of zod's load
 * time and 13 ms of every provider host's start (a refresh runs no program, so nothing overlaps
 * that start: issue 17). zod configures English from its own module (classic/schemas), and the
 * provider writes its own English messages; no code of ours reads `z.locales`.
 *
 * How: Node lets a program add an entry to `require.cache` (nodejs.org/api/modules.html#requirecache).
 * Before zod loads, the locales' index is seeded with a stand-in that loads the real one at the
 * first use of `z.locales` (tests/integration/provider/zod.test.ts pins both sides). Where zod
 * has loaded already, or its layout moved, nothing is seeded and zod loads as it always did.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the seeding must run before zod's first require */

/**
 * A module's stand-in that loads it, with `load`, at the first use of any of its members. Also the
 * plugin's bundle's stand-in for the same locales (scripts/release/plugin.ts), the one copy.
 * @public the bundle requires it by name from the text it writes, which knip cannot see.
 */
export function lazyModule(load: () => Record<PropertyKey, unknown>): Record<PropertyKey, unknown> {
  return new Proxy({} as Record<PropertyKey, unknown>, {
    // zod's `__importStar` takes a module marked `__esModule` as it is, without reading its keys.
    get: (_t, key) => (key === "__esModule" ? true : load()[key]),
    has: (_t, key) => key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(load(), key);
      return d && { ...d, configurable: true };
    },
  });
}

function seedLocales(): void {
  let file: string;
  try {
    file = require.resolve("zod/v4/locales");
  } catch {
    return;
  }
  if (require.cache[file]) return;
  let real: Record<PropertyKey, unknown> | undefined;
  const load = (): Record<PropertyKey, unknown> => {
    if (!real) {
      delete require.cache[file];
      real = require(file) as Record<PropertyKey, unknown>;
    }
    return real;
  };
  const standIn = lazyModule(load);
  const Module = require("node:module") as { new (id: string): NodeJS.Module };
  const seeded = new Module(file);
  Object.assign(seeded, { filename: file, loaded: true, exports: standIn });
  require.cache[file] = seeded;
}

seedLocales();

export { z } from "zod";
