// Configuration problems: the error that lists them, and the `<json path>` notation every message starts with.

export type Path = ReadonlyArray<PropertyKey>;

/** A configuration file that cannot be used; `issues` holds one `<path>: <message>` line per problem. */
export class ConfigError extends Error {
  readonly issues: string[];

  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `shops[0].api_keys[1].scope`, or `(root)` for the document itself. */
export function formatPath(path: Path): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) formatted += formatted ? `.${segment}` : segment;
    else formatted += `[${JSON.stringify(String(segment))}]`;
  }
  return formatted || '(root)';
}
