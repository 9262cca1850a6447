// The generated OpenAPI document passes Stoplight Spectral's `spectral:oas` ruleset (the rules its
// CLI applies by default) with no finding at all, so the reference a person reads stays complete.
import { Document, Spectral, type ISpectralDiagnostic, type RulesetDefinition } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { ROUTES } from '../../shared/runtime/entry-points';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

/** `extends: spectral:oas` in a ruleset file means the ruleset's recommended rules, as here. */
const SPECTRAL_OAS: RulesetDefinition = { extends: [[oas as RulesetDefinition, 'recommended']] };

async function lint(document: unknown): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset(SPECTRAL_OAS);
  const results: ISpectralDiagnostic[] = await spectral.run(new Document(JSON.stringify(document, null, 2), Json, 'openapi.json'));
  return results.map((result) => `${result.code} at ${result.path.join('.') || '(root)'}: ${result.message}`);
}

describe('the OpenAPI document under spectral:oas', () => {
  it('has no finding at all', async () => {
    expect(await lint(buildOpenApiDocument())).toEqual([]);
  });

  it('would report an operation that lost its tags and description, and a document without contact', async () => {
    const document = buildOpenApiDocument();
    const route = ROUTES[0]!;
    const operation = (document.paths[route.path] as Record<string, Record<string, unknown>>)[route.method.toLowerCase()]!;
    delete operation.tags;
    delete operation.description;
    const { contact: _contact, ...info } = document.info;

    const findings = await lint({ ...document, info });

    expect(findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^info-contact /),
        expect.stringMatching(/^operation-tags at paths\./),
        expect.stringMatching(/^operation-description at paths\./),
      ]),
    );
  });
});
