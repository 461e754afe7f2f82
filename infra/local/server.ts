import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { loadConfig } from '../../shared/core/config';
import { createApp, noRoute } from '../../shared/http/app';
import { approvalRoutes } from '../../shared/identity/approval-routes';
import { localOriginGuard } from '../../shared/http/origin-guard';
import { mountReference } from './reference';
import { createRuntime } from '../../shared/lambda/runtime';
import { BLOB_PATH, MemoryBlobStore } from '../../shared/blob';
import { eventsConfigOf } from '../../shared/events/receiver';
import { HUBSPOT_APP } from '../twins/hubspot';
import { SHAREFILE_WEBHOOK_KEYS } from '../twins/sharefile';
import { randomBytes } from 'node:crypto';
import { loadIdentityConfig } from '../../shared/identity/config';
import { oauthLifetime, SANDBOX_OAUTH_CLIENT } from '../twins/kit';
import { knobOptions, localPlatforms, platforms, twinKnobs, type Twin, type TwinKnobs } from './platforms';

/**
 * The embedded default: every platform on one port, the memory store, and the sandbox twins in
 * the same process (mounted under /twins/<vendor> for a look, and called in-process by the tools).
 * A platform whose <PLATFORM>_BASE_URL is set talks to that URL instead. TWIN_LATENCY_MS and
 * TWIN_CREDITS set every twin's answer time and rate budget (reproducing the bench, load tests).
 */
/**
 * `opts.now`: the identity's clock (tests move it past a token's expiry); `opts.publicBase`: the
 * address the identity answers as, in place of this server's own (tests: a second deployment's).
 */
