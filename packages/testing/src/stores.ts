import {
  CreditRepository,
  createDb,
  type Db,
  EventRepository,
  JobRepository,
  JobTargetRepository,
  ResultRepository,
  TrackingRepository,
  AlertStateRepository,
} from '@crawl/db';
import { QueueProducer } from '@crawl/queue';
import { createRedisConnection, type Redis } from '@crawl/redis';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase, uniquePrefix } from './databases';

/** A clone of the migrated template with a pool on it: what a direct test of the core needs. */
export interface TestStore {
  database: TestDatabase;
  db: Db;
  close(): Promise<void>;
}

export async function openTestStore(poolSize = 4): Promise<TestStore> {
  const database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  const db = createDb({ url: database.url, poolSize });
  return {
    database,
    db,
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}

/** Redis and a producer under a private queue prefix; `close` empties the prefix's queues. */
export interface TestQueue {
  redis: Redis;
  producer: QueueProducer;
  prefix: string;
  close(): Promise<void>;
}

export function openTestQueue(label: string): TestQueue {
  const redis = createRedisConnection(TEST_REDIS_URL);
  const prefix = uniquePrefix(label);
  const producer = new QueueProducer(redis, prefix);
  return {
    redis,
    producer,
    prefix,
    async close() {
      await producer.removeAll();
      await producer.close();
      redis.disconnect();
    },
  };
}

/** The repositories a target outcome writes through (the shape of JobProgressDeps in packages/jobs). */
export function progressRepositories(db: Db) {
  return {
    db,
    jobs: new JobRepository(db),
    targets: new JobTargetRepository(db),
    results: new ResultRepository(db),
    credits: new CreditRepository(db),
    events: new EventRepository(db),
    tracking: new TrackingRepository(db),
    alerts: new AlertStateRepository(),
  };
}
