import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Lake layout 2: `<lake>/<table>` is a symlink to one generation of the table's files,
 * `<lake>/.generations/<table>/g000042/`. An export never changes a published generation: it builds
 * the next one beside it (hard links to the unchanged files, new files for the changed ones), then
 * swaps the link with one rename. A reader that resolves the link sees one generation, whole.
 *
 * - Claim: a built generation becomes `g<N+1>` by renaming its build directory (a rename onto an
 *   existing non-empty directory fails), N being the highest generation when the build began. Shards
 *   export into one lake at the same time: the loser of a claim builds again on the winner's files,
 *   so no shard's files are lost and no lock can be left behind by a crash.
 * - Publish: the link always ends on the highest claimed generation (every publisher checks again
 *   after its own rename).
 * - Retention: the generation the link named before the swap stays until the next swap (a reader
 *   that resolved the link just before can still open its files); older ones are deleted.
 * - Crash: a build directory left behind is removed by its owner's next export; a claimed generation
 *   the link does not name yet is complete, and the next build starts from it.
 *
 * `.generations` starts with a dot; DuckDB's `*` still matches it, so readers glob one table
 * (`<lake>/<table>/**\/*.parquet`), never the whole lake.
 */

export const GENERATIONS_DIR = '.generations';
/** Written into every generation before its claim: a generation directory is never empty. */
export const GENERATION_MARKER = '_glacier_generation.json';

const GENERATION = /^g(\d{6,})$/;
const genName = (n: number) => `g${String(n).padStart(6, '0')}`;

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Every file under dir (relative paths, '/'-separated), directories excluded. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(d, e.name), r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out;
}

/**
 * The Parquet files readers see (paths relative to the lake, '/'-separated): each table's link is
 * followed to its current generation; hidden entries (`.generations` behind the links, staging) are
 * left out. A directory removed while the walk runs (a generation an export retired) is skipped.
 * Undefined when the lake directory does not exist.
 */
export async function readerFiles(lakeDir: string): Promise<string[] | undefined> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (rel === '' || errno(error) !== 'ENOENT') throw error;
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() || e.isSymbolicLink()) await walk(join(dir, e.name), r);
      else if (e.isFile() && e.name.endsWith('.parquet')) out.push(r);
    }
  };
  try {
    await walk(lakeDir, '');
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
  return out;
}

/** What is at `<lake>/<table>`: nothing, a layout-2 link, or a layout-1 directory of hive partitions. */
export type TableEntry = { kind: 'none' } | { kind: 'link'; target: string } | { kind: 'dir' };

export class TableGenerations {
  readonly dir: string;
  readonly link: string;

  constructor(
    readonly root: string,
    readonly table: string,
    /** Whose build directories these are (a shard, or '_'): only their owner removes leftovers. */
    private readonly owner: string,
  ) {
    this.dir = join(root, GENERATIONS_DIR, table);
    this.link = join(root, table);
  }

  entry(): TableEntry {
    try {
      const st = lstatSync(this.link);
      if (st.isSymbolicLink()) return { kind: 'link', target: readlinkSync(this.link) };
      return st.isDirectory() ? { kind: 'dir' } : { kind: 'none' };
    } catch (error) {
      if (errno(error) === 'ENOENT') return { kind: 'none' };
      throw error;
    }
  }

