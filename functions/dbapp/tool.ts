import type * as z from 'zod';
import { defineTool, type Tool } from '../../shared/tool';
import type { TapeClient } from './client';

/** defineTool for dbapp: the platform and client type are fixed here once. */
export function dbappTool<S extends z.ZodType, R>(tool: Omit<Tool<S, R, TapeClient>, 'platform'>): Tool<S, R, TapeClient> {
  return defineTool({ ...tool, platform: 'dbapp' });
}
