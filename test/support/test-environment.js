// Jest's node environment, which also lends each test file that starts twins a DynamoDB Local for tables with a
// stream (stream-dynamodb.ts), from a pool of one per worker process: a fresh Java costs about 3 s of a
// 2-core machine per file (its start and warm-up), while the stream records it keeps slow every write to a
// streamed table the more it holds. So one instance serves FILES_PER_INSTANCE files, then is stopped (after the
// last of them has run everything, its twins' stops included) and the next file starts a new one.
const { TestEnvironment } = require('jest-environment-node');

/** Test files one DynamoDB Local for streamed tables serves before a fresh one. */
const FILES_PER_INSTANCE = 3;

/** A pool of one DynamoDB Local, lent to the files that need one. */
function createPool() {
  return {
    current: null,
    files: 0,
    async stop() {
      const started = this.current;
      this.current = null;
      this.files = 0;
      if (started)
        await started.then(
          (local) => local.stop(),
          () => undefined,
        );
    },
  };
}

class LoyaltyTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.usedStreams = false;
    // Called by stream-dynamodb.ts with how to start one: the pool's instance, started on first need.
    const pool = this.constructor.pool;
    // `alone`: a file that loads thousands of items into streamed tables takes a fresh instance and retires it
    // after itself, so that its stream records slow no other file.
    this.global.__loyaltyStreamDynamoDb = async (start, { alone = false } = {}) => {
      if (alone && !this.usedStreams && pool.files > 0) await pool.stop();
      this.usedStreams = true;
      this.alone ||= alone;
      pool.current ??= start();
      return pool.current;
    };
  }

  async teardown() {
    const pool = this.constructor.pool;
    if (this.usedStreams) {
      pool.files += 1;
      if (this.alone || pool.files >= FILES_PER_INSTANCE) await pool.stop();
    }
    await super.teardown();
  }
}

LoyaltyTestEnvironment.FILES_PER_INSTANCE = FILES_PER_INSTANCE;
LoyaltyTestEnvironment.createPool = createPool;
/** The worker's pool, on the worker's own global, so that the global teardown stops its last instance. */
LoyaltyTestEnvironment.pool = globalThis.__loyaltyStreamPool ??= createPool();
module.exports = LoyaltyTestEnvironment;
