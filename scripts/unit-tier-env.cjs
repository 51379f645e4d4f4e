/**
 * Jest `setupFiles` of the unit project (scripts/test-tiers.cjs): unit tests use no Postgres and
 * no Redis, so the test store URLs point at a host that cannot resolve. A unit test that opens a
 * connection fails with `ENOTFOUND no-stores-in-unit-tests.invalid` and belongs in the
 * integration tier.
 */
process.env.TEST_DATABASE_URL = 'postgres://postgres@no-stores-in-unit-tests.invalid:5432/postgres';
process.env.TEST_REDIS_URL = 'redis://no-stores-in-unit-tests.invalid:6379';
