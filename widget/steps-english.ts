import { enSteps } from './i18n/en-steps';
import { addEnglish } from './i18n/i18n';

/** The steps' English texts, added before any step renders (the steps file's first import). */
addEnglish(enSteps);
