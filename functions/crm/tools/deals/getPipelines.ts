import * as z from 'zod';
import { scopedCache } from '../../../../shared/core/store';
import { CATALOG_TTL_SECONDS } from '../../objects/catalog';
import { crmTool } from '../../tool';

export interface PipelineOut {
  id: string;
  label: string;
  displayOrder: number;
  stages: { id: string; label: string; displayOrder: number }[];
}

interface Pipelines {
  objectType: 'deals' | 'tickets';
  pipelines: PipelineOut[];
}

export const getPipelines = crmTool({
  name: 'getPipelines',
  description:
    'List the pipelines of deals (default) or tickets with their stages, in display order: a stage id is the value of dealstage (tickets: crm_pipeline_stage), ' +
    'a pipeline id the value of pipeline (crm_pipeline). Use it before setting a stage: a stage must belong to the record\'s pipeline. Read-only.',
  input: z.strictObject({
    object_type: z.enum(['deals', 'tickets']).default('deals').describe('deals (default) or tickets: the object types that have pipelines.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<Pipelines> {
    const { results } = await ctx.client.listPipelines(input.object_type);
    // A fresh read also refreshes what the stage checks of the writes use.
    await scopedCache(ctx.store, ctx.keyHash).put(`crm:pipelines:${input.object_type}`, results, CATALOG_TTL_SECONDS);
    const byOrder = <T extends { displayOrder: number }>(xs: T[]) => [...xs].sort((a, b) => a.displayOrder - b.displayOrder);
    return {
      objectType: input.object_type,
      pipelines: byOrder(results.filter((p) => !p.archived)).map((p) => ({
        id: p.id, label: p.label, displayOrder: p.displayOrder,
        stages: byOrder(p.stages.filter((s) => !s.archived)).map((s) => ({ id: s.id, label: s.label, displayOrder: s.displayOrder })),
      })),
    };
  },
  text: (r) =>
    [
      ...r.pipelines.map((p) => `pipeline ${p.id} ${p.label}: ${p.stages.map((s) => `${s.id} ${s.label}`).join(' › ')}`),
      `${r.pipelines.length} ${r.objectType === 'deals' ? 'deal' : 'ticket'} pipeline${r.pipelines.length === 1 ? '' : 's'}`,
    ].join('\n'),
  example: {
    input: {},
    result: {
      objectType: 'deals',
      pipelines: [
        { id: 'default', label: 'Sales Pipeline', displayOrder: 0, stages: [{ id: 'appointmentscheduled', label: 'Appointment Scheduled', displayOrder: 0 }, { id: 'closedwon', label: 'Closed Won', displayOrder: 5 }] },
        { id: '6482715', label: 'Renewals', displayOrder: 1, stages: [{ id: '6482716', label: 'Renewal due', displayOrder: 0 }, { id: '6482717', label: 'Proposal', displayOrder: 1 }] },
      ],
    },
  },
});
