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
    .action(withConfig(async (config, opts: { streams?: StreamName[]; json?: boolean }) => {
      const { runMaintenance } = await import('../runOnWorker.ts');
      const findings = await runMaintenance(config, 'verifyWorkflow', [{ streams: opts.streams }]);
      const problems = findings.filter((f) => !f.ok);
      if (opts.json) process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
      else {
        for (const f of findings) process.stdout.write(`${f.ok ? 'ok  ' : 'FAIL'}  ${f.check}: ${f.detail}\n`);
        process.stdout.write(problems.length ? `verify: ${problems.length} problem(s)\n` : `verify: no problems (${findings.length} checks)\n`);
      }
      if (problems.length) process.exitCode = 1;
    }));
}
