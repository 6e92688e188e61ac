import * as lit from 'lit';
import * as asyncAction from './async-action';
import * as checkoutApi from './checkout-api';
import * as documentStyles from './document-styles';
import * as format from './format';
import * as i18n from './i18n/i18n';
import * as inputs from './inputs';
import * as passkeys from './passkeys';
import * as stepEvents from './step-events';
import * as stepStyles from './step-styles';
import { STEPS_RUNTIME_GLOBAL } from './steps-shared';

/** Publishes the shared modules for the steps file (the script-tag bundle does this before it can load it). */
export function installStepsRuntime(): void {
  (globalThis as Record<string, unknown>)[STEPS_RUNTIME_GLOBAL] = { lit, asyncAction, checkoutApi, documentStyles, format, i18n, inputs, passkeys, stepEvents, stepStyles };
}
