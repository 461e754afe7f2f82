import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAll, CONVERTER_LAYER_DIR, CONVERTER_MODULES, PREBUILT_DIR, STORE_CLIENT_FILE } from '../../infra/build';
import { BUNDLE_FILE } from '../../shared/lambda/bundle-loader';
import { cacheFiles } from '../../shared/store/code-cache';
import { platformCases } from '../helpers/platforms';
import { REGISTER_LIMIT } from '../../shared/identity/mcp-oauth/routes';
import { zipEntries, zipRead } from '../helpers/zip';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

interface Resource {
  Type: string;
  Properties: Record<string, any>;
  DependsOn?: string | string[];
}
type Template = { Resources: Record<string, Resource>; Outputs?: Record<string, unknown> };

/**
 * `osls package` fully offline: no network, no AWS credentials, no account lookup. The
 * environment drops every AWS credential source, so a template that needed one would fail.
 */
function offlineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AWS_') && !/^(RATE_LIMIT_|OAUTH_REGISTER_RATE_LIMIT$|SLS_|SERVERLESS_)/.test(k)) env[k] = v;
  return {
    ...env,
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_EC2_METADATA_DISABLED: 'true',
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    SLS_DEPRECATION_DISABLE: '*',
    npm_config_update_notifier: 'false',
    npm_config_offline: 'true',
    ...extra,
  };
}

