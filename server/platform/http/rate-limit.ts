import type { NextFunction, Request, Response } from 'express';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AppError } from '../domain/errors';
import { authOf } from './authenticate';

export interface RateLimitSettings {
  windowSeconds: number;
  reads: number;
  writes: number;
  burst: number;
}

interface Policy {
  name: 'reads' | 'writes';
  points: number;
  limiter: RateLimiterAbstract | BurstyRateLimiter;
}

/**
 * Per-key limits with a window that starts at each key's first request (rolling, not aligned to
 * the clock), separate budgets for reads and writes, and a burst allowance on top. In memory by
 * default; in Redis when configured, so every process shares one budget per key (with an
 * in-memory fallback if Redis is unreachable).
 */
export class RateLimits {
  private readonly policies: Record<'reads' | 'writes', Policy>;

  constructor(
    private readonly settings: RateLimitSettings,
    redis?: Redis,
  ) {
    const make = (name: 'reads' | 'writes', points: number): Policy => {
      const base = { points, duration: settings.windowSeconds, keyPrefix: `rl:${name}` };
      const burstOptions = { points: Math.max(settings.burst, 1), duration: settings.windowSeconds, keyPrefix: `rl:${name}:burst` };
      const build = (o: typeof base) =>
        redis
          ? new RateLimiterRedis({ ...o, storeClient: redis, insuranceLimiter: new RateLimiterMemory(o) })
          : new RateLimiterMemory(o);
      const limiter = settings.burst > 0 ? new BurstyRateLimiter(build(base), build(burstOptions)) : build(base);
      return { name, points, limiter };
    };
    this.policies = { reads: make('reads', settings.reads), writes: make('writes', settings.writes) };
  }

  middleware() {
    return async (req: Request, res: Response, next: NextFunction) => {
      const policy = req.method === 'GET' || req.method === 'HEAD' ? this.policies.reads : this.policies.writes;
      const key = authOf(res).apiKeyId;
      const window = this.settings.windowSeconds;
      res.setHeader('RateLimit-Policy', `"${policy.name}";q=${policy.points};w=${window}`);
      try {
        const result = await policy.limiter.consume(key);
        const remaining = Math.max(0, result.remainingPoints);
        res.setHeader('RateLimit', `"${policy.name}";r=${remaining};t=${Math.ceil(result.msBeforeNext / 1000)}`);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        res.setHeader('Retry-After', String(retryAfter));
        res.setHeader('RateLimit', `"${policy.name}";r=0;t=${retryAfter}`);
        throw new AppError('RATE_LIMITED', `Too many ${policy.name} for this key; retry after ${retryAfter} s.`);
      }
      next();
    };
  }
}
