import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpDeadline } from '../../shared/http/deadline';
import { lambdaContext } from '../../infra/lambda-events';

describe('httpDeadline', () => {
  afterEach(() => vi.useRealTimers());

  it('bounds an HTTP request by API Gateway\'s 29 s in a function whose own timeout is longer (MCP task workers), and by the function\'s time when shorter', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
    expect(httpDeadline(lambdaContext(900_000))).toBe(1_800_000_000_000 + 29_000);
    expect(httpDeadline(lambdaContext(5_000))).toBe(1_800_000_000_000 + 5_000);
    // Outside Lambda (the local server) there is no deadline.
    expect(httpDeadline(undefined)).toBeUndefined();
  });
});
