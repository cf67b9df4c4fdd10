// Mirrors k8s.io/apiserver pkg/storage/continue.go (release-1.36).
// Deliberate difference: resource versions are number | bigint so values beyond 2^53 never lose
// precision; `inspectContinue` also keeps each decoding stage for the explanation. decodeContinue
// tries canonical-continue.ts's fast path first and falls back to this exact port.
import { rawUrlEncoding, Base64CorruptInputError } from '../encoding/go-base64';
import { goJsonMarshal, goJsonUnmarshalStruct, type GoStructType } from '../encoding/go-json';
import { decodeUtf8, utf8Bytes } from '../encoding/go-utf8';
import { decodeCanonicalContinue } from './canonical-continue';

/** The four sentinel errors of continue.go, as distinct kinds. */
export type ContinueTokenErrorReason =
  'InvalidStartRV' | 'EmptyStartKey' | 'GenericInvalidKey' | 'UnrecognizedEncodedVersion';

export const errInvalidStartRV =
  'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';
export const errEmptyStartKey =
  'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)';
export const errGenericInvalidKey = 'continue key is not valid';
export const errUnrecognizedEncodedVersion =
  'continue key is not valid: server does not recognize this encoded version';

/** Where a GenericInvalidKey failure came from (the three `%w` wrapping sites upstream). */
export type ContinueTokenFailureStage = 'base64' | 'json' | 'traversal';

/**
 * A DecodeContinue error. `message` is upstream's exact string. `wrapsGenericInvalidKey` is what
 * errors.Is(err, ErrGenericInvalidKey) answers: true only for base64, JSON and traversal failures.
 */
export class ContinueTokenError extends Error {
  readonly reason: ContinueTokenErrorReason;
  readonly wrapsGenericInvalidKey: boolean;
  /** The wrapped detail: the base64 or JSON error text, the offending start key, or the version. */
  override readonly cause: string | undefined;
  readonly stage: ContinueTokenFailureStage | undefined;
  constructor(
    reason: ContinueTokenErrorReason,
    message: string,
    opts: { cause?: string; stage?: ContinueTokenFailureStage } = {},
  ) {
    super(message);
    this.name = 'ContinueTokenError';
    this.reason = reason;
    this.wrapsGenericInvalidKey = opts.stage !== undefined;
    this.cause = opts.cause;
    this.stage = opts.stage;
  }
}

/** continueToken{APIVersion `json:"v"`, ResourceVersion int64 `json:"rv"`, StartKey `json:"start"`}. */
export const continueTokenType: GoStructType = {
  pkg: 'storage',
  name: 'continueToken',
  fields: [
    { name: 'v', kind: 'string' },
    { name: 'rv', kind: 'int64' },
    { name: 'start', kind: 'string' },
  ],
};

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** A Go int64 as a JS value: number when it is exactly representable, otherwise bigint. */
export function int64ToJs(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(n)
    : n;
}

function toInt64(resourceVersion: number | bigint): bigint {
  if (typeof resourceVersion === 'number' && !Number.isSafeInteger(resourceVersion)) {
    throw new RangeError(
      `resourceVersion ${resourceVersion} is not an exact integer; pass a bigint for values beyond 2^53`,
    );
  }
  const n = BigInt(resourceVersion);
  if (n < int64Min || n > int64Max)
    throw new RangeError(`resourceVersion ${n} does not fit in int64`);
  return n;
}

/**
 * Go's path.Clean: shortest equivalent path by lexical processing (collapse //, drop ./, resolve
 * ../ against the previous element, drop .. at the root, no trailing slash except "/").
 */
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p[0] === '/';
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  if (rooted) return '/' + joined;
  return joined === '' ? '.' : joined;
}

/** Every stage of DecodeContinue, for explanations; `result` xor `error` is set. */
export interface ContinueTokenInspection {
  /** The base64-decoded bytes, when base64 decoding succeeded. */
  bytes?: Uint8Array;
  /** Those bytes as text (each invalid UTF-8 byte shown as U+FFFD). */
  text?: string;
  /** The struct as json.Unmarshal filled it, when JSON decoding succeeded. */
  token?: { v: string; rv: bigint; start: string };
  result?: { fromKey: string; resourceVersion: number | bigint };
  error?: ContinueTokenError;
}

