// Where a scheduled job's run goes when it still fails after Lambda's retries: EventBridge invokes the
// jobs asynchronously, so without an on-failure destination a failed run would leave only a log line.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * Lambda's retries of a job run that threw (about 1 and 3 minutes later), and how long a run may wait
 * for them (throttled or backed up) before it is set aside: the next scheduled run does the work anyway.
 */
export const JOB_RUN_RETRIES = { retryAttempts: 2, maxEventAge: Duration.hours(1) };

export class FailedJobRuns extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
  }
}
