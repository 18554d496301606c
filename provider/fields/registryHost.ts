/**
 * Registry host canonicalisation (spec part 1, Registry credential: "canonicalised by the server
 * when created, so aliases and full URLs normalise to one form"): lower case; scheme, userinfo,
 * path/query, trailing dot and default ports stripped; Docker Hub aliases folded into docker.io.
 * The provider applies it at preview so a declaration in another spelling is no change; the
 * emulator applies it as the server.
 */
const HOST_ALIASES: Record<string, string> = {
  "index.docker.io": "docker.io",
  "registry-1.docker.io": "docker.io",
  "registry.hub.docker.com": "docker.io",
  "hub.docker.com": "docker.io",
};

const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** "https://GHCR.io/v2/" -> "ghcr.io"; "index.docker.io" -> "docker.io"; null when no host remains. */
export function canonicalRegistryHost(input: string): string | null {
  let host = input.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  host = host.replace(/[/?#].*$/, "");
  host = host.replace(/^[^@]*@/, "");
  host = host.replace(/\.$/, "").replace(/:(443|80)$/, "");
  host = HOST_ALIASES[host] ?? host;
  return host.length <= 253 && HOST_PATTERN.test(host) ? host : null;
}