/** DecodeContinue, keeping the intermediate stages. Never throws. */
export function inspectContinue(continueValue: string, keyPrefix: string): ContinueTokenInspection {
  let bytes: Uint8Array;
  try {
    bytes = rawUrlEncoding.decodeString(continueValue);
  } catch (e) {
    const detail = e instanceof Base64CorruptInputError ? e.message : String(e);
    return {
      error: new ContinueTokenError('GenericInvalidKey', `${errGenericInvalidKey}: ${detail}`, {
        cause: detail,
        stage: 'base64',
      }),
    };
  }
  const text = decodeUtf8(bytes);
  const decoded = goJsonUnmarshalStruct(bytes, continueTokenType);
  if (decoded.error) {
    const detail = decoded.error.message;
    return {
      bytes,
      text,
      error: new ContinueTokenError('GenericInvalidKey', `${errGenericInvalidKey}: ${detail}`, {
        cause: detail,
        stage: 'json',
      }),
    };
  }
  const token = {
    v: decoded.values.v as string,
    rv: decoded.values.rv as bigint,
    start: decoded.values.start as string,
  };
  const stages = { bytes, text, token };
  switch (token.v) {
    case 'meta.k8s.io/v1': {
      if (token.rv === 0n)
        return { ...stages, error: new ContinueTokenError('InvalidStartRV', errInvalidStartRV) };
      if (token.start.length === 0)
        return { ...stages, error: new ContinueTokenError('EmptyStartKey', errEmptyStartKey) };
      // Defend against path traversal: the start key must already be clean once rooted.
      let key = token.start;
      if (!key.startsWith('/')) key = '/' + key;
      const cleaned = pathClean(key);
      if (cleaned !== key) {
        return {
          ...stages,
          error: new ContinueTokenError(
            'GenericInvalidKey',
            `${errGenericInvalidKey}: ${token.start}`,
            { cause: token.start, stage: 'traversal' },
          ),
        };
      }
      return {
        ...stages,
        result: { fromKey: keyPrefix + cleaned.slice(1), resourceVersion: int64ToJs(token.rv) },
      };
    }
    default:
      // Upstream formats "%w %v": a space and no colon, so an empty version leaves a trailing space.
      return {
        ...stages,
        error: new ContinueTokenError(
          'UnrecognizedEncodedVersion',
          `${errUnrecognizedEncodedVersion} ${token.v}`,
          { cause: token.v },
        ),
      };
  }
}

/**
 * DecodeContinue(continueValue, keyPrefix): the key to resume from and the token's resource version
 * (a number when |rv| <= 2^53-1, else a bigint). Throws ContinueTokenError with upstream's message.
 */
export function decodeContinue(
  continueValue: string,
  keyPrefix: string,
): { fromKey: string; resourceVersion: number | bigint } {
  const canonical = decodeCanonicalContinue(continueValue, keyPrefix);
  if (canonical) return canonical;
  const r = inspectContinue(continueValue, keyPrefix);
  if (r.error) throw r.error;
  return r.result as { fromKey: string; resourceVersion: number | bigint };
}

/**
 * EncodeContinue(key, keyPrefix, resourceVersion): base64.RawURLEncoding of Go's json.Marshal of
 * {"v":"meta.k8s.io/v1","rv":N,"start":key without keyPrefix}. Like strings.TrimPrefix upstream, a
 * key that does not start with a non-empty keyPrefix is an error.
 */
export function encodeContinue(
  key: string,
  keyPrefix: string,
  resourceVersion: number | bigint,
): string {
  const rv = toInt64(resourceVersion);
  const nextKey = key.startsWith(keyPrefix) ? key.slice(keyPrefix.length) : key;
  if (nextKey === key)
    throw new Error('unable to encode next field: the key and key prefix do not match');
  // A safe integer marshals as a number (the plain, fast path); only a larger one as a bigint.
  const json = goJsonMarshal({ v: 'meta.k8s.io/v1', rv: int64ToJs(rv), start: nextKey });
  return rawUrlEncoding.encodeToString(utf8Bytes(json));
}

/** The selection predicate as the storage layer has it, or plain label/field selector strings. */
export type PrepareContinueTokenOptions =
  | { predicate: { limit?: number; empty(): boolean } }
  | { predicate: { limit?: number; label?: string; field?: string } };

export interface PreparedContinueToken {
  continue: string;
  /** Items after this page; only when the predicate has no label/field selector. */
  remainingItemCount?: number;
}

function predicateEmpty(p: PrepareContinueTokenOptions['predicate']): boolean {
  if ('empty' in p && typeof p.empty === 'function') return p.empty();
  const plain = p as { label?: string; field?: string };
  return !plain.label && !plain.field;
}

/**
 * PrepareContinueToken: the next page starts just after keyLastItem (key + "\x00"); itemsCount is
 * the number of keys from the page's start key to the end of the prefix (etcd's Count or the cache's
 * candidate count), so remainingItemCount = itemsCount - limit, reported only without selectors.
 */
export function prepareContinueToken(
  keyLastItem: string,
  keyPrefix: string,
  resourceVersion: number | bigint,
  itemsCount: number,
  hasMoreItems: boolean,
  opts: PrepareContinueTokenOptions,
): PreparedContinueToken {
  if (!hasMoreItems) return { continue: '' };
  const next = encodeContinue(keyLastItem + '\x00', keyPrefix, resourceVersion);
  if (predicateEmpty(opts.predicate))
    return { continue: next, remainingItemCount: itemsCount - (opts.predicate.limit ?? 0) };
  return { continue: next };
}
