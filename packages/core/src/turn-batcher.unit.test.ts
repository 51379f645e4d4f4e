import { TurnBatcher } from './turn-batcher';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

it('runs the calls of one turn together, each getting its own result in order', async () => {
  const batches: number[][] = [];
  const batcher = new TurnBatcher<number, number>(async (items) => {
    batches.push(items);
    return items.map((n) => n * 10);
  });
  const first = await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
  expect(first).toEqual([10, 20, 30]);
  expect(await batcher.add(4)).toBe(40);
  expect(batches).toEqual([[1, 2, 3], [4]]);
});

it('starts a batch only after the turn that made its calls', async () => {
  let ran = false;
  const batcher = new TurnBatcher<number, number>(async (items) => {
    ran = true;
    return items;
  });
  const pending = batcher.add(1);
  await Promise.resolve();
  expect(ran).toBe(false);
  await nextTurn();
  expect(ran).toBe(true);
  await pending;
});

it("a batch's failure is each of its calls', and the next batch runs anew", async () => {
  let fail = true;
  const batcher = new TurnBatcher<number, number>(async (items) => {
    if (fail) throw new Error('store down');
    return items;
  });
  const failed = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
  expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  fail = false;
  expect(await batcher.add(3)).toBe(3);
});

it('a full batch goes at once; the rest of the turn waits for the next', async () => {
  const batches: number[][] = [];
  const batcher = new TurnBatcher<number, number>(async (items) => {
    batches.push(items);
    return items;
  }, 2);
  await Promise.all([1, 2, 3].map((n) => batcher.add(n)));
  expect(batches).toEqual([[1, 2], [3]]);
});
