/** Test keys the API takes (it checks an SSH key's form): the tiers' one copy. */

/** A well-formed OpenSSH ed25519 public key line whose 32-byte key is `fill` repeated. */
export function ed25519(fill: number, comment: string): string {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from("ssh-ed25519")), field(Buffer.alloc(32, fill))]).toString("base64")} ${comment}`;
}
