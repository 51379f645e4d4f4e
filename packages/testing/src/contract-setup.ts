import { takeContractProblems } from './contract-recorder';

/**
 * Jest `setupFilesAfterEnv` file: fails the test during which a contract problem was recorded
 * (problems from a `beforeAll` land on the file's first test, those after the last test on
 * `afterAll`). Hooks are looked up on globalThis so this file also builds without jest's types.
 */
type Hook = (fn: () => void) => void;
const hooks = globalThis as { afterEach?: Hook; afterAll?: Hook };
if (!hooks.afterEach || !hooks.afterAll) throw new Error('contract-setup.ts must run as a jest setupFilesAfterEnv file');

function failOnProblems(): void {
  const problems = takeContractProblems();
  if (problems.length > 0) throw new Error(`Responses broke the OpenAPI contract:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

hooks.afterEach(failOnProblems);
hooks.afterAll(failOnProblems);
