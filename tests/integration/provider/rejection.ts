/** The error a promise rejects with (fails the test if it resolves). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- errors of several classes, inspected by field
export async function rejection(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (err: unknown) => err,
  );
}
