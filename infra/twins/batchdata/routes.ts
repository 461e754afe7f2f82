import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { Clock } from '../kit';
import { addressKey, apnKey, dataset, normalisePart, type Core } from './dataset';
import { milesBetween } from './geography';
import { badRequest, jsonBody, requirePermission, type TwinEnv } from './http';
import { QUICK_LIST_NAMES, quickListCounts } from './quicklists';
import { addressHash, buildRecord } from './record';
import { compileCriteria, compMetrics, compOptions, compPredicates, compSubject } from './search';
import { isObject } from '../kit/request';

type Json = Record<string, unknown>;

/** Requests of one lookup call: BatchData batches them; the twin takes up to 100 per call (a guess: the documented v3 skip-trace limit). */
export const MAX_LOOKUP_REQUESTS = 100;
export const API_VERSION = '1.0.0';

export interface RouteDeps {
  clock: Clock;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A `requestId` in BatchData's look (15 letters and digits, "M2CiaQam0XxT64K"). BatchData's is
 * unique per call; the twin's is derived from the request, so a repeated request answers the
 * same, byte for byte (tests compare answers).
 */
function requestIdOf(path: string, body: unknown): string {
  const digest = createHash('sha256').update(`${path}\n${JSON.stringify(body)}`).digest();
  return Array.from({ length: 15 }, (_, i) => ALPHABET[digest[i]! % ALPHABET.length]).join('');
}

interface ReadOptions {
  skip: number;
  take: number;
  dateFormat: 'iso-date' | 'iso-date-time';
  quicklistCounts: boolean;
  aggComparablesMetrics: boolean;
}

/** `options` of search and lookup (docs/vendors/batchdata.md#property-search): skip 0, take 25 (0-500), dateFormat iso-date. */
function readOptions(o: unknown): ReadOptions & { raw: Json } {
  if (o !== undefined && !isObject(o)) throw badRequest('options must be an object.');
  const raw = (o ?? {}) as Json;
  const int = (k: string, d: number, min: number, max: number) => {
    const v = raw[k];
    if (v === undefined) return d;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badRequest(`options.${k} must be an integer between ${min} and ${max}.`);
    return v;
  };
  const fmt = raw.dateFormat ?? 'iso-date';
  if (fmt !== 'iso-date' && fmt !== 'iso-date-time') throw badRequest('options.dateFormat must be "iso-date" or "iso-date-time".');
  return {
    raw,
    skip: int('skip', 0, 0, Number.MAX_SAFE_INTEGER),
    take: int('take', 25, 0, 500),
    dateFormat: fmt,
    quicklistCounts: raw.quicklistCounts === true,
    aggComparablesMetrics: raw.aggComparablesMetrics === true,
  };
}

/** `meta` of every answer: apiVersion, performance (twin clock for the times), requestId, result counts. */
function meta(requestId: string, started: { at: number; perf: number }, results: Json): Json {
  const took = Math.round(performance.now() - started.perf);
  return {
    apiVersion: API_VERSION,
    performance: { startTime: new Date(started.at).toISOString(), endTime: new Date(started.at + took).toISOString(), totalRequestTime: took },
    requestId,
    results: { errorCount: 0, skipTraceMatchCount: 0, skipTraceNoMatchCount: 0, ...results },
  };
}

export function propertyRoutes(deps: RouteDeps): Hono<TwinEnv> {
  const app = new Hono<TwinEnv>();
  const start = () => ({ at: deps.clock.now(), perf: performance.now() });

  app.post('/api/v1/property/search', async (c) => {
    requirePermission(c, 'property-search');
    const started = start();
    const body = await jsonBody(c);
    if (!isObject(body.searchCriteria)) throw badRequest('searchCriteria is required and must be an object.');
    const criteria = body.searchCriteria;
    const options = readOptions(body.options);
    const predicates = compileCriteria(criteria);
    const warnings: string[] = [];

    let subject: Core | undefined;
    if (criteria.compAddress !== undefined) {
      subject = compSubject(criteria.compAddress);
      predicates.push(...compPredicates(subject, compOptions(options.raw)));
    }
    const data = dataset();
    let matched = data.properties.filter((p) => predicates.every((t) => t(p)));
    // Comparables come nearest first; a plain search in the dataset's (stable) order.
    const distance = new Map<Core, number>();
    if (subject) {
      for (const p of matched) distance.set(p, milesBetween(subject, p));
      matched = [...matched].sort((a, b) => distance.get(a)! - distance.get(b)! || a.index - b.index);
    }
    const page = matched.slice(options.skip, options.skip + options.take);
    let quicklistCounts: { name: string; count: number }[] | undefined;
    if (options.quicklistCounts) {
      // Documented: counts are only honoured when skip and take are both 0 (a count-only, unbilled call).
      if (options.skip === 0 && options.take === 0) quicklistCounts = quickListCounts(matched);
      else warnings.push('quicklistCounts is only honoured when skip and take are both 0.');
    }
    const properties = page.map((p) => {
      const record = buildRecord(p, options.dateFormat);
      return subject ? { ...record, distance: Math.round(distance.get(p)! * 100) / 100 } : record;
    });
    const results: Json = {
      properties,
      ...(quicklistCounts ? { quicklistCounts } : {}),
      searchCriteria: criteria,
      options: { skip: options.skip, take: options.take, ...options.raw },
      meta: meta(requestIdOf(c.req.path, body), started, {
        requestCount: 1,
        matchCount: page.length,
        noMatchCount: 0,
        resultCount: page.length,
        resultsFound: matched.length,
        ...(subject && options.aggComparablesMetrics ? { aggComparablesMetrics: compMetrics(page) } : {}),
      }),
      ...(warnings.length ? { warnings } : {}),
    };
    return c.json({ status: { code: 200, text: 'OK' }, results });
  });

  app.post('/api/v1/property/lookup/all-attributes', async (c) => {
    requirePermission(c, 'property-lookup');
    const started = start();
    const body = await jsonBody(c);
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0) throw badRequest('requests is required: an array of 1 to 100 lookup requests.');
    if (requests.length > MAX_LOOKUP_REQUESTS) throw badRequest(`At most ${MAX_LOOKUP_REQUESTS} requests per call; got ${requests.length}.`);
    const options = readOptions(body.options);
    const found: Json[] = [];
    let noMatch = 0;
    requests.forEach((req, i) => {
      const p = lookupOne(req, i);
      if (!p) {
        noMatch++;
        return;
      }
      const requestId = isObject(req) && typeof req.requestId === 'string' ? req.requestId : undefined;
      found.push({ ...buildRecord(p, options.dateFormat), meta: { matched: true, ...(requestId ? { requestId } : {}) } });
    });
    const results = {
      properties: found,
      meta: meta(requestIdOf(c.req.path, body), started, { requestCount: requests.length, matchCount: found.length, noMatchCount: noMatch, resultCount: found.length }),
    };
    return c.json({ status: { code: 200, text: 'OK' }, results });
  });

