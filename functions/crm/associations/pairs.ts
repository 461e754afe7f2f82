import { invalidParameter } from '../../../shared/core/errors';
import type { HubSpotObjectType } from '../wire';

/**
 * Pairs of object types with a default association type in HubSpot (contact–company,
 * deal–contact, deal–company, ticket–contact, ticket–company, deal–ticket, both ways).
 * Same-type links (company parent/child…) have labels only, no default: not offered here.
 */
export function checkPair(from: HubSpotObjectType, to: HubSpotObjectType, parameter: string): void {
  if (from === to) {
    throw invalidParameter(parameter, `an object type other than ${from}`, `${parameter}: ${from} cannot be linked to ${from} with a default association; pick another object type.`);
  }
}
