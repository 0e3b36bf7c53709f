// From one game's JSON Schemas (docs/schemas/GAME.json) to a TypeScript module: a type per
// shared definition (`Card` from the annotation `x-codes`), the moves with a builder each, the
// view, and the events as a union tagged by `kind`.
//
// It reads the subset of JSON Schema the referee writes (referee/schemas) and refuses anything
// else, so a new construct there is noticed here instead of typed wrongly. Checks that are no
// type (`pattern`, `minimum`, ...) are the referee's; they only show in the doc comments.

const TYPE_ONLY = new Set(["$schema", "$defs", "title", "description", "pattern", "minimum",
  "maximum", "minLength", "maxLength", "propertyNames", "x-codes", "x-secret", "required",
  "additionalProperties", "properties", "items", "type", "const", "enum", "anyOf", "$ref"]);
const RESERVED = new Set(["break", "case", "catch", "class", "const", "continue", "debugger",
  "default", "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for",
  "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch",
  "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "let",
  "static", "implements", "interface", "package", "private", "protected", "public", "await"]);
const OWN_NAMES = new Set(["Moves", "Move", "MoveType", "View", "Events", "Event", "EventKind"]);

export const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const pascal = (name) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());

function comment(text, indent) {
  if (!text) return "";
  return `${indent}/** ${String(text).replaceAll("*/", "* /")} */\n`;
}

const literal = (value) => JSON.stringify(value);
const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name));

