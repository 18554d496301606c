import * as svc from "pulumi-svc";

// 25 USD of credit, for up to 100 users (operators only).
const launch = new svc.Coupon("launch", { code: "LAUNCH-25", amount: 25_000_000, uses: 100, expiryDays: 60, note: "launch week" });

export const couponCode = launch.code;
