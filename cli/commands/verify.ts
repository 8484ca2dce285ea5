import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';
import { parseStreams } from '../parsers.ts';
import type { StreamName } from '../../common/streamNames.ts';

export function registerVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description('check completeness and consistency: block-range gaps, counts against the API, balances from UTXOs')
    .option('--streams <list>', 'limit to these streams', parseStreams)
    .option('--json', 'machine-readable output')
    .option('--changed', 'nightly checks: only what commits changed since the last verify without problems (the first one runs in full)')
    .action(withConfig(async (config, opts: { streams?: StreamName[]; json?: boolean; changed?: boolean }) => {
      const mode = opts.changed ? { mode: 'changed' as const } : {};
      const { runMaintenance } = await import('../runOnWorker.ts');
      // Sharded: each shard checks what it holds; the workflow adds the checks only the union can make.
      const findings = config.shards.length
        ? await runMaintenance(config, 'shardedVerifyWorkflow', [{ shards: config.shards, streams: opts.streams, ...mode }])
        : await runMaintenance(config, 'verifyWorkflow', [{ streams: opts.streams, ...mode }]);
      const problems = findings.filter((f) => !f.ok);
      if (opts.json) process.stdout.write(`${JSON.stringify(findings, null, 2)}
`);
      else {
        for (const f of findings) process.stdout.write(`${f.ok ? (f.warning ? 'warn' : 'ok  ') : 'FAIL'}  ${f.check}: ${f.detail}
`);
        const warnings = findings.filter((f) => f.warning).length;
        const warned = warnings ? `, ${warnings} schema drift warning(s): see docs/drift.md` : '';
        process.stdout.write(problems.length ? `verify: ${problems.length} problem(s)${warned}
` : `verify: no problems (${findings.length} checks${warned})
`);
      }
      if (problems.length) process.exitCode = 1;
    }));
}
