import type { Frame, FrameLocator, Page } from 'playwright-core';

/**
 * Picks a bank in the checkout's bank combobox the way a borrower does: types part of its name
 * (`typed`, by default the whole name) and taps the option. `label` is the field's label in the
 * page's language.
 */
export async function chooseBank(scope: Page | Frame | FrameLocator, name: string, options: { typed?: string; label?: string } = {}): Promise<void> {
  await scope.getByRole('combobox', { name: options.label ?? 'Bank', exact: true }).fill(options.typed ?? name);
  await scope.getByRole('option', { name, exact: true }).click();
}
