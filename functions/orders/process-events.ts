// Consumes the order event queue: each verified delivery applied once (shared/orders), with partial batch
// failures so that only the messages that failed go back to the queue (and to the dead-letter queue after that).
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { OrderEventMessage } from '../../shared/events/order-event-queue';
import { logger, publishMetrics } from '../../shared/observability/powertools';
import { traceHandler } from '../../shared/observability/tracing';
import { processOrderEvent } from '../../shared/orders/process-order-event';

const processor = new BatchProcessor(EventType.SQS);

const recordHandler = async (record: SQSRecord) => processOrderEvent(JSON.parse(record.body) as OrderEventMessage);

export const handler = middy(async (event: SQSEvent, context: Context) => processPartialResponse(event, recordHandler, processor, { context }))
  .use(traceHandler())
  .use(injectLambdaContext(logger, { clearState: true }))
  .use(publishMetrics());
