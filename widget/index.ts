/** The checkout widget bundle for bundlers: defines every `lc-*` element (the common ones and the on-demand steps). */
import './core';
import './steps';
