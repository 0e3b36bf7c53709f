// A reader of the YAML that game records are written in (docs/scenarios.md): block mappings and
// sequences by indentation, flow `{...}` and `[...]` (over several lines too), plain, single-
// and double-quoted scalars, comments; scalars typed as PyYAML's safe_load types them. What it
// cannot read (anchors, tags, block literals) throws: the referee still judges the record (the
// page sends the file's text to Adjudicate), only the steps cannot be shown one by one.

export class YamlError extends Error {}

export function parseYaml(text) {
  const lines = [];
  text.split(/\r?\n/).forEach((raw, number) => {
    const line = withoutComment(raw);
    if (!line.trim() || /^(---|\.\.\.)\s*$/.test(line)) return;
    if (/^\s*[&*!|>]|:\s+[&*!|>]/.test(line)) throw new YamlError(`line ${number + 1}: not read here`);
    lines.push({ indent: line.length - line.trimStart().length, text: line.trim(), number: number + 1 });
  });
  let at = 0;
  const isItem = (t) => t === "-" || t.startsWith("- ");

  function block() {
    const first = lines[at];
    if (isItem(first.text)) return sequence(first.indent);
    if (keyOf(first.text) !== null) return mapping(first.indent);
    at++;
    return inline(first.text, first.number); // a value alone on its line: `[5H, 5C, ...]`
  }

  function sequence(indent) {
    const items = [];
    while (at < lines.length && lines[at].indent === indent && isItem(lines[at].text)) {
      const line = lines[at];
      const rest = line.text.slice(1).trimStart();
      if (!rest) {
        at++;
        items.push(at < lines.length && lines[at].indent > indent ? block() : null);
      } else if (keyOf(rest) !== null) {
        lines[at] = { ...line, indent: indent + line.text.length - rest.length, text: rest };
        items.push(mapping(lines[at].indent));
      } else {
        at++;
        items.push(inline(rest, line.number));
      }
    }
    return items;
  }

  function mapping(indent) {
    const map = {};
    while (at < lines.length && lines[at].indent === indent && !isItem(lines[at].text)) {
      const line = lines[at];
      const split = keyOf(line.text);
      if (split === null) throw new YamlError(`line ${line.number}: not a \`key: value\``);
      const [key, rest] = split;
      at++;
      if (rest !== "") map[key] = inline(rest, line.number);
      else if (at < lines.length && (lines[at].indent > indent || (lines[at].indent === indent && isItem(lines[at].text)))) map[key] = block();
      else map[key] = null;
    }
    if (at < lines.length && lines[at].indent > indent) throw new YamlError(`line ${lines[at].number}: unexpected indentation`);
    return map;
  }

  // a value on its line, or a flow collection that goes on over the next lines
  function inline(text, number) {
    while (depth(text) > 0 && at < lines.length) text += " " + lines[at++].text;
    return flow(text, number);
  }

  if (!lines.length) return null;
  const document = block();
  if (at < lines.length) throw new YamlError(`line ${lines[at].number}: not read`);
  return document;
}

function withoutComment(line) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i).trimEnd();
  }
  return line;
}

function depth(text) {
  let open = 0, quote = null;
  for (const c of text) {
    if (quote) { if (c === quote) quote = null; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === "{" || c === "[") open++;
    else if (c === "}" || c === "]") open--;
  }
  return open;
}

// `key: rest` of a block mapping's line (a flow collection or a quoted scalar is no key)
function keyOf(text) {
  if (/^[{\["']/.test(text) && !/^["'][^"']*["']\s*:(\s|$)/.test(text)) return null;
  const match = /^("[^"]*"|'[^']*'|[^\s:#][^:#]*?)\s*:(\s+|$)(.*)$/.exec(text);
  if (!match) return null;
  return [String(scalar(match[1].replace(/^["']|["']$/g, ""), /^["']/.test(match[1]))), match[3]];
}

function flow(text, number) {
  let i = 0;
  const fail = (why) => { throw new YamlError(`line ${number}: ${why}`); };
  const space = () => { while (i < text.length && /\s/.test(text[i])) i++; };

  function value(stops) {
    space();
    const c = text[i];
    if (c === "{") return collection("}", true);
    if (c === "[") return collection("]", false);
    if (c === '"') {
      const end = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!end) fail("an unclosed string");
      i += end[0].length;
      return JSON.parse(end[0]);
    }
    if (c === "'") {
      const end = /^'(?:[^']|'')*'/.exec(text.slice(i));
      if (!end) fail("an unclosed string");
      i += end[0].length;
      return end[0].slice(1, -1).replaceAll("''", "'");
    }
    const start = i;
    while (i < text.length && !stops.includes(text[i]) && !(text[i] === ":" && stops && /[\s,}\]]|^$/.test(text[i + 1] ?? ""))) i++;
    return scalar(text.slice(start, i).trim(), false);
  }

  function collection(close, keyed) {
    i++;
    const result = keyed ? {} : [];
    for (;;) {
      space();
      if (text[i] === close) { i++; return result; }
      if (keyed) {
        const key = value(",:}");
        space();
        let item = null;
        if (text[i] === ":") { i++; item = value(",}"); }
        result[String(key)] = item;
      } else result.push(value(",]"));
      space();
      if (text[i] === ",") i++;
      else if (text[i] !== close) fail(`\`${close}\` expected`);
    }
  }

  const result = value("");
  space();
  if (i < text.length) fail(`unexpected \`${text.slice(i, i + 10)}\``);
  return result;
}

// a plain scalar typed as YAML 1.1 (PyYAML) types it; a quoted one stays a string
function scalar(text, quoted) {
  if (quoted) return text;
  if (text === "" || text === "~" || /^(null|Null|NULL)$/.test(text)) return null;
  if (/^(true|True|TRUE|yes|Yes|YES|on|On|ON)$/.test(text)) return true;
  if (/^(false|False|FALSE|no|No|NO|off|Off|OFF)$/.test(text)) return false;
  if (/^[-+]?(0|[1-9][0-9_]*)$/.test(text)) return Number(text.replaceAll("_", ""));
  if (/^[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+][0-9]+)?$/.test(text) && /[0-9]/.test(text)) return Number(text.replaceAll("_", ""));
  return text;
}
