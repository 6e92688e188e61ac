import { loadOnce } from '../../../shared/load-once';

/** The argon2 binding, loaded by the first password check rather than at start-up. */
const argon2 = loadOnce(() => import('@node-rs/argon2'));

/**
 * argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane); `@node-rs/argon2`'s default algorithm is
 * argon2id. The password is NFKC-normalised first, as the policy counts it.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password.normalize('NFKC'), OPTIONS);
}

/** A hash of a random password, made once: an unknown e-mail is verified against it so it costs the same time. */
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= argon2().then(({ hash }) => hash(`dummy-${Math.random()}-${Date.now()}`, OPTIONS)));

/** Verifies `password` against `passwordHash`, or against a dummy hash (and answers false) when there is none. */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  const candidate = password.normalize('NFKC');
  const { verify } = await argon2();
  if (!passwordHash) {
    await verify(await dummyHash(), candidate).catch(() => false);
    return false;
  }
  return verify(passwordHash, candidate).catch(() => false);
}
