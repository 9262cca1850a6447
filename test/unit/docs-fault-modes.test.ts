// docs/local-twin.md lists exactly the keys `PUT /_faults` accepts and exactly its fault modes, so the page
// cannot fall behind the simulator (infra/local/simulator/simulator-faults.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_MODES, faultsBodySchema, STORE_CREDIT_FAULT_MODES } from '../../infra/local/simulator/simulator-faults';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'local-twin.md'), 'utf8');
/** The `PUT /_faults` item of the platform simulator's control endpoints, up to the next one. */
const item = /^- `PUT \/_faults`[\s\S]*?(?=^- `)/m.exec(page)?.[0] ?? '';

describe('docs/local-twin.md on PUT /_faults', () => {
  it('shows every key the body takes, and no other', () => {
    // Act
    const documented = [...item.matchAll(/"(\w+)": (?:MODE|N|BUS|CREDIT)\b/g)].map((match) => match[1]);

    // Assert
    expect(documented.sort()).toEqual(Object.keys(faultsBodySchema.shape).sort());
  });

  it('describes every fault mode, and no other', () => {
    // Act
    const documented = [...item.matchAll(/^ {2}- `(\w+)`/gm)].map((match) => match[1]);

    // Assert
    expect(documented.sort()).toEqual([...FAULT_MODES].sort());
  });

  it('describes every store_credit mode', () => {
    // Act
    const described = /`store_credit`[^]*?takes four modes:([^]*?)`token_lifetime_seconds`/.exec(item)?.[1] ?? '';
    const documented = [...described.matchAll(/`(\w+)`(?:\s+\(|;|\.)/g)].map((match) => match[1]);

    // Assert
    expect(documented.sort()).toEqual([...STORE_CREDIT_FAULT_MODES].sort());
  });
});
