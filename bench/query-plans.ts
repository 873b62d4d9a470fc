// Query plans of the list and dashboard stats queries (issue 7), taken from the real repository:
// a Kysely plugin records each query the repository builds, and the plan of that same SQL is
// printed — EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL.
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { Db } from '../server/db/database';
import { createLeadsRepository } from '../server/repositories/leads.repository';

export async function printQueryPlans(
  database: Pick<Db, 'db' | 'dialect'>,
  employeeId: number,
): Promise<void> {
  const seen: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      seen.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const leads = createLeadsRepository(database.db.withPlugin(recorder));
  const plans: [string, () => Promise<unknown>][] = [
    ["employee's board, GET /api/Admin/leads", () => leads.list({ assignedToId: employeeId })],
    [
      'dashboard page, GET /api/Admin/unassigned?afterId=&pageSize=500',
      () =>
        Promise.all([
          leads.list({ unassignedOnly: true }, { afterId: 50_000, limit: 500 }),
          leads.count({ unassignedOnly: true }),
        ]),
    ],
    ['dashboard charts, GET /api/Admin/stats', () => leads.stats()],
  ];
  const explain = database.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  for (const [name, run] of plans) {
    seen.length = 0;
    await run();
    console.log(`\n${explain.trim()} (${database.dialect}), ${name}:`);
    for (const node of [...seen]) {
      const query = database.db.getExecutor().compileQuery(node, { queryId: 'plan' });
      const answer = await database.db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(explain + query.sql, [...query.parameters]),
      );
      console.log(`  ${query.sql}`);
      for (const row of answer.rows) console.log(`    ${row.detail ?? row['QUERY PLAN']}`);
    }
  }
}
