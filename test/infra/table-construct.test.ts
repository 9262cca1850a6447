import { Match } from 'aws-cdk-lib/assertions';
import { createTableInput } from '../../shared/data/table';
import { synthStack } from '../support/synth-stack';

const { template } = synthStack();

describe('table in the stack', () => {
  it('is on-demand, recoverable, protected from deletion and retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      }),
    });
  });

  it('has exactly the indexes of the shared table definition the twin uses', () => {
    const local = createTableInput('x');
    const table = Object.values(template.findResources('AWS::DynamoDB::Table'))[0]!.Properties;

    const names = (indexes: Array<{ IndexName?: string }> | undefined) => (indexes ?? []).map((i) => i.IndexName).sort();
    expect(names(table.GlobalSecondaryIndexes)).toEqual(names(local.GlobalSecondaryIndexes));
    expect(names(table.LocalSecondaryIndexes)).toEqual(names(local.LocalSecondaryIndexes));
    const types = (defs: Array<{ AttributeName?: string; AttributeType?: string }>) =>
      Object.fromEntries(defs.map((d) => [d.AttributeName, d.AttributeType]));
    expect(types(table.AttributeDefinitions)).toEqual(types(local.AttributeDefinitions!));
  });
});