async function oslsPackage(dir: string, args: string[] = [], env: Record<string, string> = {}): Promise<Template> {
  try {
    await run('npx', ['--no-install', 'osls', 'package', '--package', dir, ...args], { cwd: root, env: offlineEnv(env), timeout: 240_000 });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`osls package ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: err });
  }
  return JSON.parse(await readFile(join(dir, 'cloudformation-template-update-stack.json'), 'utf8'));
}

/** The DynamoDB store client beside a function's bundle and its code cache (infra/build.ts). */
/** A file of a CommonJS function with its code cache (infra/build.ts): the store client, the bundle. */
const withCache = (file: string) => Object.values({ file, ...cacheFiles(file) });
const storeClientFiles = (name: string) => withCache(`dist/${name}/${STORE_CLIENT_FILE}`);
const bundleFiles = (name: string) => withCache(`dist/${name}/${BUNDLE_FILE}`);

const ofType = (t: Template, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);
function only(t: Template, type: string): [string, Resource] {
  const found = ofType(t, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
}

interface Statement {
  Effect: string;
  Action: string[];
  Resource: unknown;
}
function statements(t: Template): Statement[] {
  const [, role] = only(t, 'AWS::IAM::Role');
  return role.Properties.Policies.flatMap((p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement);
}

let work: string;
let dev: Template;
let prod: Template;
/** Each function's handler file, as built. */
const bundles: Record<string, Buffer> = {};
/** All of each function's JS (the combined function's split build: the handler and every chunk). */
const code: Record<string, string> = {};
/** Each function's JS files, as built (absolute paths). */
const jsFiles: Record<string, string[]> = {};
/** The functions whose bundle loads the document converters (infra/build.ts). */
const converting = new Set<string>();

beforeAll(async () => {
  for (const info of await buildAll()) {
    bundles[info.name] = await readFile(info.file);
    jsFiles[info.name] = info.files;
    code[info.name] = (await Promise.all(info.files.map((f) => readFile(f, 'utf8')))).join('\n');
    if (info.converts) converting.add(info.name);
  }
  work = await mkdtemp(join(tmpdir(), 'tes-sls-'));
  // Default stage/region, then overrides from the command line and the environment. One after
  // the other: osls zips into <repo>/.serverless/ before copying to --package, so two runs race.
  // The document converters are one layer (about 117 MB unzipped), zipped once per package.
  dev = await oslsPackage(join(work, 'dev'));
  prod = await oslsPackage(join(work, 'prod'), ['--stage', 'prod', '--region', 'eu-west-1'], { RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '30' });
}, 540_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The platform's function in a template, by its name. */
function fn(t: Template, stage: string, name: string): [string, Resource] {
  const found = ofType(t, 'AWS::Lambda::Function').filter(([, r]) => r.Properties.FunctionName === `tool-execution-service-${stage}-${name}`);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}
/** The schedule rules whose target is the given function. */
const rulesOf = (t: Template, fnId: string) => ofType(t, 'AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.Targets).includes(`"${fnId}"`));

describe('serverless.yml packaged by osls (offline)', () => {
  it('declares one Lambda per platform, each with a bundle', () => {
    const names = ofType(dev, 'AWS::Lambda::Function').map(([, r]) => String(r.Properties.FunctionName).replace('tool-execution-service-dev-', ''));
    expect(names.sort()).toEqual(expect.arrayContaining(platformCases.map((c) => c.name)));
    for (const name of names) expect(bundles[name], `functions/${name}/handler.ts`).toBeDefined();
  });

  it('creates one DynamoDB table: on demand, key pk (S), TTL on expires_at', () => {
    const [, table] = only(dev, 'AWS::DynamoDB::Table');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
  });

  it('grants least privilege: 5 DynamoDB item actions on the table, ssm:GetParameter on the stage path, fan-out to the stage\'s own queue and bus', () => {
    const tableId = only(dev, 'AWS::DynamoDB::Table')[0];
    const all = statements(dev);
    for (const s of all) {
      expect(s.Effect).toBe('Allow');
      expect(s.Action.some((a) => a === '*' || a.endsWith(':*'))).toBe(false);
    }

    const dynamo = all.filter((s) => s.Action.some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect([...dynamo[0]!.Action].sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(dynamo[0]!.Resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });

    const ssm = all.filter((s) => s.Action.some((a) => a.startsWith('ssm:')));
    expect(ssm).toHaveLength(1);
    expect(ssm[0]!.Action).toEqual(['ssm:GetParameter']);
    expect(ssm[0]!.Resource).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/tool-execution-service/dev/*' });

    // The Blob bucket: put objects, sign GET links to them and delete them, in that bucket only.
    const bucketId = 'BlobBucket';
    const s3 = all.filter((s) => s.Action.some((a) => a.startsWith('s3:')));
    expect(s3).toHaveLength(2);
    // The audit export: put only, under audit/ of the stage's own buckets.
    expect([s3[1]!.Action, s3[1]!.Resource]).toEqual([['s3:PutObject'], { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::tool-execution-service-dev-*/audit/*' }]);
    expect([...s3[0]!.Action].sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(s3[0]!.Resource).toEqual({ 'Fn::Sub': `\${${bucketId}.Arn}/*` });

    // The event inbox's fan-out: send only, to queues and buses named after the service and stage.
    const sqs = all.filter((s) => s.Action.some((a) => a.startsWith('sqs:')));
    expect(sqs.map((s) => [s.Action, s.Resource])).toEqual([[['sqs:SendMessage'], { 'Fn::Sub': 'arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:tool-execution-service-dev-*' }]]);
    const bus = all.filter((s) => s.Action.some((a) => a.startsWith('events:')));
    expect(bus.map((s) => [s.Action, s.Resource])).toEqual([[['events:PutEvents'], { 'Fn::Sub': 'arn:${AWS::Partition}:events:${AWS::Region}:${AWS::AccountId}:event-bus/tool-execution-service-dev-*' }]]);

    // Besides ours, only the framework's own CloudWatch Logs statements, scoped to the service's log groups.
    // The credential vault: data keys of the one KMS key, only under the tenant/connection context.
    const kms = all.filter((s) => s.Action.some((a) => a.startsWith('kms:')));
    expect(kms).toHaveLength(1);
    expect([...kms[0]!.Action].sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    expect(kms[0]!.Resource).toEqual({ 'Fn::GetAtt': ['VaultKey', 'Arn'] });
    expect((kms[0] as unknown as { Condition: unknown }).Condition).toEqual({ 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['tenant', 'connection'] } });

    // MCP tasks: a function serving MCP invokes itself for a task's worker; only those functions, by name.
    const invoke = all.filter((s) => s.Action.some((a) => a.startsWith('lambda:')));
    expect(invoke).toHaveLength(1);
    expect(invoke[0]!.Action).toEqual(['lambda:InvokeFunction']);
    const invoked = (invoke[0]!.Resource as { 'Fn::Sub': string }[]).map((r) => r['Fn::Sub']);
    expect(invoked.sort()).toEqual([...platformCases.map((c) => c.name), 'mcp'].map((n) => `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:tool-execution-service-dev-${n}`).sort());

    const rest = all.filter((s) => !dynamo.includes(s) && !ssm.includes(s) && !s3.includes(s) && !sqs.includes(s) && !bus.includes(s) && !kms.includes(s) && !invoke.includes(s));
    for (const s of rest) {
      expect(s.Action.every((a) => a.startsWith('logs:'))).toBe(true);
      expect(JSON.stringify(s.Resource)).toContain('log-group:/aws/lambda/tool-execution-service-dev');
    }
    // No statement anywhere grants a bare "*" resource.
    expect(JSON.stringify(all.map((s) => s.Resource))).not.toMatch(/"\*"/);
  });

  it('creates one private, encrypted Blob bucket whose objects expire a day after upload', () => {
    const bucket = dev.Resources.BlobBucket!;
    expect(bucket.Type).toBe('AWS::S3::Bucket');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1 })]);
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
  });

  it('creates the vault key: customer managed, rotated, administered by the account only', () => {
    const key = dev.Resources.VaultKey!;
    expect(key.Type).toBe('AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeyPolicy.Statement).toEqual([
      expect.objectContaining({ Effect: 'Allow', Principal: { AWS: { 'Fn::Sub': 'arn:${AWS::Partition}:iam::${AWS::AccountId}:root' } } }),
    ]);
  });

  it('routes the combined MCP endpoint and the all-platform OpenAPI to the mcp function, which bundles every platform', () => {
    const [fnId, f] = fn(dev, 'dev', 'mcp');
    // Lambda's Node.js runtime finds dist/mcp/handler.mjs (an ES module) for this handler.
    expect(f.Properties.Handler).toBe('dist/mcp/handler.handler');
    const integrations = ofType(dev, 'AWS::ApiGatewayV2::Integration').filter(([, i]) => JSON.stringify(i.Properties.IntegrationUri).includes(`"${fnId}"`));
    expect(integrations).toHaveLength(1);
    const routes = ofType(dev, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties).filter((r) => JSON.stringify(r.Target).includes(integrations[0]![0]));
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['ANY /v1/mcp', 'GET /v1/openapi.json']);
    for (const tool of ['listWorkspaces', 'getOrganizations', 'getPipelines', 'searchProperties', 'getTopLevelFolders']) expect(code.mcp!).toContain(tool);
  });

  it('packages mcp.zip with its split build: handler.mjs and every chunk beside it, byte for byte, and no handler.js', async () => {
    const zip = await readFile(join(work, 'dev', 'mcp.zip'));
    const entries = zipEntries(zip);
    const names = entries.map((e) => e.name);
    expect(names).not.toContain('dist/mcp/handler.js');
    expect(jsFiles.mcp!.length).toBeGreaterThan(100);
    for (const file of jsFiles.mcp!) {
      const name = `dist/mcp/${file.slice(file.lastIndexOf('/') + 1)}`;
      const entry = entries.find((e) => e.name === name);
      expect(entry, name).toBeDefined();
      expect(zipRead(zip, entry!).equals(readFileSync(file))).toBe(true);
    }
    expect(names.filter((n) => /\.m?js$/.test(n) && !n.endsWith(STORE_CLIENT_FILE)).sort()).toEqual(jsFiles.mcp!.map((f) => `dist/mcp/${f.slice(f.lastIndexOf('/') + 1)}`).sort());
  });

  it('routes the identity endpoints to the identity function, which ships only its bundle', async () => {
    const [fnId, f] = fn(dev, 'dev', 'identity');
    expect(f.Properties.Handler).toBe('dist/identity/handler.handler');
    // No task workers here: it keeps API Gateway's limit rather than the tool functions' 900 s.
    expect(f.Properties.Timeout).toBe(29);
    const integrations = ofType(dev, 'AWS::ApiGatewayV2::Integration').filter(([, i]) => JSON.stringify(i.Properties.IntegrationUri).includes(`"${fnId}"`));
    expect(integrations).toHaveLength(1);
    const routes = ofType(dev, 'AWS::ApiGatewayV2::Route')
      .map(([, r]) => r.Properties)
      .filter((r) => JSON.stringify(r.Target).includes(integrations[0]![0]));
    expect(routes.map((r) => r.RouteKey).sort()).toEqual([
      'DELETE /v1/admin/keys/{id}', 'DELETE /v1/connections/{id}', 'GET /v1/admin/keys', 'GET /v1/admin/keys/{id}', 'GET /v1/connect/{token}', 'GET /v1/connect/{token}/authorize',
      'GET /v1/connections', 'GET /v1/connections/callback', 'GET /v1/connections/{id}', 'POST /v1/admin/keys', 'POST /v1/admin/keys/{id}/rotate', 'POST /v1/connect/{token}',
      'POST /v1/connections', 'POST /v1/connections/{id}/reconnect',
      'GET /v1/admin/approvals', 'GET /v1/admin/approvals/{id}', 'POST /v1/admin/approvals/{id}/approve', 'POST /v1/admin/approvals/{id}/reject', 'GET /v1/admin/audit',
      'GET /v1/admin/connections', 'POST /v1/admin/connections/{tenant}/{id}/reconnect', 'DELETE /v1/admin/connections/{tenant}/{id}', 'GET /v1/admin/oauth/clients', 'GET /v1/admin/oauth/grants',
      'DELETE /v1/admin/oauth/grants/{id}', 'GET /v1/admin/subscriptions', 'GET /v1/admin/tasks', 'GET /v1/approvals/{id}', 'GET /v1/approve/{token}', 'POST /v1/approve/{token}',
      'GET /.well-known/oauth-authorization-server', 'GET /.well-known/oauth-protected-resource', 'GET /.well-known/oauth-protected-resource/v1/mcp',
      'GET /.well-known/oauth-protected-resource/v1/mcp/{platform}', 'GET /oauth/authorize', 'POST /oauth/authorize', 'POST /oauth/register', 'POST /oauth/token',
      'POST /oauth/revoke', 'GET /oauth/register/{client_id}', 'PUT /oauth/register/{client_id}', 'DELETE /oauth/register/{client_id}', 'GET /v1/openapi/identity.json', 'GET /pages/style.css',
      'GET /console', 'GET /console/{pane}', 'POST /console/sign-in', 'POST /console/sign-out', 'POST /console/keys', 'POST /console/keys/{id}/rotate', 'POST /console/keys/{id}/revoke',
      'POST /console/connections/{tenant}/{id}/reconnect', 'POST /console/connections/{tenant}/{id}/delete', 'POST /console/oauth/grants/{id}/revoke', 'POST /console/approvals/{id}/approve', 'POST /console/approvals/{id}/reject',
      ...['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/v1/mcp', '/.well-known/oauth-protected-resource/v1/mcp/{platform}', '/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/register/{client_id}', '/oauth/token', '/oauth/revoke'].map((p) => `OPTIONS ${p}`),
    ].sort());
    const zip = await readFile(join(work, 'dev', 'identity.zip'));
    expect(zipEntries(zip).map((e) => e.name).sort()).toEqual(['dist/identity/handler.js', 'dist/identity/package.json', ...bundleFiles('identity'), ...storeClientFiles('identity')].sort());
    // No platform's tools in it: it reads every descriptor (their manifests name the tools), and the tool modules stay out.
    const toolText = 'List the pipelines of deals (default) or tickets';
    expect(code.mcp!).toContain(toolText);
    expect(code.identity!).not.toContain(toolText);
  });

  it('ships the document converters once: one layer, taken by every function whose bundle loads them and by no other; no function zip carries them', async () => {
    expect([...converting].sort()).toEqual(['collab', 'dbapp', 'filebox', 'mcp']);
    const [layerId, layer] = only(dev, 'AWS::Lambda::LayerVersion');
    expect(layer.Properties).toMatchObject({ LayerName: 'tool-execution-service-dev-converters', CompatibleRuntimes: ['nodejs22.x'], CompatibleArchitectures: ['arm64'] });
    expect(layer.Properties.Content.S3Key).toMatch(/\/converters\.zip$/);
    for (const [, f] of ofType(dev, 'AWS::Lambda::Function')) {
      const name = String(f.Properties.FunctionName).replace('tool-execution-service-dev-', '');
      if (!bundles[name]) continue;
      expect(f.Properties.Layers ?? [], name).toEqual(converting.has(name) ? [{ Ref: layerId }] : []);
      const entries = zipEntries(await readFile(join(work, 'dev', `${name}.zip`))).map((e) => e.name);
      expect(entries.filter((e) => e.includes('node_modules/') || CONVERTER_MODULES.some((m) => e.includes(`/${m}/`))), name).toEqual([]);
    }
    // The layer: the packages under nodejs/node_modules, where Lambda's Node.js runtime looks in /opt.
    const layerEntries = zipEntries(await readFile(join(work, 'dev', 'converters.zip'))).map((e) => e.name);
    for (const m of CONVERTER_MODULES) expect(layerEntries).toContain(`nodejs/node_modules/${m}/package.json`);
    expect(layerEntries.every((e) => e.startsWith('nodejs/node_modules/'))).toBe(true);
    // Complete: each converter loads from the layer alone, as Lambda's runtime finds it (NODE_PATH
    // /opt/nodejs/node_modules), from a folder with no node_modules above it.
    const layerModules = join(root, 'dist', CONVERTER_LAYER_DIR, 'nodejs', 'node_modules');
    const load = `for (const m of ${JSON.stringify(CONVERTER_MODULES)}) { const at = require.resolve(m); if (!at.startsWith(process.env.NODE_PATH)) throw new Error(m + ' not from the layer: ' + at); require(m); } process.stdout.write('loaded');`;
    const { stdout } = await run(process.execPath, ['-e', load], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', NODE_PATH: layerModules }, timeout: 60_000 });
    expect(stdout).toBe('loaded');
    // Per stage: its own layer name.
    expect(only(prod, 'AWS::Lambda::LayerVersion')[1].Properties.LayerName).toBe('tool-execution-service-prod-converters');
  });

  it('takes stage, region and rate limits from the command line and the environment', () => {
    const ssm = statements(prod).find((s) => s.Action.includes('ssm:GetParameter'));
    expect(ssm?.Resource).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/tool-execution-service/prod/*' });
  });
});

describe.each(platformCases)('serverless.yml: the $name Lambda', (c) => {
  it('runs nodejs22.x on arm64 with the bundle handler and the store environment', () => {
    const [, f] = fn(dev, 'dev', c.name);
    const tableId = only(dev, 'AWS::DynamoDB::Table')[0];
    expect(f.Properties).toMatchObject({ Runtime: 'nodejs22.x', Handler: `dist/${c.name}/handler.handler`, Architectures: ['arm64'], MemorySize: 512, Timeout: 900 });
    expect(f.Properties.Environment.Variables).toEqual({
      STORE: 'dynamodb',
      TABLE_NAME: { Ref: tableId },
      BLOB_BUCKET: { Ref: 'BlobBucket' },
      // Unset: the platform's own default limit.
      RATE_LIMIT_MAX: '',
      RATE_LIMIT_WINDOW_SECONDS: '',
      LOG_LEVEL: 'info',
      METRICS: 'on',
      METRICS_NAMESPACE: 'ToolExecutionService',
      // The event inbox: the receiver's base is the HTTP API's URL; TTL and fan-out unset (defaults, off).
      EVENTS_BASE_URL: { 'Fn::GetAtt': ['HttpApi', 'ApiEndpoint'] },
      EVENTS_TTL_SECONDS: '',
      EVENTS_SQS_QUEUE_URL: '',
      EVENTS_BUS_NAME: '',
      ...(c.name === 'crm' ? { CRM_EVENTS_APP_ID: '', CRM_EVENTS_DEVELOPER_KEY_PARAMETER: '/tool-execution-service/dev/crm/events-developer-key', CRM_EVENTS_CLIENT_SECRET_PARAMETER: '/tool-execution-service/dev/crm/events-client-secret' } : {}),
      ...(c.name === 'filebox' ? { FILEBOX_EVENTS_SIGNATURE_KEY_PARAMETER: '' } : {}),
      KMS_KEY_ID: { 'Fn::GetAtt': ['VaultKey', 'Arn'] },
      PUBLIC_BASE_URL: { 'Fn::Sub': 'https://${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}' },
      ADMIN_TOKEN_PARAMETER: '/tool-execution-service/dev/admin-token',
      PASS_THROUGH_KEYS: 'on',
      COLLAB_OAUTH_CLIENT_ID: '',
      COLLAB_OAUTH_CLIENT_SECRET_PARAMETER: '/tool-execution-service/dev/collab/oauth-client-secret',
      CRM_OAUTH_CLIENT_ID: '',
      CRM_OAUTH_CLIENT_SECRET_PARAMETER: '/tool-execution-service/dev/crm/oauth-client-secret',
      FILEBOX_OAUTH_CLIENT_ID: '',
      FILEBOX_OAUTH_CLIENT_SECRET_PARAMETER: '/tool-execution-service/dev/filebox/oauth-client-secret',
      // MCP sign-in (docs/identity.md): unset — no CORS origins, connect sign-in by default, the built-in server.
      // OAuth client registrations per source address: the code's default (shared/identity/mcp-oauth/routes.ts REGISTER_LIMIT).
      OAUTH_REGISTER_RATE_LIMIT: `${REGISTER_LIMIT.max}/${REGISTER_LIMIT.window_seconds}`,
      ...Object.fromEntries(['CORS_ALLOWED_ORIGINS', 'APPROVAL_TTL_SECONDS', 'APPROVAL_SIGN_IN', 'APPROVAL_WEBHOOK_URL', 'APPROVAL_WEBHOOK_SECRET', 'AUDIT_RETENTION_DAYS', 'AUDIT_EXPORT_BUCKET', 'AUDIT_EXPORT_BUS', 'MCP_CONNECT_SIGN_IN', 'MCP_AUTH_SERVER', 'MCP_AUTH_ISSUER', 'MCP_AUTH_JWKS_URL', 'MCP_AUTH_AUDIENCE', 'MCP_AUTH_AUDIENCE_CLAIM', 'MCP_AUTH_SCOPES', 'MCP_AUTH_TENANT_CLAIM', 'MCP_AUTH_CONNECTION_CLAIM', 'MCP_AUTH_TENANTS'].map((v) => [v, ''])),
    });
    expect(f.Properties.Code.S3Key).toMatch(new RegExp(`/${c.name}\\.zip$`));
  });

  it('takes stage and rate limits from the command line and the environment', () => {
    const [fnId, f] = fn(prod, 'prod', c.name);
    expect(f.Properties.Environment.Variables).toMatchObject({ RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '30' });
    const [[, rule]] = rulesOf(prod, fnId) as [[string, Resource]];
    expect(JSON.parse(rule.Properties.Targets[0].Input).key_parameter).toBe(`/tool-execution-service/prod/${c.name}/api-key`);
  });

  it('routes POST /v1/tools/<platform>/{tool}, GET /v1/tools/<platform>, ANY /v1/mcp/<platform>, GET /v1/openapi/<platform>.json and (with webhooks) POST /v1/events/<platform>/{id} of the HTTP API (payload 2.0) to its function', () => {
    const [fnId] = fn(dev, 'dev', c.name);
    const integrations = ofType(dev, 'AWS::ApiGatewayV2::Integration').filter(([, i]) => JSON.stringify(i.Properties.IntegrationUri).includes(`"${fnId}"`));
    expect(integrations).toHaveLength(1);
    const [integrationId, integration] = integrations[0]!;
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    const routes = ofType(dev, 'AWS::ApiGatewayV2::Route')
      .map(([, r]) => r.Properties)
      .filter((r) => JSON.stringify(r.Target).includes(integrationId));
    // The event receiver: on every platform whose vendor has webhooks (an events adapter), and only there.
    const receiver = c.platform.events ? [`POST /v1/events/${c.name}/{id}`] : [];
    expect(routes.map((r) => r.RouteKey).sort()).toEqual([`ANY /v1/mcp/${c.name}`, `GET /v1/openapi/${c.name}.json`, `GET /v1/tools/${c.name}`, ...receiver, `POST /v1/tools/${c.name}/{tool}`].sort());
  });

  it('declares its example scheduled job DISABLED: the probe, with key_parameter and no plaintext key', () => {
    const [fnId] = fn(dev, 'dev', c.name);
    const rules = rulesOf(dev, fnId);
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties.State).toBe('DISABLED');
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 day)');
    const [target] = rule.Properties.Targets;
    expect(target.Arn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    const input = JSON.parse(target.Input);
    expect(input).toEqual({ tool: c.probe.tool, params: c.probe.params, format: 'json', key_parameter: `/tool-execution-service/dev/${c.name}/api-key` });
    for (const k of ['key', 'api_key', 'authorization', 'token']) expect(input).not.toHaveProperty(k);
    expect(target.Input).not.toContain(c.keys.owner);
    expect(target.Input).not.toMatch(/Bearer/);
    const permissions = ofType(dev, 'AWS::Lambda::Permission').map(([, p]) => p.Properties);
    expect(permissions).toContainEqual(expect.objectContaining({ Principal: 'events.amazonaws.com', SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] } }));
  });

  it('packages <platform>.zip with only its bundle, byte for byte', async () => {
    const zip = await readFile(join(work, 'dev', `${c.name}.zip`));
    const entries = zipEntries(zip);
    // Its build-time documents (dist/<name>/prebuilt/, infra/build.ts), each as built.
    const prebuilt = readdirSync(join(root, 'dist', c.name, PREBUILT_DIR)).map((f) => `dist/${c.name}/${PREBUILT_DIR}/${f}`);
    expect(prebuilt.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.name).sort()).toEqual([`dist/${c.name}/handler.js`, `dist/${c.name}/package.json`, ...bundleFiles(c.name), ...storeClientFiles(c.name), ...prebuilt].sort());
    for (const file of prebuilt) expect(zipRead(zip, entries.find((e) => e.name === file)!).equals(readFileSync(join(root, file)))).toBe(true);
    const handler = entries.find((e) => e.name === `dist/${c.name}/handler.js`)!;
    expect(zipRead(zip, handler).equals(bundles[c.name]!)).toBe(true);
    const pkg = entries.find((e) => e.name === `dist/${c.name}/package.json`)!;
    expect(JSON.parse(zipRead(zip, pkg).toString('utf8'))).toEqual({ type: 'commonjs' });
  });
});
