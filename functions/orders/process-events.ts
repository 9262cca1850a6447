// Consumes the order event queue: each verified delivery (or Shopify EventBridge event) applied once
// (shared/orders), with partial batch failures so that only the messages that failed go back to the queue
// (and to the dead-letter queue after that).
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, publishMetrics } from '../../shared/observability/powertools';
import { traceHandler } from '../../shared/observability/tracing';
import { processQueuedOrderEvent } from '../../shared/orders/process-queued-order-event';

const processor = new BatchProcessor(EventType.SQS);

const recordHandler = async (record: SQSRecord) => processQueuedOrderEvent(record.body, record.messageId);

export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, recordHandler, processor, { context }),
)
  .use(traceHandler())
  .use(injectLambdaContext(logger, { clearState: true }))
  .use(publishMetrics());
