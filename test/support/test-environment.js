// Jest's node environment, which also stops the test file's own DynamoDB Local (stream-dynamodb.ts) once
// everything of the file has run: its afterAll hooks stop twins that still write to it.
const { TestEnvironment } = require('jest-environment-node');

class LoyaltyTestEnvironment extends TestEnvironment {
  async teardown() {
    const started = this.global.__loyaltyFileDynamoDbLocal;
    if (started) {
      this.global.__loyaltyFileDynamoDbLocal = undefined;
      await started.then(
        (local) => local.stop(),
        () => undefined,
      );
    }
    await super.teardown();
  }
}

module.exports = LoyaltyTestEnvironment;
