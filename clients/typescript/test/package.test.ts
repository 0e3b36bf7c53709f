// The package outside the repository: `npm pack` gives a tarball of the built code (JS, .d.ts,
// the generated gRPC code and games), and an empty folder installs it with node alone (npm
// offline, from the cache `npm ci` filled; no Python, no repository), type-checks a strict
// program importing it, and runs that program against a real referee.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { serve, type Served } from "./serve.js";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url)); // dist/test/ -> clients/typescript/
const TSC = join(PACKAGE, "node_modules", "typescript", "bin", "tsc");
const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));

// A program of a user's own: strict, typed by the package's .d.ts (the `@ts-expect-error`
// fails the check if the types were missing or loose), its words in Portuguese.
const PROGRAM = `
import { pontinho, Referee, type Fix, type Verdict } from "@referee/client";

const referee = await Referee.connect(process.argv[2]!, { language: "pt" });
const table = await referee.createTable("pontinho", { seats: 3, seed: 7, names: { 1: "Ana" } });
const early: Verdict<pontinho.Event> = await table.seat(1).propose(pontinho.discard({ card: "7H" }));
const fix: Fix | undefined = early.violations[0]?.fix;
console.log(fix?.kind === "move_instead" ? fix.moves.join(" ") : "no fix");
console.log(early.violations[0]?.hint);
for (const event of (await table.seat(1).propose(pontinho.draw())).events) console.log(event.text);
referee.close();

export function refused() {
  // @ts-expect-error: no such card
  pontinho.discard({ card: "7X" });
}
`;

const TSCONFIG = { compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext",
  strict: true, noUncheckedIndexedAccess: true, types: ["node"] }, files: ["main.ts"] };

let folder: string;
let served: Served;

before(async () => {
  folder = mkdtempSync(join(tmpdir(), "referee-client-"));
  served = await serve();
});

after(async () => {
  await served?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test("npm pack holds the built JS and types; an empty folder installs, type-checks and runs it with node alone", () => {
  assert.equal(manifest.scripts.prepack, "npm run build"); // so a plain `npm pack` builds first
  // `npm test` has just built dist/: pack it as it is (a build now would race the other tests)
  const [packed] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", folder],
    { cwd: PACKAGE }));
  const files: string[] = packed.files.map((f: { path: string }) => f.path);
  for (const file of ["dist/src/index.js", "dist/src/index.d.ts", "dist/src/gen/referee/v1/referee.js",
    "dist/src/gen/fixes.d.ts", "dist/src/gen/games/pontinho.d.ts", "README.md"]) {
    assert.ok(files.includes(file), `the tarball has no ${file}`);
  }
  const others = files.filter((f) => !f.startsWith("dist/src/") && !["README.md", "package.json"].includes(f));
  assert.deepEqual(others, []); // no tests, sources or scripts

  const app = emptyApp(packed.filename);
  const env = nodeAlone();
  try {
    npm(["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: app, env });
  } catch (error) {
    throw new Error("npm ci --offline failed: its packages come from npm's cache, which `npm ci` in " +
      "clients/typescript fills (`make ts-test` runs it once; after `npm cache clean`, run it again)",
      { cause: error });
  }
  assert.ok(existsSync(join(app, "node_modules", "@grpc", "grpc-js")));
  execFileSync(process.execPath, [TSC, "-p", app], { env, stdio: ["ignore", "inherit", "inherit"] });

  const said = execFileSync(process.execPath, [join(app, "main.js"), served.target], { env }).toString();
  const [moves, hint, drew, ...more] = said.trim().split("\n");
  assert.equal(moves, "draw take_discard"); // the fix, typed: first draw a card
  assert.match(hint!, /^faça em vez disso /); // its words, and the event's, in Portuguese
  assert.match(drew!, /^você comprou \S+ do monte$/);
  assert.deepEqual(more, []);
});

/** A user's folder: the program, its tsconfig, and the tarball as its one dependency. */
function emptyApp(filename: string): string {
  const app = join(folder, "app");
  mkdirSync(app);
  const tarball = `file:../${filename}`;
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module",
    dependencies: { "@referee/client": tarball } }));
  writeFileSync(join(app, "package-lock.json"), JSON.stringify(offlineLock(join(folder, filename), tarball)));
  writeFileSync(join(app, "main.ts"), PROGRAM);
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify(TSCONFIG));
  return app;
}

/** npm as this test was started with it (its CLI, run by this node): what it printed. */
function npm(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): string {
  const cli = process.env.npm_execpath ?? realpathSync(findOnPath("npm"));
  return execFileSync(process.execPath, [cli, ...args], { ...options, stdio: ["ignore", "pipe", "inherit"] })
    .toString();
}

function findOnPath(name: string): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error(`no ${name} on PATH`);
}

/** An environment with node (and sh, for a dependency's install script) alone on PATH: no
 *  Python, no repository's tools; npm's cache as it is here, read offline. */
function nodeAlone(): NodeJS.ProcessEnv {
  const bin = join(folder, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  symlinkSync("/bin/sh", join(bin, "sh"));
  assert.throws(() => execFileSync("python3", ["--version"], { env: { PATH: bin } }));
  const cache = process.env.npm_config_cache; // as npm test passes it; else npm's default, under HOME
  return { HOME: process.env.HOME, PATH: bin, ...(cache ? { npm_config_cache: cache } : {}) };
}

/** The empty folder's lockfile: the tarball and its dependencies at the versions (and
 *  integrities) of this package's own lock, so `npm ci --offline` finds each in the cache. */
function offlineLock(path: string, tarball: string) {
  const lock = JSON.parse(readFileSync(join(PACKAGE, "package-lock.json"), "utf8"));
  const integrity = `sha512-${createHash("sha512").update(readFileSync(path)).digest("base64")}`;
  const runtime = Object.entries(lock.packages as Record<string, { dev?: boolean }>)
    .filter(([key, entry]) => key !== "" && !entry.dev);
  return { name: "app", lockfileVersion: 3, requires: true, packages: {
    "": { name: "app", dependencies: { "@referee/client": tarball } },
    "node_modules/@referee/client": { version: manifest.version, resolved: tarball, integrity,
      license: manifest.license, dependencies: manifest.dependencies, engines: manifest.engines },
    ...Object.fromEntries(runtime),
  } };
}
