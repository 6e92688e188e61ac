import express from 'express';
import type { Platform } from '../../platform/platform';

/** The sandbox rail provider's HTTP surface (authorisation pages, provider API). */
export function createSandboxRailRouter(_platform: Platform): express.Router {
  return express.Router();
}
