/** The dashboard's entry: the shell (`<dash-app>`); every page is a chunk loaded on first visit (`pages.ts`). */
import './app';
