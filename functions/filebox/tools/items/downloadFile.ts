import * as z from 'zod';
import { byteSize } from '../../../../shared/core/render';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput } from '../../params';

interface Download {
  item_id: string;
  name: string;
  size?: number;
  /** ShareFile's download link: works without the API key until its token expires. */
  download_url: string;
}

export const downloadFile = fileboxTool({
  name: 'downloadFile',
  description:
    'Get a download link for a file: ShareFile\'s own tokenized link, which anyone holding it can open without the API key for a limited time ' +
    '(request a new one when it stops working). Needs download rights on the file; folders cannot be downloaded here. Read-only.',
  input: z.strictObject({ item_id: concreteItemIdInput('Id of the file (fi…) to download.', 'file') }),
  annotations: { readOnly: true, destructive: false, idempotent: false },
  async run({ item_id }, { client }): Promise<Download> {
    // The link comes from ShareFile's download-token flow (redirect=false answers the DownloadSpecification);
    // the service's own Blob port is not needed for a vendor that signs its links itself.
    const [item, spec] = await Promise.all([client.getItem(item_id, { select: 'Name,FileSizeBytes' }), client.downloadSpecification(item_id)]);
    return { item_id, name: item.Name ?? item_id, ...(item.FileSizeBytes !== undefined ? { size: item.FileSizeBytes } : {}), download_url: spec.DownloadUrl };
  },
  text: (r: Download) => `${r.item_id} ${r.name}${r.size !== undefined ? ` ${byteSize(r.size)}` : ''}\ndownload (no key needed, expires): ${r.download_url}`,
  example: {
    input: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a' },
    result: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', name: 'offer.pdf', size: 667, download_url: 'https://acme.sf-api.com/download?dt=dta0000003e9x1y2z3' },
  },
});
