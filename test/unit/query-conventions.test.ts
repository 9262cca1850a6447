import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError } from '../../shared/http/errors';
import { pageMeta, parseFilters, parsePage, parseSort, queryParameters } from '../../shared/http/query';

const fails = (fn: () => unknown, detail: RegExp) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    expect((error as ApiError).detail).toMatch(detail);
    return;
  }
  throw new Error('expected a 400');
};

describe('list query conventions', () => {
  it('defaults to page 1 of 20', () => {
    expect(parsePage({})).toEqual({ number: 1, size: 20, offset: 0 });
  });

  it('serves a page size above 100 at 100', () => {
    expect(parsePage({ 'page[size]': '500', 'page[number]': '3' })).toEqual({ number: 3, size: 100, offset: 200 });
  });

  it.each(['0', '-1', '1.5', 'abc', ''])('refuses page[number]=%p', (value) => {
    fails(() => parsePage({ 'page[number]': value }), /page\[number\] must be a positive integer/);
  });

  it('reads a leading - as descending and defaults to -created_at', () => {
    expect(parseSort({}, ['created_at', 'points'], '-created_at')).toEqual({ field: 'created_at', descending: true });
    expect(parseSort({ sort: 'points' }, ['created_at', 'points'], '-created_at')).toEqual({ field: 'points', descending: false });
  });

  it('refuses an unknown sort field and lists the allowed ones', () => {
    fails(() => parseSort({ sort: '-email' }, ['created_at', 'points'], '-created_at'), /Allowed: created_at, points/);
  });

  it('accepts documented filters and refuses others', () => {
    expect(parseFilters({ 'filter[email]': 'ada', 'page[size]': '5' }, ['email'])).toEqual({ email: 'ada' });
    fails(() => parseFilters({ 'filter[name]': 'x' }, ['email']), /Unknown filter 'filter\[name\]'/);
  });

  it('takes the last value of a repeated parameter', () => {
    const event = { multiValueQueryStringParameters: { sort: ['points', '-points'] }, queryStringParameters: { sort: '-points' } };

    expect(queryParameters(event as unknown as APIGatewayProxyEvent).sort).toBe('-points');
  });

  it('computes total_pages from the total and page size', () => {
    expect(pageMeta(41, { number: 2, size: 20, offset: 20 })).toEqual({ total: 41, page: 2, per_page: 20, total_pages: 3 });
    expect(pageMeta(0, { number: 1, size: 20, offset: 0 }).total_pages).toBe(0);
  });
});

describe('query parameter names that collide with Object.prototype', () => {
  it.each(['__proto__', 'valueOf', 'constructor', 'toString'])('treats %p as a plain unknown parameter', (name) => {
    const event = { multiValueQueryStringParameters: { [name]: ['x'] }, queryStringParameters: JSON.parse(`{"${name}":"x"}`) };

    const query = queryParameters(event as unknown as APIGatewayProxyEvent);

    expect(Object.keys(query)).toEqual([name]);
    expect(parsePage(query)).toEqual({ number: 1, size: 20, offset: 0 });
    expect(parseSort(query, ['created_at'], '-created_at')).toEqual({ field: 'created_at', descending: true });
    expect(parseFilters(query, ['email'])).toEqual({});
  });
});
