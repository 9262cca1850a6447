// CDK entry point (`cdk synth`, `cdk deploy`).
import { App } from 'aws-cdk-lib';
import { LoyaltyStack } from './loyalty-stack';

const app = new App();
new LoyaltyStack(app, 'LoyaltyApi', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
