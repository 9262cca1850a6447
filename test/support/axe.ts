// axe-core from node_modules, run in a page or frame as it is: the serious and critical findings, each with
// the nodes it names. The page loads axe as its own policy allows: inline (the default), or from a URL its
// Content-Security-Policy accepts (the customer account and admin block hosts serve it).
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

let axeSource: string | null = null;

export interface Violation {
  id: string;
  impact: string;
  targets: string[];
}

export async function seriousViolations(
  target: Page | Frame,
  options: { axeUrl?: string; minimumPasses?: number } = {},
): Promise<Violation[]> {
  if (options.axeUrl) await target.addScriptTag({ url: options.axeUrl });
  else await target.addScriptTag({ content: (axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')) });
  // As text: this project compiles without the DOM's types.
  const result = (await target.evaluate(
    'axe.run(document).then((result) => ({ passes: result.passes.length, violations: result.violations }))',
  )) as { passes: number; violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown[] }> }> };
  // An audit that checked almost nothing ran on an empty page: a finding in itself.
  if (result.passes < (options.minimumPasses ?? 5))
    throw new Error(`axe-core passed only ${result.passes} checks: the page is not rendered`);
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)),
    }));
}
