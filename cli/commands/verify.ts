import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';
import { parseStreams } from '../parsers.ts';
import type { StreamName } from '../../common/streamNames.ts';

export function registerVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description('check completeness and consistency: block-range gaps, counts against the API, balances from UTXOs')
    .option('--streams <list>', 'limit to these streams', parseStreams)
    .option('--json', 'machine-readable output')
    .action(async (opts: { streams?: StreamName[]; json?: boolean }, command: Command) => {
      const config = await configFor(command);
      const [{ withSession }, { runOnWorker }, { verifyWorkflow }, { shardedVerifyWorkflow }] = await Promise.all([
        import('../session.ts'),
        import('../runOnWorker.ts'),
        import('../../workflows/maintenance.ts'),
        import('../../workflows/shards.ts'),
      ]);
      await withSession(config, async (session) => {
        // Sharded: each shard checks what it holds; the workflow adds the checks only the union can make.
        const findings = config.shards.length
          ? await runOnWorker(session, shardedVerifyWorkflow, 'glacier-verify', [{ shards: config.shards, streams: opts.streams }])
          : await runOnWorker(session, verifyWorkflow, 'glacier-verify', [{ streams: opts.streams }]);
        const problems = findings.filter((f) => !f.ok);
        if (opts.json) process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
        else {
          for (const f of findings) process.stdout.write(`${f.ok ? 'ok  ' : 'FAIL'}  ${f.check}: ${f.detail}\n`);
          process.stdout.write(problems.length ? `verify: ${problems.length} problem(s)\n` : `verify: no problems (${findings.length} checks)\n`);
        }
        if (problems.length) process.exitCode = 1;
      });
    });
}
