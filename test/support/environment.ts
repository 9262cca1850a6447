// The one place tests change the process environment, which the functions (shared/runtime/env.ts),
// Powertools and the CLI read as they do in Lambda: every change is put back when the test is done.
import { resetEnv, type Env } from '../../shared/runtime/env';

/** The functions' settings, Powertools' switches and the AWS SDK's credentials; `undefined` removes a variable. */
export type EnvironmentVariables = Partial<
  Record<keyof Env | `POWERTOOLS_${string}` | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY', string | undefined>
>;

/**
 * Sets the variables and forgets the parsed environment. The function returned puts the whole
 * environment back as it was, including what the code under test changed meanwhile.
 */
export function setEnvironment(variables: EnvironmentVariables): () => void {
  const before = { ...process.env };
  apply(variables);
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
    apply(before);
  };
}

/** The variables for every test of the enclosing block: set once around them all, or around each one. */
export function useEnvironment(variables: EnvironmentVariables, { each = false }: { each?: boolean } = {}): void {
  let restore = () => {};
  (each ? beforeEach : beforeAll)(() => {
    restore = setEnvironment(variables);
  });
  (each ? afterEach : afterAll)(() => restore());
}

function apply(variables: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(variables)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();
}
