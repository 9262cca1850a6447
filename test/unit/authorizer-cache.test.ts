// The twin's authorizer result cache (TTL, flush, a stale answer never stored after a flush) and the
// stage-wide policy resource a cached answer must carry.
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { authorizerCache } from '../../infra/local/authorizer-cache';
import { stageWideResource } from '../../shared/auth/stage-wide-resource';

const answer = (effect: 'Allow' | 'Deny'): APIGatewayAuthorizerResult => ({
  principalId: 'p',
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: '*' }] },
});

describe('authorizer cache', () => {
  it('keeps an answer for exactly its TTL', () => {
    let now = 1_000_000;
    const cache = authorizerCache(300, () => now);
    cache.set('key', answer('Allow'), cache.generation);

    now += 299_999;
    expect(cache.get('key')?.policyDocument.Statement[0]?.Effect).toBe('Allow');
    now += 1;
    expect(cache.get('key')).toBeUndefined();
  });

  it('drops every answer on a flush', () => {
    const cache = authorizerCache(300);
    cache.set('a', answer('Allow'), cache.generation);
    cache.set('b', answer('Deny'), cache.generation);

    cache.flush();

    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([undefined, undefined, 0]);
  });

  it('does not store an answer computed before a flush (a revocation racing an authorizer call)', () => {
    const cache = authorizerCache(300);
    const readAt = cache.generation;

    cache.flush();
    cache.set('key', answer('Allow'), readAt);

    expect(cache.get('key')).toBeUndefined();
  });

  it('stores nothing with a TTL of 0, and refuses a TTL outside API Gateway range', () => {
    const off = authorizerCache(0);
    off.set('key', answer('Allow'), off.generation);

    expect(off.get('key')).toBeUndefined();
    expect(() => authorizerCache(3601)).toThrow('0 to 3600 seconds');
    expect(() => authorizerCache(-1)).toThrow('0 to 3600 seconds');
  });

  it('stays bounded under a flood of distinct keys, dropping the oldest answers first', () => {
    const cache = authorizerCache(300);
    for (let i = 0; i < 10_050; i += 1) cache.set(`key-${i}`, answer('Deny'), cache.generation);

    expect(cache.size).toBe(10_000);
    expect(cache.get('key-0')).toBeUndefined();
    expect(cache.get('key-10049')).toBeDefined();
  });
});

describe('stage-wide policy resource', () => {
  it('covers every method and path of the caller stage only', () => {
    expect(stageWideResource('arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/v1/customers/1001')).toBe(
      'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*/*',
    );
  });

  it('refuses what is not a method ARN rather than widening it', () => {
    expect(() => stageWideResource('arn:aws:execute-api:eu-west-1:123456789012:abc123')).toThrow('Not an execute-api method ARN');
    expect(() => stageWideResource('*')).toThrow('Not an execute-api method ARN');
  });
});
