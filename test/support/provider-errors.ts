import { expect } from 'vitest';
import { ProviderError } from '../../server/integrations/provider-http';

/** The ProviderError a provider call rejects with (fails the test when it resolves or rejects with anything else). */
export async function providerRejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
