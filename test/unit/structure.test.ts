// The shape the data layer and the points rule were given, held: no repository imports another, one place
// builds a tier.changed event (the domain's points move), and the authorizer's bundle stays clear of the
// customer list, the history and the due-work index.
import { authorizerBundle, repositoryImports, tierChangedBuilders } from '../../scripts/structure';

describe('the shape of the tree', () => {
  it('has no repository importing another repository', () => {
    expect(repositoryImports()).toEqual([]);
  });

  it('builds tier.changed in one place: the member points rule of the domain', () => {
    expect(tierChangedBuilders().map((place) => place.split(':')[0])).toEqual(['shared/domain/member-points.ts']);
  });

  it("keeps the authorizer's bundle to the key's item and what reads it", async () => {
    const { dataModules } = await authorizerBundle();

    expect(dataModules.filter((module) => /customer|history|due|shop-repository|list/.test(module))).toEqual([]);
    expect(dataModules).toContain('shared/data/api-key-repository.ts');
  });
});
