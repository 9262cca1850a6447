// The production stack. Today: the table. The API, functions and observability join it as their
// constructs land (see README, Deploy).
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { LoyaltyTable } from './constructs/loyalty-table';

export class LoyaltyStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const { table } = new LoyaltyTable(this, 'Data');
    new CfnOutput(this, 'TableName', { value: table.tableName });
  }
}
