import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The lender's public face in the checkout, so the borrower can tell whom they are dealing with and trust the page:
 * - `checkout_settings` gains the branding the hosted page shows before the OTP (display name,
 *   logo, brand colour, support contact, privacy and terms links), all nullable;
 * - `loan_products.rate_display`: whether the checkout quotes the interest rate a year (the
 *   default, as before) or a month (how Nigerian consumer lenders usually quote it);
 * - `loans.checkout_receipt_sent_at`: the "we have texted you a copy" receipt goes out once per
 *   loan, claimed by one conditional UPDATE of this column.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  for (const column of ['display_name', 'logo_url', 'brand_color', 'support_email', 'support_phone', 'support_url', 'privacy_url', 'terms_url']) {
    await db.schema.alterTable('checkout_settings').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('loan_products').addColumn('rate_display', 'text', (c) => c.notNull().defaultTo('annual')).execute();
  await db.schema.alterTable('loans').addColumn('checkout_receipt_sent_at', t.timestamp).execute();
}
