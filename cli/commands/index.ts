import type { Command } from 'commander';
import { registerConfigCommand } from './config.ts';
import { registerDemoCommand } from './demo.ts';
import { registerDevServerCommand } from './devServer.ts';
import { registerExportCommand } from './export.ts';
import { registerReportCommand } from './report.ts';
import { registerRunCommands } from './run.ts';
import { registerScheduleCommand } from './schedule.ts';
import { registerSimulatorCommand } from './simulator.ts';
import { registerSqlCommand } from './sql.ts';
import { registerStatusCommand } from './status.ts';
import { registerVerifyCommand } from './verify.ts';
import { registerWorkerCommand } from './worker.ts';

export function registerCommands(program: Command): void {
  registerDemoCommand(program);
  registerRunCommands(program);
  registerScheduleCommand(program);
  registerStatusCommand(program);
  registerExportCommand(program);
  registerVerifyCommand(program);
  registerSqlCommand(program);
  registerReportCommand(program);
  registerConfigCommand(program);
  registerWorkerCommand(program);
  registerDevServerCommand(program);
  registerSimulatorCommand(program);
}