  // Every BatchData endpoint is a POST.
  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/api/v1/property/search', '/api/v1/property/lookup/all-attributes'], (c) => {
    return c.json({ status: { code: 405, text: 'Method Not Allowed', message: `${c.req.method} is not allowed on ${c.req.path}; use POST.` } }, 405);
  });

  /**
   * Not BatchData's: the twin's own page about its seed (counties, counts, a few addresses to try),
   * for a look with the sandbox key (`npm start` prints the curl line).
   */
  app.get('/api/v1/sandbox', (c) => {
    const data = dataset();
    const sample = (p: Core) => ({ propertyId: p.id, street: p.street, city: p.city, state: p.state, zip: p.zip, apn: p.apn, countyFipsCode: p.fips });
    return c.json({
      status: { code: 200, text: 'OK' },
      results: {
        properties: data.properties.length,
        counties: data.counties.map((k) => ({
          county: k.name, state: k.state, countyFipsCode: k.fips, cities: k.cities.map((x) => x.name), properties: data.properties.filter((p) => p.fips === k.fips).length,
        })),
        quickLists: QUICK_LIST_NAMES,
        samples: data.counties.map((k) => sample(data.properties.find((p) => p.fips === k.fips && p.type.detail === 'Single Family Residential')!)),
      },
    });
  });

  return app;
}

/** One lookup request in any of its key forms (docs/vendors/batchdata.md#property-lookup); undefined when nothing matches. */
function lookupOne(req: unknown, i: number): Core | undefined {
  const data = dataset();
  const where = `requests[${i}]`;
  if (!isObject(req)) throw badRequest(`${where} must be an object.`);
  if (req.propertyId !== undefined) {
    if (typeof req.propertyId !== 'string') throw badRequest(`${where}.propertyId must be a string.`);
    return data.byId.get(req.propertyId);
  }
  if (req.hash !== undefined) {
    if (typeof req.hash !== 'string') throw badRequest(`${where}.hash must be a string.`);
    return data.properties.find((p) => addressHash(p) === req.hash);
  }
  const address = req.address === undefined ? {} : req.address;
  if (!isObject(address)) throw badRequest(`${where}.address must be an object.`);
  const part = (k: string) => (typeof address[k] === 'string' && (address[k] as string).trim() !== '' ? (address[k] as string) : undefined);
  if (req.apn !== undefined) {
    if (typeof req.apn !== 'string' || req.apn.trim() === '') throw badRequest(`${where}.apn must be a non-empty string.`);
    // APN with countyFipsCode, or with the county's name and state.
    let fips = typeof req.countyFipsCode === 'string' ? req.countyFipsCode : undefined;
    if (!fips) {
      const county = part('county');
      const state = part('state');
      if (!county || !state) throw badRequest(`${where}: an APN lookup needs countyFipsCode, or address.county and address.state.`);
      fips = data.counties.find((k) => normalisePart(k.name) === normalisePart(county) && k.state === normalisePart(state))?.fips;
      if (!fips) return undefined;
    }
    return data.byApn.get(apnKey(fips, req.apn));
  }
  const street = part('street');
  const zip = part('zip');
  const city = part('city');
  const state = part('state');
  if (!street || (!zip && !(city && state))) throw badRequest(`${where}: an address lookup needs address.street and either address.zip or address.city and address.state.`);
  if (zip && city && state) return data.byAddress.get(addressKey({ street, city, state, zip }));
  // A partial address: the first property on that street in that zip (or city and state).
  const s = normalisePart(street);
  return data.properties.find(
    (p) => normalisePart(p.street) === s && (zip ? p.zip === zip.slice(0, 5) : normalisePart(p.city) === normalisePart(city!) && p.state === normalisePart(state!)),
  );
}
