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

// A stream is read again after this many breaks in a row, no event between them (as the clients'
// watch: docs/api.md), the first after 0.1 s, each wait twice the last, up to 2 s.
const RESUME_ATTEMPTS = 10;
const RESUME_WAIT_MS = { first: 100, longest: 2000 };
const RESUME_LIVED_MS = 60_000; // a stream read this long before it broke starts the count anew
const AWAY = new Set([502, 503, 504]); // the referee, or every process behind a proxy, is away

// Read a table's events: onEvent(answer) for each move, onEnd({code, message}) once. The
// stream is read with fetch (so the token can go in a header) and, as EventSource does, read
// again from the last id when its connection drops or fails: its process died (a proxy sends
// the next request to another, and cuts the response short: the read fails) or is away. A
// refusal ends it. Returns a function that stops it.
export function watch(tableId, options, onEvent, onEnd) {
  const stop = new AbortController();
  let lastId = null;
  let breaks = 0; // in a row, no event between them
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
        if (event.id !== undefined) {
          lastId = event.id;
          breaks = 0;
        }
        if (event.event === "end") {
          onEnd(event.data);
          return true;
        }
        if (event.data !== undefined) onEvent(event.data);
      }
    }
  }

  (async () => {
    for (;;) {
      let error = new ApiError(503, "UNAVAILABLE", "the stream dropped"); // ended with no `end`
      const opened = Date.now();
      try {
        if (await readOnce()) return;
      } catch (failure) {
        if (stop.signal.aborted) return;
        error = failure;
      }
      if (Date.now() - opened >= RESUME_LIVED_MS) breaks = 0; // a quiet table's, cut by a timeout
      if (!resumable(error) || breaks >= RESUME_ATTEMPTS) {
        onEnd({ code: error.code ?? "UNAVAILABLE", message: error.message });
        return;
      }
      breaks += 1;
      const longest = Math.min(RESUME_WAIT_MS.longest, RESUME_WAIT_MS.first * 2 ** (breaks - 1));
      await new Promise((r) => setTimeout(r, longest / 2 + (Math.random() * longest) / 2));
    }
  })();
  return () => stop.abort();
}

// fetch's failures (no connection, a response cut short) are TypeErrors; a refusal is an ApiError
function resumable(error) {
  return error instanceof TypeError || (error instanceof ApiError && AWAY.has(error.status));
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
