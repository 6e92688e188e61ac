import { enMandate } from './i18n/en-mandate';
import { addEnglish } from './i18n/i18n';

/** The mandate step's English texts, added before it renders (the mandate file's first import). */
addEnglish(enMandate);
