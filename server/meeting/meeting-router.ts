import type http from 'node:http';
import express from 'express';
import type { Platform } from '../platform/platform';

export function createMeetingRouter(_platform: Platform) {
  return express.Router();
}

export function attachMeetingSignalling(_server: http.Server, _platform: Platform) {
  return { close() {} };
}
