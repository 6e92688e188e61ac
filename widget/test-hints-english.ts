import { enTestHints } from './i18n/en-test-hints';
import { addEnglish } from './i18n/i18n';

/** The hints' English texts, added before they render (the hints file's first import). */
addEnglish(enTestHints);
