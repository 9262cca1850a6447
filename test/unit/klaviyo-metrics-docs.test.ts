// docs/events.md's Klaviyo metrics are the code's: the table "Metrics and the flows to build" maps exactly the
// event types of `KLAVIYO_METRICS` to their metric names (stores build their flows on these names), and the
// types the page says update the profile only are exactly the other types the Klaviyo rule sends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KLAVIYO_EVENT_TYPES, KLAVIYO_METRICS } from '../../shared/klaviyo/loyalty-event';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'events.md'), 'utf8');
const section = page.slice(page.indexOf('### Metrics and the flows to build'), page.indexOf('### Delivery and Klaviyo'));

/** The table's rows as event type -> metric (a row names one metric and one or more types). */
function documentedMetrics(): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const [, metric, types] of section.matchAll(/^\| `(Loyalty [^`]+)` \| ([^|]+) \|/gm)) {
    for (const [, type] of types!.matchAll(/`([a-z_]+\.[a-z_]+)`/g)) {
      expect(mapping[type!]).toBeUndefined();
      mapping[type!] = metric!;
    }
  }
  return mapping;
}

/** The types of the sentence "… update the profile only". */
function documentedProfileOnly(): string[] {
  const sentence = /((?:`[a-z_.]+`(?:, | and )?)+) update the profile only\./.exec(section.replace(/\s+/g, ' '))?.[1] ?? '';
  return [...sentence.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((match) => match[1]!).sort();
}

describe('docs/events.md, the Klaviyo metrics', () => {
  it('the metric table equals the code’s mapping, type by type', () => {
    const documented = documentedMetrics();

    expect(Object.keys(documented).length).toBeGreaterThanOrEqual(10);
    expect(documented).toEqual({ ...KLAVIYO_METRICS });
  });

  it('the profile-only types are the rule’s other types', () => {
    const profileOnly = KLAVIYO_EVENT_TYPES.filter((type) => !(type in KLAVIYO_METRICS)).sort();

    expect(profileOnly.length).toBeGreaterThan(0);
    expect(documentedProfileOnly()).toEqual(profileOnly);
  });
});
