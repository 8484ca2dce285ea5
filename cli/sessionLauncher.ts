import type { ResolvedConfig } from '../worker/config.ts';
import { DevServer } from '../worker/devServer.ts';
import { temporalStateDir } from '../worker/paths.ts';
import type * as SessionModule from './session.ts';
import type { Session } from './session.ts';

/**
 * A command's session, opened fast: when the session will embed the dev server (no TEMPORAL_ADDRESS,
 * no shards), its process is launched before the session module loads, so the server's start-up
 * (0.1-0.5 s before it serves) overlaps loading Temporal's worker, DuckDB and the sync core
 * (about 0.6 s) instead of following it. This module itself loads nothing heavy.
 */
export async function withSession<T>(config: ResolvedConfig, fn: (session: Session) => Promise<T>): Promise<T> {
  const embedded = !config.temporalAddress && config.shards.length === 0;
  const launched = embedded ? new DevServer({ dataDir: temporalStateDir(config.dataDir) }).launch() : undefined;
  // A launch that fails is reported by openSession, which awaits it; this keeps it from being unhandled meanwhile.
  launched?.catch(() => undefined);
  let session: typeof SessionModule;
  try {
    session = await import('./session.ts');
  } catch (error) {
    await launched?.then((server) => server.kill(), () => undefined);
    throw error;
  }
  return session.withSession(config, fn, { launched });
}
