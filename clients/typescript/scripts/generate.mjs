// Generates src/gen/ (not committed, like the Python side's referee/api/): the gRPC code from
// proto/ (ts-proto, run by the protoc of the repository's .venv: grpcio-tools, pinned in
// pyproject.toml, the very protoc behind `make proto`), and the typed games from the committed
// JSON Schemas of docs/schemas/ (scripts/schema-to-ts.mjs), and the kinds of fix a rejection
// carries from referee/spec/fixes.py (scripts/fixes-to-ts.mjs). `npm pack` runs it (prepack), so
// the package holds the built code and needs neither Python nor this repository to install.
//
// PYTHON: the Python that has grpcio-tools (default: the repository's .venv).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixesModule } from "./fixes-to-ts.mjs";
import { gameModule, indexModule } from "./schema-to-ts.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..", "..");
const out = resolve(here, "..", "src", "gen");
const python = process.env.PYTHON ?? join(root, ".venv", "bin", "python");

function generateProto() {
  if (!existsSync(python)) {
    throw new Error(`no ${python}: run \`make install\` at the repository's root (or set PYTHON)`);
  }
  const plugin = resolve(here, "..", "node_modules", ".bin", "protoc-gen-ts_proto");
  // the folders of the imported protos (struct.proto, google/api/annotations.proto), as
  // proto/generate.py finds them: one list, so the two generators cannot drift apart
  const includes = execFileSync(python, ["-c",
    "import sys; sys.path.insert(0, sys.argv[1]); import generate; " +
    "print('\\n'.join(map(str, generate.includes())))", join(root, "proto")])
    .toString().trim().split("\n");
  const options = [
    "outputServices=grpc-js", // a grpc-js client class per service
    "env=node",
    "esModuleInterop=true",
    "importSuffix=.js",       // ES modules need the extension
    "forceLong=number",       // int64 versions and seeds as numbers (the referee keeps to 2^53)
    "useOptionals=messages",
    "useDate=false",
  ].join(",");
  execFileSync(python, ["-m", "grpc_tools.protoc", `-I${join(root, "proto")}`,
    ...includes.map((folder) => `-I${folder}`),
    `--plugin=protoc-gen-ts_proto=${plugin}`, `--ts_proto_out=${out}`, `--ts_proto_opt=${options}`,
    "referee/v1/referee.proto"], { stdio: "inherit" });
}

function generateGames() {
  const folder = join(root, "docs", "schemas");
  const names = readdirSync(folder).filter((f) => f.endsWith(".json")).sort();
  mkdirSync(join(out, "games"), { recursive: true });
  const games = names.map((file) => JSON.parse(readFileSync(join(folder, file), "utf8")));
  for (const game of games) {
    writeFileSync(join(out, "games", `${game.game}.ts`), gameModule(game));
  }
  writeFileSync(join(out, "games", "index.ts"), indexModule(games.map((g) => g.game)));
  return games.length;
}

/** The kinds of fix, their values' types and meanings, as the referee declares them. */
function generateFixes() {
  const kinds = JSON.parse(execFileSync(python, ["-c",
    "import json, sys; sys.path.insert(0, sys.argv[1]); from referee.spec.fixes import FIX_KINDS; " +
    "print(json.dumps({k.name: {'values': {n: str(t) for n, t in k.values.items()}, " +
    "'meaning': k.meaning} for k in FIX_KINDS.values()}))", root]).toString());
  writeFileSync(join(out, "fixes.ts"), fixesModule(kinds));
  return Object.keys(kinds).length;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
generateProto();
console.log(`src/gen: the gRPC code, ${generateGames()} games and ${generateFixes()} kinds of fix`);
