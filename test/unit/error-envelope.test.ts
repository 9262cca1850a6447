import {
  customerNotFound,
  DomainError,
  failed,
  invalid,
  notFound,
  notPermitted,
  unavailable,
  unprocessable,
} from '../../shared/domain/errors';
import { badRequest, envelope, toErrorResponse } from '../../shared/http/errors';

describe('error envelope', () => {
  it('has the spec shape with the status as a string', () => {
    expect(envelope(404, "Customer 'x' not found")).toEqual({
      errors: [{ status: '404', title: 'Not Found', detail: "Customer 'x' not found" }],
    });
  });

  it('carries a typed error as it is', () => {
    const { statusCode, body } = toErrorResponse(badRequest('adjustment is required'));

    expect(statusCode).toBe(400);
    expect(body.errors[0]).toEqual({ status: '400', title: 'Bad Request', detail: 'adjustment is required' });
  });

  it('keeps a custom title such as Insufficient Points', () => {
    const { statusCode, body } = toErrorResponse(unprocessable('Insufficient Points', 'Customer has 5 points but this reward costs 500'));

    expect(statusCode).toBe(422);
    expect(body.errors[0]!.title).toBe('Insufficient Points');
  });

  it('hides an unexpected error behind a generic 500 without internals', () => {
    const { statusCode, body } = toErrorResponse(new Error('ECONNREFUSED 10.0.0.1:8000 at Socket.connect'));

    expect(statusCode).toBe(500);
    expect(JSON.stringify(body)).not.toContain('ECONNREFUSED');
    expect(body.errors[0]!.title).toBe('Internal Server Error');
  });

  it('names the identifier in a customer 404', () => {
    const error = customerNotFound('ada@example.com');

    expect(error).toBeInstanceOf(DomainError);
    expect(error.detail).toBe("Customer 'ada@example.com' not found");
  });

  it('maps every kind of domain error to the status the spec gives it', () => {
    const statuses = [invalid('x'), notPermitted('x'), notFound('x'), unprocessable('Rule', 'x'), failed('x'), unavailable('x')].map(
      (error) => toErrorResponse(error).statusCode,
    );

    expect(statuses).toEqual([400, 403, 404, 422, 500, 503]);
  });

  it('shows a domain 500 with its own detail, unlike an unexpected error', () => {
    const { body } = toErrorResponse(failed('The purchase could not be completed. Please try again.'));

    expect(body.errors[0]).toEqual({
      status: '500',
      title: 'Internal Server Error',
      detail: 'The purchase could not be completed. Please try again.',
    });
  });
});
