// Synthesizes the production stack for assertions, without bundling the functions (fast); the real
// bundling synth runs in test/infra/synth.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Aspects, type CfnResource, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { LoyaltyStack, type LoyaltyStackProps } from '../../infra/cdk/loyalty-stack';
import { acknowledgeNagFindings } from '../../infra/cdk/nag-acknowledgements';

/**
 * The stack for assertions: `template` is the whole deployment flattened into one template (every nested stack's
 * resources beside the main stack's, each nested parameter and output replaced by the value it carries), so a
 * test reads a grant or an alarm as it would in one stack; `main` is the main stack's own template.
 */
export function synthStack(options: { nag?: boolean; props?: LoyaltyStackProps } = {}): {
  stack: Stack;
  template: Template;
  main: Template;
  nested: Map<string, Template>;
} {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new LoyaltyStack(app, 'Test', { alarmEmail: 'ops@example.com', ...options.props });
  if (options.nag) {
    acknowledgeNagFindings(stack);
    Aspects.of(app).add(new AwsSolutionsChecks());
    Aspects.of(app).add(new ServerlessChecks());
  }
  const main = Template.fromStack(stack);
  const nested = new Map(nestedStacksOf(stack).map((child) => [child.node.id, Template.fromStack(child)]));
  return { stack, template: flattened(stack, main), main, nested };
}

/** The stack's nested stacks. */
export function nestedStacksOf(stack: Stack): NestedStack[] {
  return stack.node.findAll().filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CloudFormation JSON
type Json = any;

/** Replaces `{ Ref: name }` by `values[name]` and `{ Fn::GetAtt: [id, 'Outputs.X'] }` by `outputs(id, X)`, everywhere in `node`. */
function substitute(node: Json, values: Record<string, Json>, outputs: (id: string, name: string) => Json | undefined): Json {
  if (Array.isArray(node)) return node.map((item) => substitute(item, values, outputs));
  if (node === null || typeof node !== 'object') return node;
  const keys = Object.keys(node);
  if (keys.length === 1 && keys[0] === 'Ref' && typeof node.Ref === 'string' && node.Ref in values) return values[node.Ref];
  if (keys.length === 1 && keys[0] === 'Fn::GetAtt' && Array.isArray(node['Fn::GetAtt'])) {
    const [id, attribute] = node['Fn::GetAtt'] as [string, string];
    if (typeof attribute === 'string' && attribute.startsWith('Outputs.')) {
      const value = outputs(id, attribute.slice('Outputs.'.length));
      if (value !== undefined) return substitute(value, values, outputs);
    }
  }
  return Object.fromEntries(keys.map((key) => [key, substitute(node[key], values, outputs)]));
}

/** One template of the main stack and its nested stacks, as if they were one stack. */
function flattened(stack: Stack, main: Template): Template {
  const root = main.toJSON();
  const children = nestedStacksOf(stack).map((child) => ({
    id: stack.resolve((child.nestedStackResource as CfnResource).logicalId) as string,
    json: Template.fromStack(child).toJSON(),
  }));
  const outputsById = new Map(children.map((child) => [child.id, child.json.Outputs ?? {}]));
  const outputs = (id: string, name: string): Json | undefined => outputsById.get(id)?.[name]?.Value;
  const resources: Record<string, Json> = {};
  for (const [id, resource] of Object.entries(root.Resources as Record<string, Json>)) {
    if (outputsById.has(id)) continue;
    resources[id] = substitute(resource, {}, outputs);
  }
  for (const child of children) {
    const parameters = substitute(root.Resources[child.id].Properties?.Parameters ?? {}, {}, outputs);
    for (const [id, resource] of Object.entries(child.json.Resources as Record<string, Json>)) {
      if (id in resources) throw new Error(`Logical id ${id} is in the main stack and in ${child.id}`);
      resources[id] = substitute(resource, parameters, outputs);
    }
  }
  return Template.fromJSON({ ...root, Resources: resources });
}

/**
 * Runs the CDK app as the CDK CLI does (context and output directory in the environment, no bundling)
 * and returns the synthesized template's resources: proves a `-c` switch reaches the stack.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CloudFormation properties are arbitrary JSON
export function synthAppWithContext(context: Record<string, string>): Array<{ Type: string; Properties: Record<string, any> }> {
  const out = mkdtempSync(join(tmpdir(), 'cdk-context-'));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'infra', 'cdk', 'app.ts')], {
      env: { ...process.env, CDK_OUTDIR: out, CDK_CONTEXT_JSON: JSON.stringify({ ...context, 'aws:cdk:bundling-stacks': [] }) },
      stdio: 'pipe',
    });
    return Object.values(JSON.parse(readFileSync(join(out, 'LoyaltyApi.template.json'), 'utf8')).Resources);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
