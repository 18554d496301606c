import * as svc from "pulumi-svc";

// Needs a user-scoped token.
const wallet = svc.getWalletOutput({});

export const balance = wallet.balance;
