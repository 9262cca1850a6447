// The stack's gateway responses keep API Gateway's own 5XX statuses, so the stack answers what the twin's gateway
// answers (test/e2e/gateway-parity.test.ts): 502 for a function that failed, 500 for an invocation Lambda refused,
// 504 at the 29 s integration timeout, 415 for a mock's unsupported media type; each in the spec's envelope.
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

const { template } = synthStack();
const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')).map(
  (resource) => resource.Properties as { ResponseType: string; StatusCode: string; ResponseTemplates: Record<string, string> },
);
const byType = (type: string) => responses.find((response) => response.ResponseType === type);

describe("the stack's 5XX and 415 gateway responses", () => {
  it.each([
    ['DEFAULT_5XX', '502', 'Bad Gateway', 'An unexpected error occurred'],
    ['INTEGRATION_FAILURE', '500', 'Internal Server Error', 'An unexpected error occurred'],
    ['INTEGRATION_TIMEOUT', '504', 'Gateway Timeout', 'The endpoint did not answer in time'],
    ['UNSUPPORTED_MEDIA_TYPE', '415', 'Unsupported Media Type', 'This method accepts application/json bodies only'],
  ])('answers %s with %s in the envelope', (type, status, title, detail) => {
    const response = byType(type);

    expect(response?.StatusCode).toBe(status);
    expect(JSON.parse(response!.ResponseTemplates['application/json']!)).toEqual({ errors: [{ status, title, detail }] });
  });

  it('keeps one gateway response per type', () => {
    expect(new Set(responses.map((response) => response.ResponseType)).size).toBe(responses.length);
  });
});
