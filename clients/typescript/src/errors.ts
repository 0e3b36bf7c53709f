// A call the referee refused, with its gRPC status: protocol problems only (an illegal move is a
// verdict, never an error: docs in proto/referee/v1/referee.proto).
import { Metadata, status as Status, type ServiceError } from "@grpc/grpc-js";

export { Status };

/** A status code's name: `"NOT_FOUND"`, `"UNAUTHENTICATED"`, ... */
export type StatusName = keyof typeof Status;

const NAMES = new Map<number, StatusName>(
  (Object.entries(Status) as [StatusName, number][]).filter(([, v]) => typeof v === "number")
    .map(([name, code]) => [code, name]),
);

export class RefereeError extends Error {
  /** The gRPC status code (`Status.NOT_FOUND`, ...). */
  readonly code: Status;
  /** Its name, as the proto's comments write it. */
  readonly status: StatusName;
  /** The referee's sentence: what is wrong. */
  readonly details: string;
  /** Over a quota (RESOURCE_EXHAUSTED): how long to wait before trying again, if the referee said. */
  readonly retryPushbackMs: number | undefined;

  constructor(code: Status, details: string, retryPushbackMs?: number) {
    const status = NAMES.get(code) ?? "UNKNOWN";
    super(`${status}: ${details}`);
    this.name = "RefereeError";
    this.code = code;
    this.status = status;
    this.details = details;
    this.retryPushbackMs = retryPushbackMs;
  }

  /** From what grpc-js gives a failed call. */
  static from(error: unknown): RefereeError | Error {
    if (error instanceof RefereeError || !isServiceError(error)) return error as Error;
    const pushback = error.metadata instanceof Metadata
      ? error.metadata.get("grpc-retry-pushback-ms")[0] : undefined;
    return new RefereeError(error.code, error.details,
      pushback === undefined ? undefined : Number(pushback));
  }
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as ServiceError).code === "number"
    && "details" in error;
}
