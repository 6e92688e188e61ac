/** The checkout widget bundle for bundlers: defines every `lc-*` element (the common ones, the on-demand steps and the mandate step). */
import './core';
import './steps';
import './mandate-step';
import './test-hints-step';
