import * as z from 'zod';
import { offset, page } from '../../../../shared/core/params';
import { listFooter } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { contactLine, toContact, type Contact } from '../../apps/people';

interface ContactPage {
  contacts: Contact[];
  /** The offset of the next page; null on the last one. */
  next_offset: number | null;
}

export const getContacts = collabTool({
  name: 'getContacts',
  description:
    'Find contacts (profiles) the key can see, by part of the name and/or the email: profile_id (what contact fields of items take), user_id (null for a ' +
    'contact that is no Podio user), name and email. Use it to turn a person named in a request into the profile_id of a contact field, or the user_id of a ' +
    'mention. Paged by offset (limit default 50, max 500). Read-only.',
  input: z.strictObject({
    name: z.string().trim().min(1).max(200).optional().describe('Part of the contact\'s name (case-insensitive), e.g. "okafor".'),
    email: z.string().trim().min(1).max(320).optional().describe('Part of or the whole email address, e.g. "ben.okafor@sandbox-co.test".'),
    limit: page({ default: 50, max: 500, what: 'Contacts per page' }),
    offset: offset(),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ name, email, limit, offset }, { client }): Promise<ContactPage> {
    // Podio filters contacts by any profile field given as a query key: `name`, `mail`.
    const page = await client.listContacts({ limit, offset, ...(name ? { name } : {}), ...(email ? { mail: email } : {}) });
    return { contacts: page.map(toContact), next_offset: page.length >= limit ? offset + page.length : null };
  },
  text: (r: ContactPage, input) => {
    const filter = [input.name ? `name "${input.name}"` : '', input.email ? `email "${input.email}"` : ''].filter(Boolean).join(' and ');
    const also = [input.name ? `name ${JSON.stringify(input.name)}` : '', input.email ? `email ${JSON.stringify(input.email)}` : ''].filter(Boolean).join(', ');
    return [
      ...r.contacts.map(contactLine),
      listFooter({
        shown: r.contacts.length,
        noun: 'contact',
        next: r.next_offset !== null ? { param: 'offset', value: r.next_offset, ...(also ? { also: `with ${also}` } : {}) } : undefined,
        empty: filter ? `no contacts match ${filter}` : 'no contacts on this page',
      }),
    ].join('\n');
  },
  example: {
    input: { name: 'okafor' },
    result: { contacts: [{ profile_id: 5102, user_id: 1002, name: 'Ben Okafor', email: 'ben.okafor@sandbox-co.test', type: 'user' }], next_offset: null },
  },
});
