import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { collab } from '../../functions/collab';
import { createPodioTwin, PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { S3BlobStore } from '../../shared/blob/s3';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext } from '../../infra/lambda-events';
import { xlsxFile } from './files-fixtures';

const s3 = mockClient(S3Client);
afterAll(() => s3.restore());

/** The collab Lambda wired to a twin, with the S3 Blob store of AWS (its client mocked). */
function setup() {
  const twin = createPodioTwin();
  const client = new S3Client({ region: 'eu-central-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example-secret' } });
  const handler = lambdaHandler(collab, { fetchFor: { collab: twin.fetch }, store: new MemoryStore(), config: loadConfig({}), blob: new S3BlobStore(client, 'tes-blobs-dev') });
  const call = async (tool: string, params: unknown) => {
    const event = httpApiV2Event({ method: 'POST', path: `/v1/tools/collab/${tool}`, query: { format: 'json' }, headers: { Authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'Content-Type': 'application/json' }, body: JSON.stringify(params) });
    const res = (await handler(event, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    return { status: res.statusCode, body: JSON.parse(res.body ?? '{}') };
  };
  return { twin, call };
}

describe('file, hook and search tools through the Lambda handler', () => {
  it('uploadFile → fileToMarkdown → downloadFile with a presigned S3 link → deleteFile deletes the S3 copy; createHook; searchPodio', async () => {
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
    const { call } = setup();
    const up = await call('uploadFile', { files: [{ filename: 'prices.xlsx', content: Buffer.from(await xlsxFile(1, 1)).toString('base64') }] });
    expect(up.status).toBe(200);
    const id = up.body.data.files[0].file_id;
    const md = await call('fileToMarkdown', { file_id: id });
    expect(md.body.data.markdown).toContain('## Sheet: Region 1\n\n| Product | Units | Price |');
    const dl = await call('downloadFile', { file_id: id });
    expect(dl.status).toBe(200);
    const put = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(put).toMatchObject({ Bucket: 'tes-blobs-dev', ContentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    expect(put.Key).toBe(`collab/files/${id}`);
    const u = new URL(dl.body.data.download_url);
    expect(`${u.host}${u.pathname}`).toBe(`tes-blobs-dev.s3.eu-central-1.amazonaws.com/${put.Key}`);
    expect(u.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(dl.body.data.download_url).not.toContain(SANDBOX_KEYS.owner);
    expect(dl.body.data).toMatchObject({ file_id: id, name: 'prices.xlsx', expires_in: 3600 });
    // Deleting the file deletes the copy its link points at.
    expect((await call('deleteFile', { file_id: id })).status).toBe(200);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: 'tes-blobs-dev', Key: put.Key }]);
    // A public address literal: the target check resolves names, and tests have no DNS.
    const hook = await call('createHook', { ref_type: 'app', ref_id: PODIO_DEMO.apps.deals, url: 'https://93.184.215.14/podio', type: 'item.create' });
    expect(hook.body.data.hook_id).toBeGreaterThan(0);
    const found = await call('searchPodio', { query: 'northwind', ref_type: 'item', limit: 1 });
    expect(found.body.data).toMatchObject({ returned: 1, has_more: true, results: [{ type: 'item' }] });
  });
});
