import type { ToolContext } from '../../../shared/core/tool';
import type { HubSpotClient } from '../client';
import { pipelines } from './catalog';
import type { ObjectKind } from './kinds';

/** The labels of a record's pipeline and stage ids, for text that names them. */
export interface Labels {
  pipeline?: string;
  stage?: string;
}

/** A labeller of records' pipeline and stage (from the cached pipelines); undefined labels for types without pipelines. */
export async function labelsOf(ctx: ToolContext<HubSpotClient>, kind: ObjectKind): Promise<(props: Record<string, string | null>) => Labels | undefined> {
  if (!kind.pipeline) return () => undefined;
  const { pipeline: pp, stage: sp } = kind.pipeline;
  const list = await pipelines(ctx, kind.type as 'deals' | 'tickets');
  return (props) => {
    const p = list.find((x) => x.id === props[pp]);
    const s = p?.stages.find((x) => x.id === props[sp]);
    if (!p && !s) return undefined;
    return { ...(p ? { pipeline: p.label } : {}), ...(s ? { stage: s.label } : {}) };
  };
}
