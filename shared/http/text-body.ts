/**
 * Responses whose body our code made as text (an envelope, a tool list), kept beside them: the
 * Lambda adapter (shared/lambda/http-event.ts) takes that text as the proxy result's body instead
 * of reading the body stream back into bytes and decoding them again — two copies of answers of
 * hundreds of KB (the combined endpoint's tools/list is 325 KB). Any other reader (the local
 * server, a middleware that reads or replaces the Response) gets the body as usual.
 */
const texts = new WeakMap<Response, string>();

/** A Response with `text` as its body, the text kept for textOf. */
export function textResponse(text: string, init: ResponseInit): Response {
  const res = new Response(text, init);
  texts.set(res, text);
  return res;
}

/** The text a Response was made with by textResponse; undefined for any other Response. */
export const textOf = (res: Response): string | undefined => texts.get(res);
