import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Lake layout 2: `<lake>/<table>` is a symlink to one generation of the table's files,
 * `<lake>/.generations/<table>/g000042/`. An export never changes the generation the link names, nor
 * the one it named before: it builds the next one beside them (hard links to the unchanged files, new
 * files for the changed ones), then swaps the link with one rename. A reader that resolves the link
 * sees one generation, whole.
 *
 * - Claim: a built generation becomes `g<N+1>` by renaming its build directory (a rename onto an
 *   existing non-empty directory fails), N being the highest generation when the build began. Shards
 *   export into one lake at the same time: the loser of a claim builds again on the winner's files,
 *   so no shard's files are lost and no lock can be left behind by a crash.
 * - Publish: the link always ends on the highest claimed generation (every publisher checks again
 *   after its own rename).
 * - Retention: the generation the link named before the swap stays whole until the next swap (a
 *   reader that resolved the link just before can still open its files), and the one before it too.
 *   The next build recycles that oldest one: its directory is renamed into the build, the files the
 *   generations since changed are replaced, and the rest (hard links to the same files) stay. So a
 *   night's build and retirement cost what changed, not one link and one unlink per file of the table.
 *   Which files are the same comes from each generation's marker: every file's version (the
 *   generation that wrote it). Generations without one (written before) are built afresh and deleted.
 *   A generation is deleted by renaming it aside first, so a shard's build that recycles it at the same
 *   moment takes it whole or not at all.
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