export async function startLocal(env: Record<string, string | undefined> = process.env, opts: { now?: () => number; publicBase?: () => string | undefined } = {}) {
  // Locally, webhook receivers and attachment sources on this machine are fair game.
  // The crm twin's HubSpot app stands for the deployment's own (the event inbox subscribes through it).
  const twinApp = { CRM_EVENTS_APP_ID: HUBSPOT_APP.appId, CRM_EVENTS_DEVELOPER_KEY: HUBSPOT_APP.developerKey, CRM_EVENTS_CLIENT_SECRET: HUBSPOT_APP.clientSecret };
  // The ShareFile twin signs its webhook payloads with its sandbox app's key, as ShareFile does with a deployment's.
  const twinSigning = { FILEBOX_EVENTS_SIGNATURE_KEY: SHAREFILE_WEBHOOK_KEYS.primary };
  const config = loadConfig({ ALLOW_HTTP_HOSTS: '127.0.0.1,localhost', ...(env.CRM_BASE_URL ? {} : twinApp), ...(env.FILEBOX_BASE_URL ? {} : twinSigning), ...env });
  const knobs = twinKnobs(env);
  // Connected accounts (shared/identity): the twins' sandbox OAuth app, an admin credential made
  // up per start unless ADMIN_TOKEN is set, and the twins' authorization pages once the port is known.
  const sandboxApps: Record<string, string> = {};
  for (const { name, auth } of platforms) {
    if (!auth.oauth || config.baseUrls[name]) continue;
    sandboxApps[`${name.toUpperCase()}_OAUTH_CLIENT_ID`] = SANDBOX_OAUTH_CLIENT.id;
    sandboxApps[`${name.toUpperCase()}_OAUTH_CLIENT_SECRET`] = SANDBOX_OAUTH_CLIENT.secret;
  }
  const adminToken = env.ADMIN_TOKEN || `adm_${randomBytes(18).toString('base64url')}`;
  const identityConfig = loadIdentityConfig({ ...sandboxApps, ...env, ADMIN_TOKEN: adminToken });
  const oauthTwins = oauthLifetime(env);
  const app = new Hono();
  // This server's own address, known once it listens: links a twin hands out point at its mount here.
  let own = 'http://127.0.0.1';
  const twins: Record<string, Twin> = {};
  const fetchFor: Record<string, typeof fetch | undefined> = {};
  for (const p of localPlatforms) {
    // Receivers on this machine may be webhook targets locally (the real vendors: public hosts only).
    const twin = p.twin({ hookTargets: config.allowHttpHosts.length ? 'any' : 'public', publicBase: () => `${own}${p.mount}`, ...knobOptions(p, knobs), ...(oauthTwins.accessSeconds ? { oauthAccessSeconds: oauthTwins.accessSeconds } : {}) });
    twins[p.platform.name] = twin;
    fetchFor[p.platform.name] = config.baseUrls[p.platform.name] ? undefined : twin.fetch;
    app.route(p.mount, twin.app as Hono);
  }
  const rt = await createRuntime({ platforms, config, fetchFor, identity: { config: identityConfig, env, publicBase: opts.publicBase ?? (() => own), ...(opts.now ? { now: opts.now } : {}) } });
  // Signed download links of the memory Blob store (shared/blob): they work without a key.
  const blob = rt.blob;
  if (blob instanceof MemoryBlobStore) app.get(`${BLOB_PATH}*`, (c) => blob.serve(c.req.raw));
  // The API reference page at GET / (Swagger UI over /v1/openapi.json), trying tools with the sandbox keys.
  mountReference(app, Object.fromEntries(localPlatforms.map((p) => [p.platform.name, p.keys.owner])));
  // DNS-rebinding protection of the MCP endpoints (shared/http/origin-guard.ts): Host and Origin must name this server.
  const guard = localOriginGuard(() => own, (env.MCP_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean), identityConfig.corsOrigins.filter((o) => o !== '*'));
  app.use('/v1/mcp', guard);
  app.use('/v1/mcp/*', guard);
  // The approval page and the approvals/audit admin routes, as the identity function serves them.
  approvalRoutes(app, rt);
  app.route('/', createApp(rt));
  app.notFound(noRoute);

  const port = Number(env.PORT ?? 8787);
  const hostname = env.HOST ?? '127.0.0.1';
  const server = serve({ fetch: app.fetch, port, hostname });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${actualPort}`;
  own = base;
  // The event receiver is this server unless EVENTS_BASE_URL names another address (a tunnel for real vendors).
  eventsConfigOf(rt).baseUrl ??= base;
  for (const p of localPlatforms) {
    const name = p.platform.name;
    if (p.platform.auth.oauth && !config.baseUrls[name]) identityConfig.authorizeUrls[name] ??= `${base}${p.mount}/oauth/authorize`;
  }
  if (blob instanceof MemoryBlobStore && !env.BLOB_BASE_URL) blob.baseUrl = base;
  return { server, base, key: localPlatforms[0]!.keys.owner, twins, config, knobs, rt, adminToken };
}

/** How to call each platform: where its vendor is, and a ready-to-paste curl of its probe tool. */
export function startupMessage(base: string, config: ReturnType<typeof loadConfig>, knobs: TwinKnobs = {}, adminToken?: string): string {
  const keys = [...new Set(localPlatforms.map((p) => p.keys.owner))];
  const lines = [`Tool Execution Service listening on ${base} (store: ${config.store.kind})`];
  if (adminToken) lines.push(`admin credential (service keys: TES_URL=${base} ADMIN_TOKEN=${adminToken} npm run keys -- create …): ${adminToken}`);
  if (adminToken) lines.push(`operator console: ${base}/console (sign in with the admin credential)`);
  if (knobs.latencyMs) lines.push(`twins answer after ${knobs.latencyMs} ms (TWIN_LATENCY_MS)`);
  lines.push(`event receiver: ${config.events?.baseUrl ?? base}/v1/events/{platform}/{subscription_id} (subscribeEvents points the twins' webhooks here)`);
  lines.push(keys.length === 1 ? `sandbox key: ${keys[0]}` : `sandbox keys: ${localPlatforms.map((p) => `${p.platform.name} ${p.keys.owner}`).join(', ')}`);
  for (const p of localPlatforms) {
    const name = p.platform.name;
    const vendor = config.baseUrls[name] ?? `sandbox twin at ${base}${p.mount}`;
    lines.push(
      `${name} (${p.platform.vendor}: ${vendor})`,
      `  try: curl -s -X POST ${base}/v1/tools/${name}/${p.probe.tool} -H "Authorization: Bearer ${p.keys.owner}" -H "Content-Type: application/json" -d '${JSON.stringify(p.probe.params)}'`,
    );
    if (!config.baseUrls[name]) lines.push(`  vendor side: curl -s ${base}${p.mount}${p.look} -H "Authorization: ${p.scheme} ${p.keys.owner}"`);
    if (!config.baseUrls[name] && knobs.credits !== undefined) lines.push(`  twin budget: ${knobs.credits.toLocaleString('en-US')} ${p.budget.per} (TWIN_CREDITS)`);
  }
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const { base, config, knobs, adminToken } = await startLocal();
  console.log(startupMessage(base, config, knobs, process.env.ADMIN_TOKEN ? undefined : adminToken));
}
