import type { Frame, Page } from 'playwright-core';
import { chooseBank } from './bank-picker';
import { nubanCheckDigit } from './checkout';

/**
 * The checkout's middle steps as a borrower does them in English: sign the offer, then give a GTBank account and
 * confirm its looked-up name. Leaves the checkout on "Set up your repayments".
 */
export async function signOfferAndGiveBank(scope: Page | Frame, signature = 'Ada Obi'): Promise<string> {
  await scope.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
  await scope.getByLabel('Your full name (your signature)').fill(signature);
  await scope.getByLabel('I have read the offer and agree to its terms.').check();
  await scope.getByRole('button', { name: 'Sign and accept' }).click();

  await scope.getByRole('heading', { name: 'Your bank account' }).waitFor();
  await chooseBank(scope, 'Guaranty Trust Bank');
  const accountNumber = `012345678${nubanCheckDigit('058', '012345678')}`;
  await scope.getByLabel('Account number').fill(accountNumber);
  await scope.getByText('Account name:').waitFor();
  await scope.getByRole('button', { name: 'This is my account' }).click();
  await scope.getByRole('heading', { name: 'Set up your repayments' }).waitFor();
  return accountNumber;
}
