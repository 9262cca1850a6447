// What API Gateway does with a Lambda authorizer's answer before the integration runs, for the twin's gateway:
// checks its shape (a context value that is an object or an array, a missing principalId or policy is the
// AUTHORIZER_CONFIGURATION_ERROR gateway response, a 500), evaluates its policy against the request's method ARN
// on every request, a cached answer included (ACCESS_DENIED when no Allow matches or a Deny does), and hands the
// integration `requestContext.authorizer`: the context's values as strings, `principalId` and `integrationLatency`.
import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/** The answer cannot be used (API Gateway: AUTHORIZER_CONFIGURATION_ERROR, 500); the message says why, for the log. */
export class AuthorizerConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizerConfigurationError';
  }
}

interface Statement {
  Effect?: unknown;
  Action?: unknown;
  Resource?: unknown;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/**
 * The answer as API Gateway accepts it: a principalId, a policy document with a list of statements, and a flat
 * context whose values are strings, numbers or booleans (null is left out). Anything else throws.
 */
export function checkAuthorizerAnswer(answer: unknown): APIGatewayAuthorizerResult {
  const result = answer as Partial<APIGatewayAuthorizerResult> | null | undefined;
  if (typeof result !== 'object' || result === null) throw new AuthorizerConfigurationError('The authorizer answered no object');
  if (typeof result.principalId !== 'string' || result.principalId === '')
    throw new AuthorizerConfigurationError('The authorizer answer has no principalId');
  const statements = (result.policyDocument as { Statement?: unknown } | undefined)?.Statement;
  if (!Array.isArray(statements) || statements.some((statement) => typeof statement !== 'object' || statement === null))
    throw new AuthorizerConfigurationError('The authorizer answer has no policy document with a list of statements');
  for (const [name, value] of Object.entries(result.context ?? {})) {
    if (value !== null && typeof value === 'object')
      throw new AuthorizerConfigurationError(`The authorizer context value '${name}' is an ${Array.isArray(value) ? 'array' : 'object'}`);
  }
  if (result.usageIdentifierKey !== undefined && typeof result.usageIdentifierKey !== 'string')
    throw new AuthorizerConfigurationError('The authorizer answer has a usageIdentifierKey that is not a string');
  return result as APIGatewayAuthorizerResult;
}

/** An IAM resource pattern against an ARN: `*` any run of characters (`/` included), `?` one character, case kept. */
function resourceMatches(pattern: string, arn: string): boolean {
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${regex}$`, 's').test(arn);
}

/** The actions that cover invoking a method: `execute-api:Invoke`, `execute-api:*`, `*` (IAM action names ignore case). */
function invokes(action: unknown): boolean {
  return typeof action === 'string' && resourceMatches(action.toLowerCase(), 'execute-api:invoke');
}

function applies(statement: Statement, methodArn: string): boolean {
  return (
    list(statement.Action).some(invokes) &&
    list(statement.Resource).some((resource) => typeof resource === 'string' && resourceMatches(resource, methodArn))
  );
}

/** IAM's evaluation for one request: allowed when an Allow statement covers the method ARN and no Deny does. */
export function policyAllows(answer: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = answer.policyDocument.Statement as Statement[];
  const matching = statements.filter((statement) => applies(statement, methodArn));
  return matching.some((statement) => statement.Effect === 'Allow') && !matching.some((statement) => statement.Effect === 'Deny');
}

/**
 * `requestContext.authorizer` of the integration's event: each context value stringified (a number `7` is `"7"`,
 * `true` is `"true"`), then `principalId` and `integrationLatency` (the authorizer's run in ms; 0 for an answer
 * from the cache, as no function ran).
 */
export function integrationAuthorizer(answer: APIGatewayAuthorizerResult, integrationLatency: number): Record<string, string | number> {
  const context: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(answer.context ?? {})) {
    if (value === null || value === undefined) continue;
    context[name] = String(value);
  }
  return { ...context, principalId: answer.principalId, integrationLatency };
}
