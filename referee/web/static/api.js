// The referee's HTTP routes (docs/web.md): JSON calls and the Server-Sent Events of a table.
// The seat token travels in the Authorization header, never in a URL; the language in
// Accept-Language, as the gRPC API reads it; a call of a table names it in x-referee-table (a
// proxy routes every call of a table to one referee process by it).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(`${code}: ${message}`);
    this.status = status;
    this.code = code;
  }
}

// `headers` with the table the call's path is about (`/v1/tables/ID/...`), if it is about one
export function naming(path, headers) {
  const table = /^\/v1\/tables\/([^/?]+)\//.exec(path);
  if (table) headers["x-referee-table"] = decodeURIComponent(table[1]);
  return headers;
}

function headers(options, path) {
  const sent = { "Accept-Language": options.language || "en" };
  if (options.token) sent.Authorization = `Bearer ${options.token}`;
  return naming(path, sent);
}

export async function call(method, path, body, options = {}) {
  const init = { method, headers: headers(options, path) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data?.code ?? "UNKNOWN", data?.message ?? response.statusText);
  }
  return data;
}

// Read a table's events: onEvent(answer) for each move, onEnd({code, message}) once. The
// stream is read with fetch (so the token can go in a header) and resumed after a dropped
// connection from the last id, as EventSource does. Returns a function that stops it.
export function watch(tableId, options, onEvent, onEnd) {
  const stop = new AbortController();
  let lastId = null;
  const path = `/v1/tables/${encodeURIComponent(tableId)}/events`;

  async function readOnce() {
    const sent = headers(options, path);
    if (lastId !== null) sent["Last-Event-ID"] = lastId;
    const response = await fetch(path, { headers: sent, signal: stop.signal });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw new ApiError(response.status, data.code ?? "UNKNOWN", data.message ?? "");
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false; // dropped: read again
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event.id !== undefined) lastId = event.id;
        if (event.event === "end") {
          onEnd(event.data);
          return true;
        }
        if (event.data !== undefined) onEvent(event.data);
      }
    }
  }

  (async () => {
    try {
      while (!(await readOnce())) await new Promise((r) => setTimeout(r, 1000));
    } catch (error) {
      if (!stop.signal.aborted) onEnd({ code: error.code ?? "UNAVAILABLE", message: error.message });
    }
  })();
  return () => stop.abort();
}

function parseEvent(text) {
  const event = {};
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) continue; // a keep-alive comment
    const colon = line.indexOf(":");
    const key = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, "");
    event[key] = key === "data" ? JSON.parse(value) : value;
  }
  return event;
}
