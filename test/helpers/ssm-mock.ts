import { SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { resetKeyCache } from '../../shared/aws/ssm';

/**
 * SSM mocked for direct Lambda invocations (the key comes from a SecureString), reset before each
 * test; `each` runs after the reset (e.g. to answer GetParameter). Safety net: were the mock ever
 * bypassed, the SDK would fail on a closed loopback port instead of reaching AWS.
 */
export function mockSsm(each?: (ssm: ReturnType<typeof mockClient>) => void) {
  const ssm = mockClient(SSMClient);
  beforeAll(() => {
    vi.stubEnv('AWS_REGION', 'eu-central-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAIOSFODNN7EXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
    vi.stubEnv('AWS_ENDPOINT_URL_SSM', 'http://127.0.0.1:9');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    ssm.restore();
  });
  beforeEach(() => {
    ssm.reset();
    resetKeyCache();
    each?.(ssm);
  });
  return ssm;
}
