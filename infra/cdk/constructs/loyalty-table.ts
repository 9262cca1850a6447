// The single DynamoDB table, built from the same definition the local twin and tests create.
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  GLOBAL_INDEXES,
  type GlobalIndexDefinition,
  LOCAL_INDEXES,
  PARTITION_KEY,
  SORT_KEY,
  STREAM_VIEW_TYPE,
  TTL_ATTRIBUTE,
  type IndexKey,
} from '../../../shared/data/table';

const attribute = (key: IndexKey) => ({ name: key.name, type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING });

export class LoyaltyTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      encryption: TableEncryption.AWS_MANAGED,
      // The new image: the event delivery reads the domain event an insertion carries (docs/events.md); the
      // authorizer-cache flusher reads only the keys of the same records.
      stream: StreamViewType[STREAM_VIEW_TYPE],
    });
    for (const index of Object.values(GLOBAL_INDEXES) as GlobalIndexDefinition[]) {
      const projection =
        index.projection === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : index.projection === 'KEYS_ONLY'
            ? { projectionType: ProjectionType.KEYS_ONLY }
            : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] };
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
        ...projection,
      });
    }
    for (const index of Object.values(LOCAL_INDEXES)) {
      this.table.addLocalSecondaryIndex({
        indexName: index.indexName,
        sortKey: attribute(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
