// The layers of docs/code-map.md are held by `npm run lint`: a wrong import written into the tree
// fails ESLint with the layer's message, and the same import from a layer allowed to make it passes.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** Probe files written for one ESLint run, keyed by path; whether each must be refused (and by which rule's message). */
const PROBES: Record<string, { source: string; refused: boolean; rule?: string }> = {
  'shared/domain/zz-lint-probe.ts': { source: "import { keys } from '../data/keys';\nexport const probe = keys;\n", refused: true },
  'shared/data/zz-lint-probe.ts': {
    source: "import { badRequest } from '../http/errors';\nexport const probe = badRequest;\n",
    refused: true,
  },
  'shared/data/zz-lint-probe-repository.ts': {
    source: "import { getCustomer } from './customer-repository';\nexport const probe = getCustomer;\n",
    refused: true,
    rule: 'shared/data repositories',
  },
  'shared/data/zz-lint-probe-helper.ts': {
    source: "import { getCustomer } from './customer-repository';\nexport const probe = getCustomer;\n",
    refused: false,
  },
  'shared/orders/zz-lint-probe.ts': {
    source: "import { MAX_WEBHOOK_BYTES } from '../webhooks/receive-webhook';\nexport const probe = MAX_WEBHOOK_BYTES;\n",
    refused: true,
    rule: 'shared/orders',
  },
  'shared/customers/zz-lint-probe.ts': {
    source: "import { badRequest } from '../http/errors';\nexport const probe = badRequest;\n",
    refused: true,
  },
  'shared/customers/zz-lint-probe-requests.ts': {
    source: "import { badRequest } from '../http/errors';\nexport const probe = badRequest;\n",
    refused: false,
  },
  // The feature order (docs/code-map.md, "Within the features"): a folder imports only the folders below it.
  'shared/customers/zz-lint-probe-order.ts': {
    source: "import { listEarningRules } from '../rules/earning-rules-service';\nexport const probe = listEarningRules;\n",
    refused: true,
    rule: 'feature order',
  },
  'shared/customers/zz-lint-probe-order-resource.ts': {
    source: "import { purchaseResource } from '../purchases/purchase-resource';\nexport const probe = purchaseResource;\n",
    refused: true,
    rule: 'feature order',
  },
  'shared/orders/zz-lint-probe-order.ts': {
    source: "import { pointsApprovalJob } from '../calendar/points-approval';\nexport const probe = pointsApprovalJob;\n",
    refused: true,
    rule: 'feature order',
  },
  'shared/rules/zz-lint-probe-order.ts': {
    source: "import { resolveCustomer } from '../customers/customer-service';\nexport const probe = resolveCustomer;\n",
    refused: false,
  },
  'shared/openapi/zz-lint-probe.ts': {
    source: "import { ROUTES } from '../../infra/local/twin';\nexport const probe = ROUTES;\n",
    refused: true,
  },
  'functions/customers/zz-lint-probe.ts': {
    source: "import { keys } from '../../shared/data/keys';\nexport const probe = keys;\n",
    refused: true,
  },
  'infra/cdk/zz-lint-probe.ts': { source: "import { startTwin } from '../local/twin';\nexport const probe = startTwin;\n", refused: true },
};

interface LintResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; message: string }>;
}

describe('layers held by lint', () => {
  let results: LintResult[] = [];

  beforeAll(async () => {
    const files = Object.keys(PROBES);
    try {
      for (const [file, probe] of Object.entries(PROBES)) {
        mkdirSync(dirname(join(ROOT, file)), { recursive: true });
        writeFileSync(join(ROOT, file), probe.source);
      }
      const eslint = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
      // Only the import rules matter here: type-aware rules (and the whole-program type check they
      // need) are switched off, so the run takes seconds. ESLint exits 1 when it finds problems; the
      // JSON report is on stdout either way.
      const typeAwareOff = JSON.stringify({
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/await-thenable': 'off',
      });
      const output = await run(
        process.execPath,
        [eslint, '--parser-options=projectService:false', '--rule', typeAwareOff, '--format', 'json', ...files],
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }));
      results = JSON.parse(output.stdout) as LintResult[];
    } finally {
      for (const file of files) rmSync(join(ROOT, file), { force: true });
    }
  }, 120_000);

  it.each(Object.entries(PROBES))('%s', (file, probe) => {
    const result = results.find((candidate) => candidate.filePath === join(ROOT, file));
    const refusals = (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports');

    expect(result).toBeDefined();
    if (probe.refused) {
      expect(refusals).toHaveLength(1);
      expect(refusals[0]!.message).toMatch(/docs\/code-map\.md/);
      if (probe.rule) expect(refusals[0]!.message).toContain(`${probe.rule}: `);
    } else {
      expect(result!.messages).toEqual([]);
    }
  });
});
