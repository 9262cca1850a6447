// Instant revocation with the authorizer cache on: the table's stream, filtered to API key items
// (`KEY#<hash>`), drives one small function that flushes the stage's authorizer cache. Retries, then
// an on-failure queue with an alarm on its depth, so a flush that never happened is never silent.
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EntryPoint } from '../../../shared/runtime/entry-points';
import { LoyaltyFunction } from './loyalty-function';

/** The stream filter: API key items only (`pk` = `KEY#<hash>`); customers, orders and listings never flush. */
export const KEY_ITEM_FILTER = FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: FilterRule.beginsWith('KEY#') } } } });
/** Attempts after the first before a batch goes to the failure queue; with backoff, about a minute in all. */
export const FLUSH_RETRY_ATTEMPTS = 10;

export interface AuthorizerCacheFlusherProps {
  /** Where the function goes (a nested stack); the failures queue stays in this construct's stack. */
  functionScope?: Construct;
  /** The flusher's manifest entry: its handler, and what it is granted (the cache's flush, the key stream). */
  entry: EntryPoint;
  table: Table;
  api: RestApi;
  environment: Record<string, string>;
  logRetention: RetentionDays;
}

export class AuthorizerCacheFlusher extends Construct {
  readonly fn: LoyaltyFunction['fn'];
  /** Batches of key changes whose flush failed on every attempt: the cache then holds for up to its TTL. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: AuthorizerCacheFlusherProps) {
    super(scope, id);
    const stage = props.api.deploymentStage;
    const { entry } = props;
    const fn = new LoyaltyFunction(props.functionScope ?? this, props.functionScope ? id : 'Fn', {
      entry: entry.handler,
      description: 'Flushes the API authorizer cache when an API key item changes',
      environment: { ...props.environment, REST_API_ID: props.api.restApiId, API_STAGE_NAME: stage.stageName },
      logRetention: props.logRetention,
      timeout: Duration.seconds(10),
      memorySize: 256,
    }).bindTable(props.table, entry.table);
    this.fn = fn.fn;
    // Exactly the flush of this stage's authorizer cache: DELETE on its cache resource, nothing else.
    if (entry.uses?.includes('authorizerCache')) {
      this.fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['apigateway:DELETE'],
          resources: [
            `arn:${Stack.of(this).partition}:apigateway:${Stack.of(this).region}::/restapis/${props.api.restApiId}/stages/${stage.stageName}/cache/authorizers`,
          ],
        }),
      );
    }

    this.failures = new Queue(this, 'Failures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    if (!entry.grants?.includes('keyStream')) throw new Error(`${entry.name}: a flusher without the key stream never flushes`);
    this.fn.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.LATEST,
        filters: [KEY_ITEM_FILTER],
        // Key changes are rare and each batch is one flush: no waiting to fill a batch.
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(0),
        retryAttempts: FLUSH_RETRY_ATTEMPTS,
        maxRecordAge: Duration.minutes(5),
        onFailure: new SqsDlq(this.failures),
      }),
    );
  }
}
