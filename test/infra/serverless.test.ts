import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../infra/build';
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
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AWS_') && !/^(RATE_LIMIT_|SLS_|SERVERLESS_)/.test(k)) env[k] = v;
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
    await run('npx', ['--no-install', 'osls', 'package', '--package', dir, ...args], { cwd: root, env: offlineEnv(env), timeout: 90_000 });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`osls package ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: err });
  }
  return JSON.parse(await readFile(join(dir, 'cloudformation-template-update-stack.json'), 'utf8'));
}

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
let bundle: Buffer;

beforeAll(async () => {
  const [info] = await buildAll();
  if (!info) throw new Error('no bundle built');
  bundle = await readFile(info.file);
  work = await mkdtemp(join(tmpdir(), 'tes-sls-'));
  // Default stage/region, then overrides from the command line and the environment. One after
  // the other: osls zips into <repo>/.serverless/ before copying to --package, so two runs race.
  dev = await oslsPackage(join(work, 'dev'));
  prod = await oslsPackage(join(work, 'prod'), ['--stage', 'prod', '--region', 'eu-west-1'], { RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '30' });
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('serverless.yml packaged by osls (offline)', () => {
  it('declares the dbapp Lambda: nodejs20.x on arm64, the bundle handler, the store environment', () => {
    const [, fn] = only(dev, 'AWS::Lambda::Function');
    const tableId = only(dev, 'AWS::DynamoDB::Table')[0];
    expect(fn.Properties).toMatchObject({
      FunctionName: 'tool-execution-service-dev-dbapp',
      Runtime: 'nodejs20.x',
      Handler: 'dist/dbapp/handler.handler',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 29,
    });
    expect(fn.Properties.Environment.Variables).toEqual({
      STORE: 'dynamodb',
      TABLE_NAME: { Ref: tableId },
      RATE_LIMIT_MAX: '600',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    expect(fn.Properties.Code.S3Key).toMatch(/\/dbapp\.zip$/);
  });

  it('takes stage, region and rate limits from the command line and the environment', () => {
    const [, fn] = only(prod, 'AWS::Lambda::Function');
    expect(fn.Properties.FunctionName).toBe('tool-execution-service-prod-dbapp');
    expect(fn.Properties.Environment.Variables).toMatchObject({ RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '30' });
    const ssm = statements(prod).find((s) => s.Action.includes('ssm:GetParameter'));
    expect(ssm?.Resource).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/tool-execution-service/prod/*' });
    const [, rule] = only(prod, 'AWS::Events::Rule');
    expect(JSON.parse(rule.Properties.Targets[0].Input).key_parameter).toBe('/tool-execution-service/prod/dbapp/api-key');
  });

  it('routes POST /v1/tools/dbapp/{tool} and GET /v1/tools/dbapp of an HTTP API (payload 2.0) to the function', () => {
    const fnId = only(dev, 'AWS::Lambda::Function')[0];
    const [integrationId, integration] = only(dev, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
    const routes = ofType(dev, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['GET /v1/tools/dbapp', 'POST /v1/tools/dbapp/{tool}']);
    for (const r of routes) expect(JSON.stringify(r.Target)).toContain(integrationId);
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

  it('grants least privilege: 3 DynamoDB actions on the table, ssm:GetParameter on the stage path', () => {
    const tableId = only(dev, 'AWS::DynamoDB::Table')[0];
    const all = statements(dev);
    for (const s of all) {
      expect(s.Effect).toBe('Allow');
      expect(s.Action.some((a) => a === '*' || a.endsWith(':*'))).toBe(false);
    }

    const dynamo = all.filter((s) => s.Action.some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect([...dynamo[0]!.Action].sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(dynamo[0]!.Resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });

    const ssm = all.filter((s) => s.Action.some((a) => a.startsWith('ssm:')));
    expect(ssm).toHaveLength(1);
    expect(ssm[0]!.Action).toEqual(['ssm:GetParameter']);
    expect(ssm[0]!.Resource).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/tool-execution-service/dev/*' });

    // Besides ours, only the framework's own CloudWatch Logs statements, scoped to the service's log groups.
    const rest = all.filter((s) => !dynamo.includes(s) && !ssm.includes(s));
    for (const s of rest) {
      expect(s.Action.every((a) => a.startsWith('logs:'))).toBe(true);
      expect(JSON.stringify(s.Resource)).toContain('log-group:/aws/lambda/tool-execution-service-dev');
    }
    // No statement anywhere grants a bare "*" resource.
    expect(JSON.stringify(all.map((s) => s.Resource))).not.toMatch(/"\*"/);
  });

  it('declares the example scheduled job DISABLED, with key_parameter and no plaintext key', () => {
    const fnId = only(dev, 'AWS::Lambda::Function')[0];
    const [ruleId, rule] = only(dev, 'AWS::Events::Rule');
    expect(rule.Properties.State).toBe('DISABLED');
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 day)');
    const [target] = rule.Properties.Targets;
    expect(target.Arn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    const input = JSON.parse(target.Input);
    expect(input).toEqual({ tool: 'listWorkspaces', params: {}, format: 'json', key_parameter: '/tool-execution-service/dev/dbapp/api-key' });
    for (const k of ['key', 'api_key', 'authorization', 'token']) expect(input).not.toHaveProperty(k);
    expect(target.Input).not.toMatch(/user_key_|Bearer/);
    const permissions = ofType(dev, 'AWS::Lambda::Permission').map(([, p]) => p.Properties);
    expect(permissions).toContainEqual(expect.objectContaining({ Principal: 'events.amazonaws.com', SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] } }));
  });

  it('packages dbapp.zip with only the bundle, byte for byte', async () => {
    const zip = await readFile(join(work, 'dev', 'dbapp.zip'));
    const entries = zipEntries(zip);
    expect(entries.map((e) => e.name).sort()).toEqual(['dist/dbapp/handler.js', 'dist/dbapp/package.json']);
    const handler = entries.find((e) => e.name === 'dist/dbapp/handler.js')!;
    expect(zipRead(zip, handler).equals(bundle)).toBe(true);
    const pkg = entries.find((e) => e.name === 'dist/dbapp/package.json')!;
    expect(JSON.parse(zipRead(zip, pkg).toString('utf8'))).toEqual({ type: 'commonjs' });
  });
});