/** Removes a file of a recycled generation (one a user removed from the lake is not there). */
function unlinkIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errno(error) !== 'ENOENT') throw error;
  }
}

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

  /** Removes what this owner's export left when it did not finish: build directories, temporary links, a layout-1 directory moved aside, a generation being deleted. */
  cleanBuilds(): void {
    if (!existsSync(this.dir)) return;
    for (const n of readdirSync(this.dir)) {
      if (['build', 'link', 'layout1', 'retired'].some((kind) => n.startsWith(`.${kind}.${this.owner}.`))) rmSync(join(this.dir, n), { recursive: true, force: true });
    }
  }

  /**
   * Starts the next build on generation `base`: the oldest kept generation recycled when base and it
   * both carry their files' versions (see the class comment), else an empty directory.
   */
  startBuild(base?: number): string {
    const build = join(this.dir, `.build.${this.owner}.${randomUUID()}`);
    const baseVersions = base === undefined ? undefined : this.versions(base);
    const recycled = baseVersions ? this.recycle(build) : undefined;
    if (!recycled) mkdirSync(build, { recursive: true });
    this.builds.set(build, { baseVersions: baseVersions ?? new Map(), recycled, versions: new Map(), written: new Set(), dirs: new Set(), changedDirs: new Set() });
    return build;
  }

  /** The files of generation n as they are on disk (relative paths): a file removed from the lake is written again. */
  filesOf(n: number): string[] {
    return filesUnder(this.pathOf(n)).filter((f) => f !== GENERATION_MARKER);
  }

  /** Every file of generation n and its version (the generation that wrote it), from its marker; undefined when the marker has none. */
  private versions(n: number): Map<string, number> | undefined {
    let marker: { files?: Record<string, number> };
    try {
      marker = JSON.parse(readFileSync(join(this.pathOf(n), GENERATION_MARKER), 'utf8')) as typeof marker;
    } catch (error) {
      if (errno(error) === 'ENOENT' || error instanceof SyntaxError) return undefined;
      throw error;
    }
    return marker.files ? new Map(Object.entries(marker.files)) : undefined;
  }

  /**
   * Renames the generation to recycle into `build` and returns its files' versions: the highest
   * generation below the two the readers may hold (the link's, and the one before it). Undefined when
   * there is none, it carries no versions, or another export took it first.
   */
  private recycle(build: string): Map<string, number> | undefined {
    const entry = this.entry();
    const current = entry.kind === 'link' ? generationOf(entry.target) : undefined;
    if (current === undefined) return undefined;
    const older = this.generations().filter((n) => n < current);
    const oldest = older.at(-2);
    const versions = oldest === undefined ? undefined : this.versions(oldest);
    if (oldest === undefined || !versions) return undefined;
    try {
      renameSync(this.pathOf(oldest), build);
    } catch (error) {
      if (errno(error) === 'ENOENT') return undefined;
      throw error;
    }
    unlinkIfThere(join(build, GENERATION_MARKER));
    return versions;
  }

  /**
   * Per build: the versions of its base's files, what is left of the recycled generation's files (not
   * yet linked, replaced or removed), the versions of its own files, the files written into it, and the
   * directories it made or whose entries it changed (only those are fsynced at the claim). A
   * generation of a long history holds hundreds of files of which a night changes a few.
   */
  private readonly builds = new Map<string, { baseVersions: Map<string, number>; recycled?: Map<string, number>; versions: Map<string, number>; written: Set<string>; dirs: Set<string>; changedDirs: Set<string> }>();

  private buildState(build: string) {
    const state = this.builds.get(build);
    if (!state) throw new Error(`not a build of ${this.table}: ${build}`);
    return state;
  }

  /** Makes the directory of `rel` in the build (and marks it and its new parents changed). */
  private placeIn(build: string, rel: string): string {
    const state = this.buildState(build);
    const target = join(build, rel);
    const dir = dirname(target);
    if (!state.dirs.has(dir)) {
      if (!existsSync(dir)) {
        mkdirSync(dir, { recursive: true });
        for (let d = dir; d !== build && !state.changedDirs.has(d); d = dirname(d)) state.changedDirs.add(d);
      }
      state.dirs.add(dir);
    }
    state.changedDirs.add(dir);
    return target;
  }

  /** Hard-links a file of generation `from` into the build (same relative path); a recycled build that holds it already keeps it. */
  linkInto(build: string, from: number, rel: string): void {
    const state = this.buildState(build);
    const version = state.baseVersions.get(rel) ?? from;
    state.versions.set(rel, version);
    const had = state.recycled?.get(rel);
    if (had !== undefined) {
      state.recycled!.delete(rel);
      if (had === version) return;
      unlinkIfThere(join(build, rel));
    }
    linkSync(join(this.pathOf(from), rel), this.placeIn(build, rel));
  }

  /** The path the export writes `rel` to in the build (a recycled build's old file there is removed first: it is another generation's too). */
  writeTarget(build: string, rel: string): string {
    const state = this.buildState(build);
    if (state.recycled?.has(rel)) {
      state.recycled.delete(rel);
      unlinkIfThere(join(build, rel));
    }
    state.written.add(rel);
    return this.placeIn(build, rel);
  }

  /**
   * Makes the build durable and claims it as generation n. False when another export claimed n first
   * (the build is removed; the caller builds again on the new latest generation).
   */
  claim(build: string, n: number): boolean {
    const state = this.buildState(build);
    this.builds.delete(build);
    // What the recycled generation held that this one does not, and the directories left empty.
    const emptied = new Set<string>();
    for (const rel of state.recycled?.keys() ?? []) {
      unlinkIfThere(join(build, rel));
      emptied.add(dirname(join(build, rel)));
    }
    const pending = [...emptied];
    while (pending.length > 0) {
      pending.sort((a, b) => b.length - a.length);
      const d = pending.shift()!;
      if (d === build) continue;
      if (readdirSync(d).length > 0) {
        state.changedDirs.add(d);
        continue;
      }
      rmdirSync(d);
      state.changedDirs.delete(d);
      const parent = dirname(d);
      if (!emptied.has(parent)) {
        emptied.add(parent);
        pending.push(parent);
      }
    }
    for (const rel of state.written) state.versions.set(rel, n);
    const files = Object.fromEntries([...state.versions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    writeFileSync(join(build, GENERATION_MARKER), `${JSON.stringify({ table: this.table, generation: n, owner: this.owner, files })}\n`);
    // A hard-linked file's data and inode were made durable when the generation it came from was
    // claimed, and a recycled directory's unchanged entries when the recycled generation was; the new
    // entries are in the directories fsynced below. So only the files written into the build (and
    // the marker) are fsynced: the cost follows what changed, not the table's files.
    for (const rel of [...state.written, GENERATION_MARKER]) fsyncPath(join(build, rel));
    for (const d of [...state.changedDirs].sort((a, b) => b.length - a.length)) fsyncPath(d);
    fsyncPath(build);
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
   * Deletes generation n: first renamed out of the way, so a build of another shard that recycles it
   * (a rename too) either takes it whole or finds it gone, never half deleted.
   */
  private retire(n: number): void {
    const aside = join(this.dir, `.retired.${this.owner}.${randomUUID()}`);
    try {
      renameSync(this.pathOf(n), aside);
    } catch (error) {
      if (errno(error) === 'ENOENT') return;
      throw error;
    }
    rmSync(aside, { recursive: true, force: true });
  }

  /**
   * Points `<lake>/<table>` at the highest claimed generation: a new symlink under a temporary name,
   * renamed over the old one. A layout-1 directory there is first moved aside (the one moment a reader
   * finds no table) and deleted after. Then deletes the generations older than the one the link named
   * before (kept for readers that resolved it), but for the newest of them (the next build's to recycle).
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
    // Kept: the previous generation (readers), and the one before it (the next build recycles it).
    const older = this.generations().filter((n) => n < now);
    const keep = previous === undefined ? [] : [previous, older.filter((n) => n < previous).at(-1)];
    for (const n of older) if (!keep.includes(n)) this.retire(n);
  }
}

function generationOf(target: string): number | undefined {
  const m = GENERATION.exec(target.split('/').at(-1) ?? '');
  return m ? Number(m[1]) : undefined;
}
