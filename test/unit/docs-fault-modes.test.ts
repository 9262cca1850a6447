// docs/local-twin.md lists exactly the keys `PUT /_faults` accepts and exactly its fault modes, so the page
// cannot fall behind the simulator (infra/local/simulator/simulator-faults.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_MODES, faultsBodySchema } from '../../infra/local/simulator/simulator-faults';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'local-twin.md'), 'utf8');
/** The `PUT /_faults` item of the platform simulator's control endpoints, up to the next one. */
const item = /^- `PUT \/_faults`[\s\S]*?(?=^- `)/m.exec(page)?.[0] ?? '';

describe('docs/local-twin.md on PUT /_faults', () => {
  it('shows every key the body takes, and no other', () => {
    // Act
    const documented = [...item.matchAll(/"(\w+)": (?:MODE|N|BUS)\b/g)].map((match) => match[1]);

    // Assert
    expect(documented.sort()).toEqual(Object.keys(faultsBodySchema.shape).sort());
  });

  it('describes every fault mode, and no other', () => {
    // Act
    const documented = [...item.matchAll(/^ {2}- `(\w+)`/gm)].map((match) => match[1]);

    // Assert
    expect(documented.sort()).toEqual([...FAULT_MODES].sort());
  });
});
