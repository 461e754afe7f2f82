import type { ToolLoaders } from '../../../../shared/tool';
import type { PodioClient } from '../../client';

/** The items tools of issue 7 (spec §4.2/§4.3), each loaded on first use. */
export const itemTools: ToolLoaders<PodioClient> = {
};
