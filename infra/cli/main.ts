// `loyalty`: the operator CLI (config apply, keys create/revoke/list) for a deployed stack or the twin.
import '../local/local-env';
import { parseArgs } from 'node:util';
import { configApply, keysCreate, keysList, keysRevoke } from './commands';
import { resolveTarget } from './targets';

export const USAGE = `Usage:
  loyalty config apply FILE                                   [target]
  loyalty keys create --shop S --name N --scope full|read     [target]
  loyalty keys revoke --shop S --key-id ID                    [target]
  loyalty keys list --shop S                                  [target]

target (one of):
  --stack NAME [--region R]        a deployed stack (table and usage plan from its outputs)
  --endpoint URL [--table NAME]    a DynamoDB endpoint, e.g. the local twin's DynamoDB Local`;

export async function main(argv: string[], print: (line: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      shop: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string' },
      'key-id': { type: 'string' },
      stack: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
      table: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    print(USAGE);
    return values.help ? 0 : 1;
  }
  const need = (name: 'shop' | 'name' | 'scope' | 'key-id') => {
    const value = values[name];
    if (!value) throw new Error(`--${name} is required`);
    return value;
  };
  const [group, command, file] = positionals;
  const targetOptions = {
    ...(values.endpoint ? { endpoint: values.endpoint } : {}),
    ...(values.table ? { table: values.table } : {}),
    ...(values.stack ? { stack: values.stack } : {}),
    ...(values.region ? { region: values.region } : {}),
  };

  if (group === 'config' && command === 'apply' && file) {
    const target = await resolveTarget(targetOptions);
    print(`applying ${file} to ${target.description} (table ${target.tableName})`);
    await configApply(file, print);
    return 0;
  }
  if (group === 'keys' && command === 'create') {
    const scope = need('scope');
    if (scope !== 'full' && scope !== 'read') throw new Error("--scope must be 'full' or 'read'");
    const target = await resolveTarget(targetOptions);
    await keysCreate({ shop: need('shop'), name: need('name'), scope }, target.usagePlanKeys, print);
    return 0;
  }
  if (group === 'keys' && command === 'revoke') {
    const target = await resolveTarget(targetOptions);
    await keysRevoke({ shop: need('shop'), keyId: need('key-id') }, target.usagePlanKeys, print);
    return 0;
  }
  if (group === 'keys' && command === 'list') {
    await resolveTarget(targetOptions);
    await keysList({ shop: need('shop') }, print);
    return 0;
  }
  print(USAGE);
  return 1;
}