  /** Claimed generation numbers, ascending. */
  generations(): number[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .map((n) => GENERATION.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }

  pathOf(n: number): string {
    return join(this.dir, genName(n));
  }

  /** The highest claimed generation (the base of the next build), or undefined. */
  latest(): number | undefined {
    return this.generations().at(-1);
  }

  /** Removes what this owner's export left when it did not finish: build directories, temporary links, a layout-1 directory moved aside. */
  cleanBuilds(): void {
    if (!existsSync(this.dir)) return;
    for (const n of readdirSync(this.dir)) {
      if (['build', 'link', 'layout1'].some((kind) => n.startsWith(`.${kind}.${this.owner}.`))) rmSync(join(this.dir, n), { recursive: true, force: true });
    }
  }

  startBuild(): string {
    const build = join(this.dir, `.build.${this.owner}.${randomUUID()}`);
    mkdirSync(build, { recursive: true });
    return build;
  }

  /**
   * Per build: the files hard-linked into it (claim does not fsync them again) and the directories made
   * for them. A generation of a long history holds hundreds of files of which a night changes a few:
   * one fsync, open and mkdir each was the part of the export that grew with the history.
   */
  private readonly builds = new Map<string, { linked: Set<string>; dirs: Set<string> }>();

  private buildState(build: string): { linked: Set<string>; dirs: Set<string> } {
    let state = this.builds.get(build);
    if (!state) this.builds.set(build, (state = { linked: new Set(), dirs: new Set() }));
    return state;
  }

  /** Hard-links a file of generation `from` into the build (same relative path). */
  linkInto(build: string, from: number, rel: string): void {
    const target = join(build, rel);
    const state = this.buildState(build);
    const dir = dirname(target);
    if (!state.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      state.dirs.add(dir);
    }
    linkSync(join(this.pathOf(from), rel), target);
    state.linked.add(target);
  }

  /**
   * Makes the build durable and claims it as generation n. False when another export claimed n first
   * (the build is removed; the caller builds again on the new latest generation).
   */
  claim(build: string, n: number): boolean {
    writeFileSync(join(build, GENERATION_MARKER), `${JSON.stringify({ table: this.table, generation: n, owner: this.owner })}\n`);
    // A hard-linked file's data and inode were made durable when the generation it came from was
    // claimed; its new name is an entry of a directory fsynced below. So only the files written into
    // the build (and the marker) are fsynced: the cost follows what changed, not the table's files.
    const linked = this.builds.get(build)?.linked ?? new Set<string>();
    this.builds.delete(build);
    const dirs: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (!linked.has(join(d, e.name))) fsyncPath(join(d, e.name));
      }
      dirs.push(d);
    };
    walk(build);
    for (const d of dirs) fsyncPath(d);
    try {
      renameSync(build, this.pathOf(n));
    } catch (error) {
      if (errno(error) !== 'ENOTEMPTY' && errno(error) !== 'EEXIST') throw error;
      rmSync(build, { recursive: true, force: true });
      return false;
    }
    fsyncPath(this.dir);
    return true;
  }

  /**
   * Points `<lake>/<table>` at the highest claimed generation: a new symlink under a temporary name,
   * renamed over the old one. A layout-1 directory there is first moved aside (the one moment a reader
   * finds no table) and deleted after. Then deletes the generations older than the one the link named
   * before (kept for readers that resolved it).
   */
  publish(): void {
    let previous: number | undefined;
    let swapped = false;
    for (let attempt = 0; attempt < 10; attempt++) {
      const latest = this.latest();
      if (latest === undefined) return;
      const want = `${GENERATIONS_DIR}/${this.table}/${genName(latest)}`;
      const entry = this.entry();
      if (entry.kind === 'link' && entry.target === want) break;
      if (entry.kind === 'link' && previous === undefined) previous = generationOf(entry.target);
      const tmp = join(this.dir, `.link.${this.owner}.${randomUUID()}`);
      symlinkSync(want, tmp);
      if (entry.kind === 'dir') {
        const aside = join(this.dir, `.layout1.${this.owner}.${randomUUID()}`);
        try {
          renameSync(this.link, aside);
        } catch (error) {
          if (errno(error) !== 'ENOENT') throw error;
        }
        renameSync(tmp, this.link);
        rmSync(aside, { recursive: true, force: true });
      } else renameSync(tmp, this.link);
      fsyncPath(this.root);
      swapped = true;
    }
    if (!swapped) return;
    const current = this.entry();
    const now = current.kind === 'link' ? generationOf(current.target) : undefined;
    if (now === undefined) return;
    for (const n of this.generations()) if (n < now && n !== previous) rmSync(this.pathOf(n), { recursive: true, force: true });
  }
}

function generationOf(target: string): number | undefined {
  const m = GENERATION.exec(target.split('/').at(-1) ?? '');
  return m ? Number(m[1]) : undefined;
}
