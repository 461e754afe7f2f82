import type { Context, Hono } from 'hono';

/** An error body: the value itself, or built from the request (vendors echo the endpoint, the URL…). */
export type ErrorBody = ((c: Context) => unknown) | Record<string, unknown> | unknown[] | string | number | boolean | null;

/**
 * An HTTP error a twin throws from anywhere in a request: status, body already in the vendor's
 * shape, extra headers. The installed error handler answers it as JSON.
 */
export class TwinHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
    message = `HTTP ${status}`,
  ) {
    super(message);
  }

  /** The JSON answer to `c`. */
  response(c: Context): Response {
    const body = typeof this.body === 'function' ? this.body(c) : this.body;
    return c.json(body as object, this.status as 400, this.headers);
  }
}

/** A twin's error dialect: the vendor's answers to an unknown URL and to a bug of the twin. */
export interface ErrorDialect {
  notFound(c: Context): TwinHttpError;
  internal(c: Context, err: unknown): TwinHttpError;
}

/** Installs the dialect: TwinHttpErrors answer themselves, unknown routes and other errors the vendor's way. */
export function twinErrors(app: Hono<any>, dialect: ErrorDialect): void {
  app.notFound((c) => dialect.notFound(c).response(c));
  app.onError((err, c) => {
    if (err instanceof TwinHttpError) return err.response(c);
    return dialect.internal(c, err).response(c);
  });
}
