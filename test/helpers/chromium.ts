import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The browser the report test drives with playwright-core: $CHROMIUM_PATH, else the system's
 * /usr/bin/chromium, else the headless Chromium build that the dev dependency @sparticuz/chromium
 * carries inside its npm package. So `npm install && npm test` needs no system browser and no root.
 *
 * The package unpacks its brotli archives into os.tmpdir() (a fixed /tmp/chromium, not atomic, shared
 * by every version and every user). Here a child process unpacks them with TMPDIR pointed at a
 * staging directory of the per-user cache, which is then renamed into place: once per version, and a
 * concurrent run either wins the rename or uses the winner's copy, never a half-written one.
 */
export async function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist`);
    return env.CHROMIUM_PATH;
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`no ${SYSTEM_CHROMIUM}, and @sparticuz/chromium's build runs on Linux x64 only: set CHROMIUM_PATH to a Chromium or Chrome binary`);
  }

  // build/index.js; the package's exports do not include its package.json.
  const entry = createRequire(join(ROOT, 'package.json')).resolve('@sparticuz/chromium');
  const packageJson = join(dirname(entry), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const cacheRoot = env.GLACIER_TOOLS_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'glacier-etl');
  const dir = join(cacheRoot, `chromium-${version}`);
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;

  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.chromium-${version}-`));
  try {
    const unpack = "const { default: c } = await import('@sparticuz/chromium'); process.stdout.write(await c.executablePath());";
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', unpack], {
      cwd: ROOT,
      env: { ...env, TMPDIR: staging },
      timeout: 120_000,
    });
    if (stdout !== join(staging, 'chromium')) throw new Error(`@sparticuz/chromium unpacked to ${stdout}, expected ${join(staging, 'chromium')}`);
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another run renamed its copy first: use that one.
      if (!existsSync(binary)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}
