/* Small helpers shared by the tests of forms and of the packages over it (`@sess/forms/test-helpers`; never imported by src). */
import { isSessError, type SessErrorBody } from '@sess/core';

/** The SessError body a promise rejects with (fails the test if it resolves or throws something else). */
export async function refusal(promise: Promise<unknown>): Promise<SessErrorBody> {
  try {
    await promise;
  } catch (error) {
    if (isSessError(error)) return error.toBody();
    throw error;
  }
  throw new Error('expected a refusal, but the call succeeded');
}

/** A fresh idempotency key. */
export function key(): string {
  return crypto.randomUUID();
}