/** The TypeScript type of `schema`; `indent` for the members of an object type. */
export function tsType(schema, indent = "") {
  const unknown = Object.keys(schema).filter((k) => !TYPE_ONLY.has(k));
  if (unknown.length) throw new Error(`schema keyword \`${unknown[0]}\` is not typed here`);
  if (schema.$ref) {
    if (!schema.$ref.startsWith("#/$defs/")) throw new Error(`reference ${schema.$ref}`);
    return pascal(schema.$ref.slice("#/$defs/".length));
  }
  if ("const" in schema) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(" | ");
  if (schema.anyOf) return schema.anyOf.map((s) => tsType(s, indent)).join(" | ");
  if (Array.isArray(schema.type)) {
    return schema.type.map((t) => tsType({ ...schema, type: t }, indent)).join(" | ");
  }
  switch (schema.type) {
    case "integer": case "number": return "number";
    case "boolean": return "boolean";
    case "null": return "null";
    case "string":
      return schema["x-codes"] ? schema["x-codes"].map(literal).join(" | ") : "string";
    case "array": {
      const item = schema.items ? tsType(schema.items, indent) : "unknown";
      return /^[\w"]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case "object": return objectType(schema, indent);
    default: throw new Error(`schema without a type: ${JSON.stringify(schema).slice(0, 80)}`);
  }
}

function objectType(schema, indent) {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (!properties.length) {
    if (extra && typeof extra === "object") return `{ [key: string]: ${tsType(extra, indent)} }`;
    return extra === false ? "Record<string, never>" : "{ [key: string]: unknown }";
  }
  return `{\n${members(schema, indent + "  ")}${indent}}`;
}

/** The members of an object schema, one a line with its doc comment. */
function members(schema, indent, skip = []) {
  const required = new Set(schema.required ?? []);
  let out = "";
  for (const [name, body] of Object.entries(schema.properties ?? {})) {
    if (skip.includes(name)) continue;
    const secret = body["x-secret"] ? " (secret: only the event's audience receives it)" : "";
    out += comment(body.description ? body.description + secret : secret.trim(), indent);
    out += `${indent}${key(name)}${required.has(name) ? "" : "?"}: ${tsType(body, indent)};\n`;
  }
  return out;
}

/** Every definition of every schema of the game: one pool, the same name the same schema. */
function definitions(game) {
  const schemas = [...Object.values(game.moves), game.view, ...Object.values(game.events)];
  const defs = {};
  for (const schema of schemas) Object.assign(defs, schema.$defs ?? {});
  for (const name of Object.keys(defs)) {
    if (OWN_NAMES.has(pascal(name))) throw new Error(`definition \`${name}\` hides a type of its own`);
  }
  return defs;
}

function builder(type, schema) {
  const name = RESERVED.has(camel(type)) ? `${camel(type)}Move` : camel(type);
  const fields = Object.keys(schema.properties).filter((k) => k !== "type");
  const needed = (schema.required ?? []).some((k) => k !== "type");
  const parameter = !fields.length ? "" : `fields: Moves[${literal(type)}]${needed ? "" : " = {}"}`;
  const body = fields.length ? `{ type: ${literal(type)}, ...fields }` : `{ type: ${literal(type)} }`;
  return `${comment(schema.description, "")}export function ${name}(${parameter}): MoveOf<${literal(type)}> {\n` +
    `  return ${body};\n}\n`;
}

/** The module `src/gen/games/GAME.ts`. */
export function gameModule(game) {
  const defs = definitions(game);
  let out = `// Generated by scripts/generate.mjs from docs/schemas/${game.game}.json: do not edit.\n` +
    `/* eslint-disable */\n\nexport const game = ${literal(game.game)};\n\n`;
  for (const [name, schema] of Object.entries(defs)) {
    out += comment(schema.description, "") + `export type ${pascal(name)} = ${tsType(schema)};\n`;
  }
  out += "\n/** Each move type's fields (the move language of docs/scenarios.md). */\nexport interface Moves {\n";
  for (const [type, schema] of Object.entries(game.moves)) {
    out += comment(schema.description, "  ");
    const fields = members(schema, "    ", ["type"]);
    out += `  ${key(type)}: ${fields ? `{\n${fields}  }` : "Record<never, never>"};\n`;
  }
  out += "}\n\nexport type MoveType = keyof Moves;\n" +
    "export type MoveOf<T extends MoveType> = { type: T } & Moves[T];\n" +
    "/** A move of this game, as Propose sends it. */\n" +
    "export type Move = { [T in MoveType]: MoveOf<T> }[MoveType];\n\n";
  for (const [type, schema] of Object.entries(game.moves)) out += builder(type, schema) + "\n";
  out += "/** A move of any type, its fields checked against the type's. */\n" +
    "export function move<T extends MoveType>(type: T, fields: Moves[T]): MoveOf<T> {\n" +
    "  return { ...fields, type } as MoveOf<T>;\n}\n\n";
  out += comment(game.view.description, "") + `export interface View {\n${members(game.view, "  ")}}\n\n`;
  out += "/** Each event kind's fields, as a seat receives them. */\nexport interface Events {\n";
  for (const [kind, schema] of Object.entries(game.events)) {
    out += comment(schema.description, "  ");
    const fields = members(schema, "    ", ["kind"]);
    out += `  ${key(kind)}: ${fields ? `{\n${fields}  }` : "Record<never, never>"};\n`;
  }
  out += "}\n\nexport type EventKind = keyof Events;\n" +
    "/** An event of this game: its `kind` and its data. */\n" +
    "export type Event = { [K in EventKind]: { kind: K } & Events[K] }[EventKind];\n";
  return out;
}

/** The module `src/gen/games/index.ts`: every game by its name, and their types. */
export function indexModule(names) {
  let out = "// Generated by scripts/generate.mjs from docs/schemas/: do not edit.\n";
  for (const name of names) out += `import * as ${camel(name)} from "./${name}.js";\n`;
  out += `\nexport { ${names.map(camel).join(", ")} };\n\n`;
  out += "/** The types of each game this client was built for, by game name. */\nexport interface Games {\n";
  for (const name of names) {
    const g = camel(name);
    out += `  ${key(name)}: { move: ${g}.Move; view: ${g}.View; event: ${g}.Event; card: ${g}.Card };\n`;
  }
  out += "}\n\nexport type GameName = keyof Games;\n";
  return out;
}
